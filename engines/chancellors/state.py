"""Chancellors' state: frozen dataclasses of tuples and plain values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.chancellors.cards import CARDS, SERVICE_IDS
from engines.chancellors.events import Termination
from engines.kit import shapes as v
from engines.kit import state_schema as records
from engines.kit.items import Record
from engines.kit.state_schema import shaped, state_schema

# Phases, in the order of a turn. "next-turn" and "escalate" never rest: the
# engine produces their events itself right after the command that reached them.
OPENING = "opening"  # rolling the problems, dealing three cards each
CHOOSE = "choose"  # (A) choosing a card face down
REVEAL = "reveal"  # (A) between CardsRevealed and the last service event: never rests
CONTROL = "control"  # (B) solving with control, service by service
HELP = "help"  # (C) solving without control, seat by seat
UNFOLD = "unfold"  # (D) rerolling the set-aside die of partly solved problems
ESCALATE = "escalate"  # (D) raising the lower die of unsolved problems
RENEW = "renew"  # (D) rerolling wholly solved problems
DRAW = "draw"  # (E) everyone draws three
DISCARD = "discard"  # (E) hands over six are cut to six
NEXT_TURN = "next-turn"
OVER = "over"

OPEN = "open"
SOLVED = "solved"  # both dice set aside
PART = "part"  # dice[0] stays (untouchable this turn), dice[1] is set aside

HAND_LIMIT = 6
DRAW_SIZE = 3


# What the game shows of its state: the shapes of its fields (``engines.kit.shapes``).
PHASES = (
    *(OPENING, CHOOSE, REVEAL, CONTROL, HELP, UNFOLD, ESCALATE, RENEW, DRAW),
    *(DISCARD, NEXT_TURN, OVER),
)
PROBLEM_STATUSES = (OPEN, PART, SOLVED)
ENDINGS = ("", *(t.value for t in Termination))  # "": not ended yet


def card_id(**kw):
    return v.string(sorted(CARDS), **kw)


def die():
    return v.integer(1, 6)


def per_seat(field, **kw):
    return v.array(field, **kw)


@dataclass(frozen=True)
class Problem:
    dice: tuple[int, ...] = shaped(
        v.array(die(), description="Both dice; when partly solved, the second is the one set aside."),
        default=(),
    )  # () until the opening roll
    status: str = shaped(v.string(PROBLEM_STATUSES), default=OPEN)

    @property
    def total(self) -> int:
        return sum(self.dice)


ProblemShape = state_schema(Problem, name="ChancellorsProblem")


@dataclass(frozen=True)
class ChancellorsState(Record):
    seats: int = shaped(v.count())
    target: int = shaped(v.count())
    pawns: bool = shaped(v.boolean())
    courts: bool = shaped(v.boolean())
    excuse: bool = shaped(v.boolean())
    scores: tuple[int, ...] = shaped(per_seat(v.integer()))
    hands: tuple[tuple[str, ...], ...] = shaped(per_seat(v.array(card_id())))
    #: the draw pile, sorted: it has no order, draws name their cards
    pile: tuple[str, ...] = shaped(v.array(card_id()))
    problems: tuple[Problem, ...] = shaped(v.array(v.nested(ProblemShape)))
    chosen: tuple[str | None, ...] = shaped(per_seat(card_id(null=True)))
    discards: tuple[str, ...] = shaped(v.array(card_id()), default=())
    phase: str = shaped(v.string(PHASES), default=OPENING)
    turn: int = shaped(v.count(), default=0)
    #: holders, in SERVICES order
    services: tuple[int | None, ...] = shaped(
        v.array(v.seat(null=True), length=len(SERVICE_IDS), description=f"Holders in order {SERVICE_IDS}."),
        default=(None, None, None),
    )
    acting: int = shaped(v.count(), default=0)  # (B): index of the next service to act
    #: (C): seats still to act; opening/(E): seats still to draw
    queue: tuple[int, ...] = shaped(v.array(v.seat()), default=())
    owed: int = shaped(v.count(), default=DRAW_SIZE)  # cards still owed to queue[0] while drawing
    last_solver: int | None = shaped(v.seat(null=True), default=None)
    excuse_holder: int | None = shaped(v.seat(null=True), default=None)
    excuse_used: bool = shaped(v.boolean(), default=False)  # the Excuse was used this turn
    #: seats that controlled a service when control was settled this turn
    served: tuple[int, ...] = shaped(v.array(v.seat()), default=())
    ended_by: str = shaped(v.string(ENDINGS), default="")
    places: tuple[int, ...] = shaped(per_seat(v.integer(1)), default=())
    # statistics, per seat
    solved_whole: tuple[int, ...] = shaped(per_seat(v.count()), default=())
    solved_part: tuple[int, ...] = shaped(per_seat(v.count()), default=())
    solved_unaided: tuple[int, ...] = shaped(per_seat(v.count()), default=())
    services_won: tuple[int, ...] = shaped(per_seat(v.count()), default=())
    abdications: tuple[int, ...] = shaped(per_seat(v.count()), default=())
    excuse_uses: tuple[int, ...] = shaped(per_seat(v.count()), default=())

    def holds_service(self, seat: int) -> bool:
        return seat in self.services


def dump_state(state: ChancellorsState) -> dict[str, Any]:
    return records.dump(state)
