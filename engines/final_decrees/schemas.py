"""Final Decrees: the game options, the fields of each command (``type`` and
``seat`` excluded) and what the game shows: a seat's or a spectator's view
during play, the view of a finished game, and the whole state (the
recorder's). Card and decree ids come from the game's catalog, so they are
plain strings."""

from marshmallow import Schema, fields, validate

from engines.final_decrees import state as st
from engines.final_decrees.departments import ALL_DEPARTMENTS
from engines.kit import shapes as v
from engines.kit.numbers import INT32_MAX
from engines.kit.state_schema import state_schema

CardId = fields.String


class FinalDecreesOptions(Schema):
    # FD-42: "Altering the number of cards discarded can easily control the length of the game."
    decline_discards = fields.Integer(strict=True, load_default=5, validate=validate.Range(min=1, max=20))


class Empty(Schema):
    pass


class PlaceBid(Schema):
    amount = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=6))


class Posts(Schema):
    posts = fields.List(fields.String(validate=validate.OneOf(ALL_DEPARTMENTS)), required=True)


class PlayCard(Schema):
    card = CardId(required=True)
    target_seat = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=0, max=INT32_MAX)
    )
    target_department = fields.String(
        load_default=None, allow_none=True, validate=validate.OneOf(ALL_DEPARTMENTS)
    )


# "from" is a Python keyword, so this shape is built from a dict to keep the JSON name.
Move = Schema.from_dict(
    {
        "from": fields.String(required=True, validate=validate.OneOf(ALL_DEPARTMENTS)),
        "to": fields.String(required=True, validate=validate.OneOf(ALL_DEPARTMENTS)),
        "amount": fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=10_000)),
    },
    name="Move",
)


class SpreadBlame(Schema):
    moves = fields.List(fields.Nested(Move), required=True, validate=validate.Length(min=1, max=30))


class ForwardDecree(Schema):
    decree = fields.String(required=True)
    to = fields.String(required=True, validate=validate.OneOf(ALL_DEPARTMENTS))


class MovePlayer(Schema):
    player = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=INT32_MAX))


class StampDecree(Schema):
    decree = fields.String(required=True)


class Investigate(Schema):
    department = fields.String(required=True, validate=validate.OneOf(ALL_DEPARTMENTS))


class Restructure(Schema):
    change = fields.String(required=True, validate=validate.OneOf(["add", "remove", "reverse", "move"]))
    arrow = fields.List(fields.String(validate=validate.OneOf(ALL_DEPARTMENTS)), required=True)
    to = fields.List(fields.String(validate=validate.OneOf(ALL_DEPARTMENTS)))


class RemoveBlame(Schema):
    players = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=INT32_MAX)), load_default=list
    )
    departments = fields.Dict(
        keys=fields.String(validate=validate.OneOf(ALL_DEPARTMENTS)),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=INT32_MAX)),
        load_default=dict,
    )


class OfferTrade(Schema):
    to = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=INT32_MAX))
    give_amount = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=1000))
    give_cards = fields.List(CardId(), load_default=list, validate=validate.Length(max=60))
    ask_amount = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=1000))
    ask_cards = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=60))


class AcceptTrade(Schema):
    offer = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=INT32_MAX))
    cards = fields.List(CardId(), load_default=list, validate=validate.Length(max=60))


class AnswerTrade(Schema):
    offer = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=INT32_MAX))


class Cards(Schema):
    cards = fields.List(CardId(), required=True, validate=validate.Length(min=1, max=60))


class DrawCard(Schema):
    player = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=INT32_MAX))
    cards = fields.List(CardId(), required=True, validate=validate.Length(equal=1))


OPTIONS = FinalDecreesOptions
COMMANDS = {
    "PlaceBid": PlaceBid,
    "AssignDepartments": Posts,
    "TakeDrawAction": Empty,
    "PlayCard": PlayCard,
    "SpreadBlame": SpreadBlame,
    "ForwardDecree": ForwardDecree,
    "MovePlayer": MovePlayer,
    "StampDecree": StampDecree,
    "GainActions": Empty,
    "Investigate": Investigate,
    "GoOnManeuvers": Empty,
    "ReassignPlayers": Posts,
    "Restructure": Restructure,
    "EndTurn": Empty,
    "RemoveBlame": RemoveBlame,
    "OfferTrade": OfferTrade,
    "AcceptTrade": AcceptTrade,
    "DeclineTrade": AnswerTrade,
    "WithdrawTrade": AnswerTrade,
    "DealHands": Cards,
    "DrawCard": DrawCard,
    "DiscardFromDeck": Cards,
}


