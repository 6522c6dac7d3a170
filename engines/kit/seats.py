"""Seats that close, re-open or go out for good, and the places they finish in.

Some games close a player's company (or army, or party) without removing the
player: the seat stays, may still act in some phases, and may come back. A
``SeatStatus`` records where a seat stands and since which round; engines keep
one per seat in their state and change it only in ``evolve``.

Places rank seats still in the game above seats out of it: a seat out for good
cannot finish ahead of one still standing, whatever its score, and among the
seats out, the one that lasted longer ranks higher when the scores tie.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import RuleViolation

OPEN = "open"  # in play, acting normally
CLOSED = "closed"  # still in the game, acting only where the rules let closed seats act; may re-open
OUT = "out"  # closed for good: never re-opens
STATUSES = (OPEN, CLOSED, OUT)


@dataclass(frozen=True)
class SeatStatus:
    status: str = OPEN
    since: int = 0  # the round the seat entered its status

    @property
    def is_open(self) -> bool:
        return self.status == OPEN

    @property
    def is_closed(self) -> bool:
        """Closed, for now or for good."""
        return self.status != OPEN

    @property
    def in_game(self) -> bool:
        """Not out for good (open, or closed and able to re-open)."""
        return self.status != OUT

    def close(self, round_: int) -> SeatStatus:
        if self.status != OPEN:
            raise RuleViolation("seat-not-open", "Only an open seat can close.")
        return SeatStatus(CLOSED, round_)

    def reopen(self, round_: int) -> SeatStatus:
        if self.status != CLOSED:
            raise RuleViolation("seat-not-closed", "Only a closed seat can re-open.")
        return SeatStatus(OPEN, round_)

    def close_for_good(self, round_: int) -> SeatStatus:
        if self.status == OUT:
            raise RuleViolation("seat-out", "The seat is already out for good.")
        return SeatStatus(OUT, round_)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "since": self.since}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatStatus:
        return cls(data["status"], data["since"])


def clockwise(start: int, seats: int, include: Callable[[int], bool] = lambda seat: True) -> list[int]:
    """The seats from ``start`` round the table (rising numbers), keeping those ``include`` accepts."""
    return [s for s in ((start + k) % seats for k in range(seats)) if include(s)]


def in_game(statuses: Sequence[SeatStatus]) -> list[int]:
    """The seats not out for good."""
    return [seat for seat, st in enumerate(statuses) if st.in_game]


def last_standing(statuses: Sequence[SeatStatus]) -> int | None:
    """The one seat still in the game when every other is out for good, else None."""
    left = in_game(statuses)
    return left[0] if len(left) == 1 else None


def rank(keys: Sequence[tuple]) -> tuple[int, ...]:
    """Competition ranking, higher key better: ties share a place, the next place skips."""
    return tuple(1 + sum(other > key for other in keys) for key in keys)


def places(scores: Sequence[tuple], statuses: Sequence[SeatStatus]) -> tuple[int, ...]:
    """Places from each seat's score key (higher better, e.g. ``(money, jobs)``).

    Seats still in the game come first; seats out for good follow, ranked by
    their scores and then by the round they went out (later is better)."""
    keys = []
    for score, status in zip(scores, statuses, strict=True):
        keys.append((status.in_game, *score, 0 if status.in_game else status.since))
    return rank(keys)
