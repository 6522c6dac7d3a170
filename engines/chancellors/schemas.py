"""Chancellors: the game options, the fields of each command (``type`` and ``seat``
excluded), and what the game shows: a seat's or a spectator's view during play,
the view of a finished game, and the whole state (the recorder's)."""

from marshmallow import Schema, fields, validate

from engines.chancellors import state as st
from engines.chancellors.cards import SERVICE_IDS
from engines.kit import shapes as v
from engines.kit.numbers import INT32_MAX, INT32_MIN
from engines.kit.state_schema import state_schema


class ChancellorsOptions(Schema):
    target = fields.Integer(load_default=100, strict=True, validate=validate.Range(min=10, max=500))
    # The extended deck adds the Pawns, Courts and the Excuse; each can also be
    # chosen on its own (None: follow ``extended_deck``).
    extended_deck = fields.Boolean(load_default=False)
    pawns = fields.Boolean(load_default=None, allow_none=True)
    courts = fields.Boolean(load_default=None, allow_none=True)
    excuse = fields.Boolean(load_default=None, allow_none=True)


CardId = fields.String


class ChooseCard(Schema):
    card = CardId(required=True)


class SolveProblem(Schema):
    problem = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=INT32_MAX))
    cards = fields.List(CardId(), required=True, validate=validate.Length(min=1))
    excuse = fields.Boolean(load_default=False)


class SolvePart(Schema):
    problem = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=INT32_MAX))
    card = CardId(required=True)
    set_aside = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=6))
    excuse = fields.Boolean(load_default=False)


class Pass(Schema):
    abdicate = fields.Boolean(load_default=False)


class DiscardDown(Schema):
    cards = fields.List(CardId(), required=True, validate=validate.Length(min=1))


class RollDice(Schema):
    problem = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=INT32_MAX))
    dice = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=INT32_MIN, max=INT32_MAX)),
        required=True,
        validate=validate.Length(min=1, max=2),
    )


class DrawCards(Schema):
    player = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=INT32_MAX))
    cards = fields.List(CardId(), required=True, validate=validate.Length(min=1, max=3))


OPTIONS = ChancellorsOptions
COMMANDS = {
    "ChooseCard": ChooseCard,
    "SolveProblem": SolveProblem,
    "SolvePart": SolvePart,
    "Pass": Pass,
    "DiscardDown": DiscardDown,
    "RollDice": RollDice,
    "DrawCards": DrawCards,
}


# ------------------------------------------------------------------ what the game shows
PHASES, PROBLEM_STATUSES, ENDINGS = st.PHASES, st.PROBLEM_STATUSES, st.ENDINGS
card_id, die, per_seat = st.card_id, st.die, st.per_seat


class ChancellorsProblemView(Schema):
    dice = v.array(die(), description="The dice still to solve.")
    set_aside = v.array(die(), description="The dice already solved this turn.")
    status = v.string(PROBLEM_STATUSES)


#: Who holds each royal service (null: it is in the centre).
ChancellorsServices = Schema.from_dict(
    {s: v.seat(null=True) for s in SERVICE_IDS}, name="ChancellorsServices"
)


class ChancellorsDeckChoice(Schema):
    pawns = v.boolean()
    courts = v.boolean()
    excuse = v.boolean()


class ChancellorsView(Schema):
    """A seat's or a spectator's view during play: hands and face-down choices hidden."""

    finished = v.boolean(False)
    phase = v.string([p for p in PHASES if p != st.OVER])
    turn = v.count()
    target = v.count()
    scores = per_seat(v.integer())
    problems = v.array(v.nested(ChancellorsProblemView))
    services = v.nested(ChancellorsServices)
    acting_service = v.string(SERVICE_IDS, null=True, description="The service acting now (control phase).")
    excuse_holder = v.seat(null=True)
    excuse_used = v.boolean()
    discards = v.array(card_id())
    pile_size = v.count()
    hand_sizes = per_seat(v.count())
    chosen = per_seat(v.boolean(), description="Whether each seat has chosen its card face down.")
    to_act = v.array(v.seat())
    waiting_for_chance = v.boolean()
    last_solver = v.seat(null=True)
    deck = v.nested(ChancellorsDeckChoice)
    seat = v.seat(optional=True, description=v.ONLY_SEATS)
    hand = v.array(card_id(), optional=True, description=v.ONLY_SEATS)
    my_choice = card_id(null=True, optional=True, description=v.ONLY_SEATS)


ChancellorsProblem = st.ProblemShape
#: The whole state: every hand, the pile and the choices (the recorder's view); derived from ``state.py``.
ChancellorsState = state_schema(st.ChancellorsState)


class ChancellorsFinishedView(ChancellorsState):
    """Everyone's view of a finished game: the whole state."""

    finished = v.boolean(True)
    phase = v.string([st.OVER])


STATE = ChancellorsState
VIEWS = (ChancellorsView, ChancellorsFinishedView)