# ------------------------------------------------------------------ what the game shows
PHASES, ONCE_PER_TURN, ENDINGS = st.PHASES, st.ONCE_PER_TURN, st.ENDINGS
department, card_ids, per_seat = st.department, st.card_ids, st.per_seat


class FinalDecreesDepartmentView(Schema):
    head = v.seat(null=True)
    blame = v.count()
    controller = department(null=True, description="The department whose arrow points here.")
    below = v.array(department(), description="Every department under this one in its chain.")
    chain_top = department()
    decrees = v.array(v.string(), description="The decrees this department holds.")


#: The departments in play, by name.
FinalDecreesDepartments = Schema.from_dict(
    {d: v.nested(FinalDecreesDepartmentView, optional=True) for d in ALL_DEPARTMENTS},
    name="FinalDecreesDepartments",
)


class FinalDecreesDecreeView(Schema):
    id = v.string()
    steps = v.array(department(), description="The departments that stamp it, in order.")
    stamped = v.count()
    at = department(null=True, description="The department holding it; null once enacted.")
    enacted = v.boolean()


class FinalDecreesOfferView(Schema):
    """An open trade offer; card ids only for its two parties."""

    offer = v.count(description="The offer's id.")
    seat = v.seat(description="Who offers.")
    to = v.seat(description="Who may accept.")
    give_amount = v.count()
    give_cards = v.either(
        card_ids(), v.count(), description="The cards offered: their ids for the two parties, else how many."
    )
    ask_amount = v.count()
    ask_cards = v.count(description="How many cards are asked for.")


class FinalDecreesView(Schema):
    """A seat's or a spectator's view during play: hands and sealed bids hidden."""

    finished = v.boolean(False)
    phase = v.string([p for p in PHASES if p != st.OVER])
    turn = v.count()
    active = v.seat(null=True)
    actions_left = v.count()
    used = v.array(v.string(ONCE_PER_TURN), description="The once-per-turn things used this turn.")
    to_act = v.array(v.seat())
    waiting_for_chance = v.boolean()
    bid_round = v.count()
    bidders = v.array(v.seat())
    bid_made = per_seat(v.boolean())
    personal = per_seat(v.integer(), description="Each seat's personal blame.")
    departments = v.nested(FinalDecreesDepartments)
    empty_department = department(null=True)
    arrows = v.array(v.row(department(), department()), description="[controller, controlled].")
    decrees = v.array(v.nested(FinalDecreesDecreeView))
    enacted = v.count()
    next_allowance = v.count()
    deck_size = v.count()
    decline_in_deck = v.boolean()
    decline_window = v.array(v.count(), null=True, description="Where in the deck the decline card may be.")
    discards = card_ids()
    hand_sizes = per_seat(v.count())
    awaiting = v.nested(v.AwaitedStep, null=True)
    offers = v.array(v.nested(FinalDecreesOfferView))
    seat = v.seat(optional=True, description=v.ONLY_SEATS)
    hand = card_ids(optional=True, description=v.ONLY_SEATS)
    my_bid = v.count(null=True, optional=True, description=v.ONLY_SEATS)


FinalDecreesDecree = st.DecreeShape
FinalDecreesOffer, FinalDecreesOfferBook = st.FinalDecreesOffer, st.FinalDecreesOfferBook
#: The whole state without the catalog (the recorder's view); derived from ``state.py``.
FinalDecreesState = state_schema(st.FdState, name="FinalDecreesState")


class FinalDecreesFinishedView(FinalDecreesState):
    """Everyone's view of a finished game: the whole state."""

    finished = v.boolean(True)
    phase = v.string([st.OVER])


STATE = FinalDecreesState
VIEWS = (FinalDecreesView, FinalDecreesFinishedView)
