"""Chancellors' state: frozen dataclasses of tuples and plain values."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engines.kit.items import Record

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


@dataclass(frozen=True)
class Problem:
    dice: tuple[int, ...] = ()  # () until the opening roll
    status: str = OPEN

    @property
    def total(self) -> int:
        return sum(self.dice)


@dataclass(frozen=True)
class ChancellorsState(Record):
    seats: int
    target: int
    pawns: bool
    courts: bool
    excuse: bool
    scores: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]  # the draw pile, sorted: it has no order, draws name their cards
    problems: tuple[Problem, ...]
    chosen: tuple[str | None, ...]
    discards: tuple[str, ...] = ()
    phase: str = OPENING
    turn: int = 0
    services: tuple[int | None, ...] = (None, None, None)  # holders, in SERVICES order
    acting: int = 0  # (B): index of the next service to act
    queue: tuple[int, ...] = ()  # (C): seats still to act; opening/(E): seats still to draw
    owed: int = DRAW_SIZE  # cards still owed to queue[0] while drawing
    last_solver: int | None = None
    excuse_holder: int | None = None
    excuse_used: bool = False  # the Excuse was used this turn
    served: tuple[int, ...] = ()  # seats that controlled a service when control was settled this turn
    ended_by: str = ""
    places: tuple[int, ...] = ()
    # statistics, per seat
    solved_whole: tuple[int, ...] = ()
    solved_part: tuple[int, ...] = ()
    solved_unaided: tuple[int, ...] = ()
    services_won: tuple[int, ...] = ()
    abdications: tuple[int, ...] = ()
    excuse_uses: tuple[int, ...] = ()

    def holds_service(self, seat: int) -> bool:
        return seat in self.services


_SEAT_TUPLES = (
    "scores",
    "solved_whole",
    "solved_part",
    "solved_unaided",
    "services_won",
    "abdications",
    "excuse_uses",
    "places",
    "queue",
    "chosen",
    "services",
    "pile",
    "discards",
    "served",
)


def dump_state(state: ChancellorsState) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name == "hands":
            value = [list(hand) for hand in value]
        elif f.name == "problems":
            value = [{"dice": list(p.dice), "status": p.status} for p in value]
        elif isinstance(value, tuple):
            value = list(value)
        data[f.name] = value
    return data


def load_state(data: dict[str, Any]) -> ChancellorsState:
    values = dict(data)
    for name in _SEAT_TUPLES:
        values[name] = tuple(values[name])
    values["hands"] = tuple(tuple(hand) for hand in values["hands"])
    values["problems"] = tuple(Problem(tuple(p["dice"]), p["status"]) for p in values["problems"])
    return ChancellorsState(**values)
