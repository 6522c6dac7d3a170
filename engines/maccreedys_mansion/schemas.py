"""MacCreedy's Mansion: game options, command fields (``type`` and ``seat``
excluded) and what the game shows: everyone's view during play (the decks'
sizes, not their cards) and once the game is finished, and the whole state
(the recorder's). Card, space, worker and resource ids come from the game's
catalog, so they are plain strings."""

from marshmallow import Schema, fields, validate

from engines.kit import shapes as v
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion import state as st

WORKERS = ["carpenter", "mason", "electrician", "plumber", "gasman"]
RESOURCES = ["stone", "lumber", "wiring", "pipes"]
Money = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=10**9))


class MacCreedysMansionOptions(Schema):
    first_player = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=4))
    # A house rule: the rulebook sets no limit on the number of rounds.
    max_rounds = fields.Integer(load_default=20, strict=True, validate=validate.Range(min=1, max=200))
    covered_rooms = fields.List(fields.String(), load_default=list, validate=validate.Length(max=40))


class Empty(Schema):
    pass


class DrawCard(Schema):
    deck = fields.String(required=True, validate=validate.OneOf(["job", "event", "haunt"]))
    cards = fields.List(fields.String(), required=True, validate=validate.Length(equal=1))


class HireWorker(Schema):
    worker = fields.String(required=True, validate=validate.OneOf(WORKERS))


class BuyResources(Schema):
    resource = fields.String(required=True, validate=validate.OneOf(RESOURCES))
    count = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=1000))


class PlaceWorker(Schema):
    worker = fields.String(required=True, validate=validate.OneOf(WORKERS))
    space = fields.String(required=True, validate=validate.Length(min=1, max=64))


class DedicateResource(Schema):
    space = fields.String(required=True, validate=validate.Length(min=1, max=64))


class Haunt(Schema):
    target = fields.String(
        required=True, validate=validate.OneOf(["worker", "room", "location", "inspector"])
    )
    worker = fields.String(validate=validate.OneOf(WORKERS))
    room = fields.String(validate=validate.Length(min=1, max=64))
    location = fields.String(validate=validate.Length(min=1, max=64))


class Invest(Schema):
    amount = Money


class PayDebt(Schema):
    item = fields.String(required=True, validate=validate.OneOf(WORKERS + RESOURCES))


class PlaceBid(Schema):
    amount = Money


OPTIONS = MacCreedysMansionOptions
COMMANDS = {
    "DrawCard": DrawCard,
    "HireWorker": HireWorker,
    "BuyResources": BuyResources,
    "PassHiring": Empty,
    "PlaceWorker": PlaceWorker,
    "DedicateResource": DedicateResource,
    "FinishDay": Empty,
    "Haunt": Haunt,
    "PassHaunt": Empty,
    "CollectDividends": Empty,
    "LiquidateInvestment": Empty,
    "Invest": Invest,
    "PassInvestments": Empty,
    "PayDebt": PayDebt,
    "FinishSettling": Empty,
    "Reopen": Empty,
    "StayClosed": Empty,
    "PlaceBid": PlaceBid,
    "PassBid": Empty,
}


# ------------------------------------------------------------------ what the game shows
PHASES = (st.SETUP, *st.PHASES, st.OVER)
ENDINGS = ("", *(t.value for t in ev.Termination))  # "": not ended yet
DECKS = ("job", "event", "haunt")


def ids(**kw):
    return v.array(v.string(), **kw)


def space_and_seat(**kw):
    return v.array(v.row(v.string(), v.seat()), **kw)


def item_and_round(**kw):
    return v.array(v.row(v.string(), v.count()), **kw)


