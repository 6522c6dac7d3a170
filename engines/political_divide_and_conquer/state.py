"""Political Divide & Conquer state: frozen dataclasses, tuples and plain values.

Hands are sorted (a hand is a multiset); bases, the unaffiliated area and
every stack keep their order (a stack's newest card is last). The deck keeps
its known top and bottom cards (``engines.kit.deck``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.kit import shapes as v
from engines.kit import state_schema as records
from engines.kit.deck import Deck
from engines.kit.frozen import replace
from engines.kit.items import SeatedRecord
from engines.kit.state_schema import kept_out, shaped, state_schema, tagged_schema
from engines.kit.windows import Window
from engines.political_divide_and_conquer.catalog import CardDef, Catalog

SETUP = "setup"  # dealing, turning up the opening group, rolling for the first player
TURNS = "turns"
OVER = "over"

# the steps of a turn
DRAWING = "drawing"  # the turn's cards are being drawn
KEEPING = "keeping"  # keep one card, return the other
CHOOSING = "choosing"  # take one of A to D
ATTACKING = "attacking"  # an attack is under way
DONE = "done"  # the turn's choice is made; the turn ends

# the steps of an attack
RAISE = "raise"  # the defender raises or calls
ANTE = "ante"  # the attacker may up the ante
PRE_ROLL = "pre-roll"  # the window before the roll
ROLL = "roll"  # the dice are awaited


# an attack's intent
TAKE_OVER = "take-over"
DESTROY = "destroy"

# What the game shows of its state: the shapes of its fields (``engines.kit.shapes``).
# Card ids come from the game's catalog, so they are plain strings.
STAGES = ("new", SETUP, TURNS, OVER)
TURN_STEPS = (DRAWING, KEEPING, CHOOSING, ATTACKING, DONE)
ATTACK_STEPS = (RAISE, ANTE, PRE_ROLL, ROLL)
INTENTS = (TAKE_OVER, DESTROY)
DRAW_REASONS = ("deal", "turn", "event")


def card_ids(**kw):
    return v.array(v.string(), **kw)


@dataclass(frozen=True)
class Draw:
    """Cards the game waits to draw from the deck into a seat's hand."""

    seat: int = shaped(v.seat())
    count: int = shaped(v.count())
    reason: str = shaped(v.string(DRAW_REASONS))


@dataclass(frozen=True)
class Pick:
    """Cards the game waits to take at random from a hand (an event's effect)."""

    source: int = shaped(v.seat())
    to: int | None = shaped(v.seat(null=True, description="A seat, or null: the discard heap."))
    count: int = shaped(v.count())
    by: int = shaped(v.seat(description="The seat whose event it is."))


@dataclass(frozen=True)
class Attack:
    attacker: int = shaped(v.seat())
    target: str = shaped(v.string())
    intent: str = shaped(v.string(INTENTS))
    defender: int | None = shaped(v.seat(null=True))  # the target's owner, None when unaffiliated
    team: tuple[str, ...] = shaped(card_ids())  # groups laid from the hand
    #: Conspiracy Theorist groups from the attacker's base
    from_base: tuple[str, ...] = shaped(card_ids(), default=())
    defence: tuple[str, ...] = shaped(card_ids(), default=())  # groups the defender laid from the hand
    step: str = shaped(v.string(ATTACK_STEPS), default=RAISE)
    attack_bonus: int = shaped(v.integer(), default=0)
    defence_bonus: int = shaped(v.integer(), default=0)

    @property
    def groups(self) -> tuple[str, ...]:
        """Every group the attack involves: stacks may go on any of them."""
        return (*self.team, *self.from_base, self.target, *self.defence)


@dataclass(frozen=True)
class SeatStats:
    attacks: int = shaped(v.count(), default=0)
    attacks_won: int = shaped(v.count(), default=0)
    groups_taken_over: int = shaped(v.count(), default=0)
    groups_destroyed: int = shaped(v.count(), default=0)
    groups_lost: int = shaped(v.count(), default=0)
    defences_raised: int = shaped(v.count(), default=0)
    events_played: int = shaped(v.count(), default=0)
    cards_returned_top: int = shaped(v.count(), default=0)
    cards_returned_bottom: int = shaped(v.count(), default=0)


@dataclass(frozen=True)
class Player:
    hand: tuple[str, ...] = shaped(card_ids(), default=())
    base: tuple[str, ...] = shaped(card_ids(), default=())


PlayerShape = state_schema(Player, name="PoliticalDivideAndConquerPlayer")
DrawShape = tagged_schema(Draw, name="PoliticalDivideAndConquerDraw")
PickShape = tagged_schema(Pick, name="PoliticalDivideAndConquerPick")
AttackShape = state_schema(Attack, name="PoliticalDivideAndConquerAttack")
SeatStatsShape = state_schema(SeatStats, name="PoliticalDivideAndConquerSeatStats")


@dataclass(frozen=True)
class PdcState(SeatedRecord):
    catalog: Catalog = kept_out()  # the game's config holds it
    seats: int = shaped(v.count())
    stage: str = shaped(v.string(STAGES), default="new")
    players: tuple[Player, ...] = shaped(v.array(v.nested(PlayerShape)), default=())
    unaffiliated: tuple[str, ...] = shaped(card_ids(), default=())
    #: (group, cards oldest first), by group id
    stacks: tuple[tuple[str, tuple[str, ...]], ...] = shaped(
        v.array(v.row(v.string(), card_ids()), description="[group, cards oldest first], by group."),
        default=(),
    )
    discard: tuple[str, ...] = shaped(card_ids(), default=())
    #: setup: non-groups turned up before the opening group
    turned_up: tuple[str, ...] = shaped(card_ids(), default=())
    #: setup: seats still rolling for the first player
    contenders: tuple[int, ...] = shaped(v.array(v.seat()), default=())
    pending: tuple[Draw | Pick, ...] = shaped(
        v.array(
            v.either(v.nested(DrawShape), v.nested(PickShape)),
            description="Draws and picks the game waits for, next first.",
        ),
        default=(),
    )
    turn: int | None = shaped(v.seat(null=True), default=None)
    step: str | None = shaped(v.string(TURN_STEPS, null=True), default=None)
    drawn: tuple[str, ...] = shaped(card_ids(), default=())  # the cards this turn's draw brought
    hand_was_empty: bool = shaped(v.boolean(), default=False)
    attack: Attack | None = shaped(v.nested(AttackShape, null=True), default=None)
    ending: int | None = shaped(v.seat(null=True), default=None)  # the seat that drew the deck's last card
    turns: int = shaped(v.count(), default=0)
    stats: tuple[SeatStats, ...] = shaped(v.array(v.nested(SeatStatsShape)), default=())
    scores: tuple[int, ...] = shaped(v.array(v.integer(), description="Set when the game ends."), default=())
    # the deck and the window come last: stored states were dumped in this order
    deck: Deck = shaped(v.nested(v.DeckState), default=Deck())
    window: Window | None = shaped(v.nested(v.WindowState, null=True), default=None)

    def card(self, card_id: str) -> CardDef:
        return self.catalog.card(card_id)

    def stack(self, group: str) -> tuple[str, ...]:
        for g, cards in self.stacks:
            if g == group:
                return cards
        return ()

    def with_stack(self, group: str, cards: tuple[str, ...]) -> PdcState:
        rest = {g: c for g, c in self.stacks if g != group}
        if cards:
            rest[group] = cards
        return replace(self, stacks=tuple(sorted(rest.items())))


def dump_state(state: PdcState) -> dict[str, Any]:
    """The state as JSON, without the catalog."""
    return records.dump(state)
