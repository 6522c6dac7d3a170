"""House of Cronies: game options, command fields (``type`` and ``seat`` excluded)
and what the game shows: a seat's or a spectator's view during play, the view
of a finished game, and the whole state (the recorder's). Card ids come from
the game's catalog, so they are plain strings."""

from marshmallow import Schema, ValidationError, fields, validate

from engines.house_of_cronies import catalog as cards
from engines.house_of_cronies import state as st
from engines.kit import shapes as v
from engines.kit.numbers import INT32_MAX
from engines.kit.state_schema import state_schema

POSITIONS = [
    "president",
    "vice-president",
    "finance",
    "justice",
    "service-delivery",
    "social-services",  # the setup section's name for Service delivery
    "communications",
    "communication",
    "foreign-ally",
]


class HouseOfCroniesOptions(Schema):
    first_speaker = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=3))


class Empty(Schema):
    pass


def _card_list(**kwargs):
    return fields.List(fields.String(), required=True, validate=validate.Length(min=1), **kwargs)


def _draw_target(value):
    if value == "table" or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3):
        return
    raise ValidationError('"to" is a seat (0-3) or "table".')


class DrawCards(Schema):
    deck = fields.String(required=True, validate=validate.OneOf(["main", "tactics"]))
    to = fields.Raw(required=True, validate=_draw_target)
    cards = fields.List(fields.String(), required=True)


class PlaceCrony(Schema):
    card = fields.String(required=True)
    position = fields.String(required=True, validate=validate.OneOf(POSITIONS))


class PickUpCard(Schema):
    card = fields.String(required=True)


class PlaceBid(Schema):
    card = fields.String(required=True)
    cards = _card_list()


class BuyTactics(Schema):
    count = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=INT32_MAX))
    cards = _card_list()


class PlayTactic(Schema):
    card = fields.String(required=True)
    target = fields.Integer(allow_none=True, strict=True, validate=validate.Range(min=0, max=3))
    position = fields.String(allow_none=True, validate=validate.OneOf(POSITIONS))
    crony = fields.String(allow_none=True)
    cabinet = fields.Dict(
        keys=fields.String(validate=validate.OneOf(POSITIONS)),
        values=fields.String(allow_none=True),
        allow_none=True,
    )


OPTIONS = HouseOfCroniesOptions
COMMANDS = {
    "DrawCards": DrawCards,
    "PlaceCrony": PlaceCrony,
    "PickUpCard": PickUpCard,
    "PlaceBid": PlaceBid,
    "PassBid": Empty,
    "BuyTactics": BuyTactics,
    "PlayTactic": PlayTactic,
    "PassReaction": Empty,
    "EndTurn": Empty,
}


# ------------------------------------------------------------------ what the game shows
STAGES, DECKS, HAWKS = st.STAGES, st.DECKS, st.HAWKS
PLAYING = tuple(stage for stage in STAGES if stage != st.OVER)
MOTION, POINT_OF_ORDER = st.MOTION, "point-of-order"
card_id, card_ids = st.card_id, st.card_ids


#: A cabinet by position: the crony or ally there (null: empty).
HouseOfCroniesCabinet = Schema.from_dict(
    {position: card_id(null=True) for position in cards.POSITIONS}, name="HouseOfCroniesCabinet"
)
HouseOfCroniesCronyCabinet = Schema.from_dict(
    {position: card_id(null=True) for position in cards.CRONY_POSITIONS}, name="HouseOfCroniesCronyCabinet"
)


class HouseOfCroniesPlayerView(Schema):
    seat = v.seat()
    cabinet = v.nested(HouseOfCroniesCabinet)
    hand_size = v.count()
    tactics_size = v.count()
    votes = v.integer()
    penalty = v.count()
    hand = card_ids(optional=True, description=v.ONLY_SEATS)
    tactics = card_ids(optional=True, description=v.ONLY_SEATS)
    to_place = card_ids(
        optional=True,
        description="The cards to place: shown to their seat, and to everyone after the opening.",
    )
    to_place_size = v.count(optional=True, description="During the opening, for the other seats: how many.")


class HouseOfCroniesAuctionView(Schema):
    card = card_id()
    opener = v.seat()
    high = v.seat(description="The seat holding the highest bid.")
    value = v.count(description="The highest bid's value.")
    asking = v.seat(
        null=True, description="The seat asked to raise or pass; null when no one is left to ask."
    )
    bids = v.mapping(card_ids(), description="Seat number -> the cards of its latest bid.")


class HouseOfCroniesPointOfOrderView(Schema):
    kind = v.string([POINT_OF_ORDER])
    answering = card_id(description="The tactic the next Point of order would answer.")
    waiting_for = v.array(v.seat())
    you_may_answer = v.boolean(description="The viewer's hand holds an answer (spectators: false).")


class HouseOfCroniesWindowView(Schema):
    kind = v.string([MOTION, HAWKS])
    target = v.seat(null=True, description="Hawks: the seat whose cabinet is exposed.")
    exclude = card_id(null=True, description="Hawks: the crony just won, which cannot be taken.")
    waiting_for = v.array(v.seat())
    you_may_answer = v.boolean(description="The viewer's hand holds an answer (spectators: false).")


HouseOfCroniesTactic = st.TacticShape


class HouseOfCroniesTacticView(HouseOfCroniesTactic):
    """A tactic as views show it: its new cabinet by position."""

    cabinet = v.nested(
        HouseOfCroniesCronyCabinet, null=True, description="Cabinet reshuffle: the new cabinet."
    )


class HouseOfCroniesView(Schema):
    """A seat's or a spectator's view during play: other hands and the decks hidden."""

    catalog = v.nested(v.CatalogVersion)
    seats = v.count()
    you = v.seat(null=True, description="The viewer's seat; null for a spectator.")
    speaker = v.seat()
    stage = v.string(PLAYING)
    round = v.count()
    final = v.boolean()
    turn = v.seat(null=True)
    main_deck_size = v.count()
    tactic_deck_size = v.count()
    main_discard = card_ids()
    tactic_discard = card_ids()
    table = card_ids()
    players = v.array(v.nested(HouseOfCroniesPlayerView))
    gained = v.array(v.seat())
    censured = v.array(v.seat())
    auction = v.nested(HouseOfCroniesAuctionView, null=True)
    window = v.either(v.nested(HouseOfCroniesPointOfOrderView), v.nested(HouseOfCroniesWindowView), null=True)
    chain = v.array(v.nested(HouseOfCroniesTacticView))
    protected = v.mapping(card_id(), description="Crony -> the Saxonwold shebeen card protecting it.")
    waiting_for_draw = v.boolean()


HouseOfCroniesPlayer = st.PlayerShape
HouseOfCroniesDraw = st.DrawShape
HouseOfCroniesAuction = st.AuctionShape
HouseOfCroniesWindow = st.WindowShape
HouseOfCroniesSeatStats = st.SeatStatsShape
#: The whole state without the catalog (the recorder's view); derived from ``state.py``.
HouseOfCroniesState = state_schema(st.HocState, name="HouseOfCroniesState")


class HouseOfCroniesFinishedView(HouseOfCroniesState):
    """Everyone's view of a finished game: the whole state and its catalog."""

    catalog = v.nested(v.CatalogVersion)
    stage = v.string([st.OVER])


STATE = HouseOfCroniesState
VIEWS = (HouseOfCroniesView, HouseOfCroniesFinishedView)