class _MaccreedysMansionTable(Schema):
    """What every shape of the game shares: the board, the phase and its turn."""

    seats = v.count()
    first = v.seat(description="The seat holding the First Player Marker.")
    max_rounds = v.count()
    covered = ids(description="Covered rooms.")
    phase = v.string(PHASES)
    round = v.count()
    markers = space_and_seat(description="[space, seat] of every marker on the board.")
    today = v.array(
        v.row(v.string(), v.seat(), v.string()), description="[space, seat, worker] placed today."
    )
    kept = space_and_seat(description="[space, seat] of the markers kept at End of Day.")
    track = ids(description="Open job cards, in the order they were drawn.")
    job_done = ids()
    event_discard = ids()
    haunt_discard = ids()
    revealed = v.string(null=True, description="This phase's Event or Haunt card.")
    resolving = v.boolean()
    turn = v.seat(null=True)
    passes = v.count()
    done = v.array(v.seat())
    day_ended = v.boolean()
    inspected = v.boolean()
    high_bid = v.count()
    high_bidder = v.seat(null=True)
    marker_moved = v.boolean()
    strikes = item_and_round(description="[worker, last round it cannot be hired].")
    haunted_workers = item_and_round(description="[worker, round] one piece missing that round.")
    haunted_rooms = item_and_round(description="[room, round] nobody places there that round.")
    no_inspection = v.array(v.count(), description="Rounds without Inspection.")
    inspector_haunted = v.array(v.count(), description="Rounds a closed company haunted the Inspector.")
    ended_by = v.string(ENDINGS)
    final_places = v.array(v.integer(1))


class MaccreedysMansionCatalog(Schema):
    id = v.string()
    version = v.count()
    reconstruction = v.boolean(description="The catalog reconstructs cards the rulebook does not print.")


class MaccreedysMansionCompanyView(Schema):
    seat = v.seat()
    status = v.string(("open", "closed", "out"))
    since = v.count()
    active = v.integer()
    invested = v.integer()
    money = v.integer()
    debts = ids(description="One debt marker per item (a worker type or a resource).")
    debt_total = v.count()
    jobs = ids()
    hired = v.mapping(v.count(), description="Worker type -> this round's workers.")
    unplaced = v.mapping(v.count(), description="Worker type -> hired and not yet placed today.")
    storage = v.mapping(v.count(), description="Resource -> in storage.")
    dedicated = v.mapping(v.count(), description="Resource -> dedicated this round.")
    due = v.integer()
    markers_in_hand = v.integer()


class _MaccreedysMansionSeen(_MaccreedysMansionTable):
    """What the views add to the table."""

    catalog = v.nested(MaccreedysMansionCatalog)
    you = v.seat(null=True, description="The viewer's seat; null for a spectator.")
    awaiting = v.seat(null=True, description="The seat whose choice the game waits for.")
    awaiting_card = v.string(DECKS, null=True, description="The deck a card is awaited from.")
    complete_locations = ids()
    companies = v.array(v.nested(MaccreedysMansionCompanyView))


class MaccreedysMansionView(_MaccreedysMansionSeen):
    """Everyone's view during play: the decks' sizes, not their cards."""

    phase = v.string([p for p in PHASES if p != st.OVER])
    job_deck_size = v.count()
    event_deck_size = v.count()
    haunt_deck_size = v.count()


class MaccreedysMansionFinishedView(_MaccreedysMansionSeen):
    """Everyone's view of a finished game: the decks' cards too."""

    phase = v.string([st.OVER])
    job_deck = ids()
    event_deck = ids()
    haunt_deck = ids()


class MaccreedysMansionTally(Schema):
    job_pay = v.count()
    wages_paid = v.count()
    vendors_paid = v.count()
    dividends = v.count()
    bids_paid = v.count()
    workers_hired = v.count()
    markers_placed = v.count()
    markers_lost = v.count()
    closures = v.count()
    haunts = v.count()


class MaccreedysMansionCompany(Schema):
    active = v.integer()
    invested = v.integer()
    status = v.nested(v.SeatStatusState)
    hired = v.array(v.count(), description="By worker type, in the catalog's order.")
    unplaced = v.array(v.count(), description="By worker type, in the catalog's order.")
    storage = v.array(v.count(), description="By resource, in the catalog's order.")
    dedicated = v.array(v.count(), description="By resource, in the catalog's order.")
    debts = ids()
    jobs = ids()
    due = v.integer()
    tally = v.nested(MaccreedysMansionTally)


class MaccreedysMansionState(_MaccreedysMansionTable):
    """The whole state without the catalog (the recorder's view)."""

    companies = v.array(v.nested(MaccreedysMansionCompany))
    job_deck = ids()
    event_deck = ids()
    haunt_deck = ids()


STATE = MaccreedysMansionState
VIEWS = (MaccreedysMansionView, MaccreedysMansionFinishedView)
