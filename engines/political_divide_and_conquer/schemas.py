"""Political Divide & Conquer: game options, command fields (``type`` and ``seat``
excluded) and what the game shows: a seat's or a spectator's view during play,
the view of a finished game, and the whole state (the recorder's). Card ids
come from the game's catalog, so they are plain strings."""

from marshmallow import Schema, fields, validate

from engines.kit import shapes as v
from engines.kit.numbers import INT32_MAX, INT32_MIN
from engines.kit.state_schema import state_schema
from engines.political_divide_and_conquer import catalog as cards
from engines.political_divide_and_conquer import state as st

SEAT = validate.Range(min=0, max=7)


class PoliticalDivideAndConquerOptions(Schema):
    # None: every player rolls a die and the highest goes first (PDC-8)
    first_player = fields.Integer(load_default=None, allow_none=True, strict=True, validate=SEAT)


class Empty(Schema):
    pass


class StackOnto(Schema):
    card = fields.String(required=True)
    group = fields.String(required=True)


def _groups(**kwargs):
    return fields.List(fields.String(), validate=validate.Length(max=60), **kwargs)


def _stacks():
    return fields.List(fields.Nested(StackOnto), load_default=list, validate=validate.Length(max=60))


class DrawCards(Schema):
    to = fields.Integer(required=True, strict=True, validate=SEAT)
    cards = fields.List(fields.String(), required=True)


class TurnUpCard(Schema):
    cards = fields.List(fields.String(), required=True)


class RollForFirst(Schema):
    seats = fields.List(fields.Integer(strict=True, validate=SEAT), required=True)
    dice = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=INT32_MIN, max=INT32_MAX)), required=True
    )


class RollAttack(Schema):
    target = fields.String(required=True)
    dice = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=INT32_MIN, max=INT32_MAX)), required=True
    )


class TakeRandomCards(Schema):
    source = fields.Integer(required=True, strict=True, validate=SEAT)
    cards = fields.List(fields.String(), required=True)


class KeepCard(Schema):
    card = fields.String(required=True)
    return_to = fields.String(required=True, validate=validate.OneOf(["top", "bottom"]))


class OneCard(Schema):
    card = fields.String(required=True)


class StackCard(Schema):
    card = fields.String(required=True)
    group = fields.String(required=True)


class DeclareAttack(Schema):
    target = fields.String(required=True)
    intent = fields.String(required=True, validate=validate.OneOf(["take-over", "destroy"]))
    team = _groups(required=True)
    stacks = _stacks()


class AddToFight(Schema):
    groups = _groups(load_default=list)
    stacks = _stacks()


class PlayEvent(Schema):
    card = fields.String(required=True)
    target = fields.Integer(load_default=None, allow_none=True, strict=True, validate=SEAT)


OPTIONS = PoliticalDivideAndConquerOptions
COMMANDS = {
    "DrawCards": DrawCards,
    "TurnUpCard": TurnUpCard,
    "RollForFirst": RollForFirst,
    "RollAttack": RollAttack,
    "TakeRandomCards": TakeRandomCards,
    "KeepCard": KeepCard,
    "KeepBoth": Empty,
    "RejectGroup": OneCard,
    "AddToBase": OneCard,
    "StackCard": StackCard,
    "DeclareAttack": DeclareAttack,
    "RaiseDefence": AddToFight,
    "CallAttack": Empty,
    "UpTheAnte": AddToFight,
    "Stand": Empty,
    "PlayEvent": PlayEvent,
    "PassWindow": Empty,
    "EndTurn": Empty,
}


# ------------------------------------------------------------------ what the game shows
STAGES, TURN_STEPS, ATTACK_STEPS = st.STAGES, st.TURN_STEPS, st.ATTACK_STEPS
INTENTS, DRAW_REASONS = st.INTENTS, st.DRAW_REASONS
card_ids = st.card_ids


class PoliticalDivideAndConquerGroup(Schema):
    """A group on the table: its card, the cards stacked on it (oldest first), its wing and influence."""

    card = v.string()
    stack = card_ids()
    wing = v.string(cards.WINGS)
    influence = v.integer()


def groups(**kw):
    return v.array(v.nested(PoliticalDivideAndConquerGroup), **kw)


class PoliticalDivideAndConquerPlayerView(Schema):
    seat = v.seat()
    base = groups()
    hand_size = v.count()
    left = v.integer(description="Influence of the base's left wing.")
    right = v.integer(description="Influence of the base's right wing.")
    score = v.integer()
    base_cards = v.count()
    hand = card_ids(optional=True, description=v.ONLY_SEATS)


class PoliticalDivideAndConquerAttackView(Schema):
    attacker = v.seat()
    target = v.nested(PoliticalDivideAndConquerGroup)
    intent = v.string(INTENTS)
    defender = v.seat(null=True)
    team = groups(description="Groups laid from the attacker's hand.")
    from_base = groups(description="Conspiracy Theorist groups from the attacker's base.")
    defence = groups()
    step = v.string(ATTACK_STEPS)
    attack_bonus = v.integer()
    defence_bonus = v.integer()


class PoliticalDivideAndConquerAwaited(Schema):
    kind = v.string(
        ("draw", "pick"), description="Cards drawn from the deck, or taken at random from a hand."
    )
    seat = v.seat(description="The seat drawing, or whose hand is picked from.")


class PoliticalDivideAndConquerView(Schema):
    """A seat's or a spectator's view during play: other hands, the cards being
    kept and the deck's unknown cards hidden."""

    catalog = v.nested(v.CatalogVersion)
    seats = v.count()
    you = v.seat(null=True, description="The viewer's seat; null for a spectator.")
    stage = v.string([s for s in STAGES if s != st.OVER])
    turn = v.seat(null=True)
    step = v.string(TURN_STEPS, null=True)
    turns = v.count()
    deck = v.nested(v.DeckView)
    unaffiliated = groups()
    discard = card_ids()
    turned_up = card_ids()
    players = v.array(v.nested(PoliticalDivideAndConquerPlayerView))
    drawn = card_ids(
        null=True, description="The cards this turn's draw brought: only for the seat whose turn it is."
    )
    drawn_count = v.count()
    hand_was_empty = v.boolean()
    attack = v.nested(PoliticalDivideAndConquerAttackView, null=True)
    window = v.nested(v.WindowView, null=True)
    contenders = v.array(v.seat())
    ending = v.seat(null=True, description="The seat that drew the deck's last card.")
    waiting_for = v.array(v.nested(PoliticalDivideAndConquerAwaited))


PoliticalDivideAndConquerPlayer = st.PlayerShape
PoliticalDivideAndConquerDraw = st.DrawShape
PoliticalDivideAndConquerPick = st.PickShape
PoliticalDivideAndConquerAttack = st.AttackShape
PoliticalDivideAndConquerSeatStats = st.SeatStatsShape
#: The whole state without the catalog (the recorder's view); derived from ``state.py``.
PoliticalDivideAndConquerState = state_schema(st.PdcState, name="PoliticalDivideAndConquerState")


class PoliticalDivideAndConquerFinishedView(PoliticalDivideAndConquerState):
    """Everyone's view of a finished game: the whole state and its catalog."""

    catalog = v.nested(v.CatalogVersion)
    stage = v.string([st.OVER])


STATE = PoliticalDivideAndConquerState
VIEWS = (PoliticalDivideAndConquerView, PoliticalDivideAndConquerFinishedView)
