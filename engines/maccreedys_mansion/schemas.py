"""MacCreedy's Mansion: game options, command fields (``type`` and ``seat``
excluded) and what the game shows: everyone's view during play (the decks'
sizes, not their cards) and once the game is finished, and the whole state
(the recorder's). Card, space, worker and resource ids come from the game's
catalog, so they are plain strings."""

from marshmallow import Schema, fields, validate

from engines.kit import shapes as v
from engines.kit.state_schema import state_schema
from engines.maccreedys_mansion import state as st
from engines.maccreedys_mansion.decide import MOST_BOUGHT

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
    count = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MOST_BOUGHT))


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
PHASES, ENDINGS = st.ALL_PHASES, st.ENDINGS
DECKS = ("job", "event", "haunt")
ids, space_and_seat, item_and_round = st.ids, st.space_and_seat, st.item_and_round

#: What every shape of the game shares: the board, the phase and its turn.
_MaccreedysMansionTable = state_schema(
    st.MmState, name="_MaccreedysMansionTable", exclude=("companies", "job_deck", "event_deck", "haunt_deck")
)


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


MaccreedysMansionTally = st.TallyShape
MaccreedysMansionCompany = st.CompanyShape
#: The whole state without the catalog (the recorder's view); derived from ``state.py``.
MaccreedysMansionState = state_schema(st.MmState, name="MaccreedysMansionState")


STATE = MaccreedysMansionState
VIEWS = (MaccreedysMansionView, MaccreedysMansionFinishedView)
