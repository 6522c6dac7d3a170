"""Pig's state: immutable, plain values only."""

from __future__ import annotations

from dataclasses import dataclass

from engines.kit.frozen import replace


@dataclass(frozen=True)
class PigState:
    seats: int
    target: int
    scores: tuple[int, ...]
    turn: int = 0  # seat to act
    turn_total: int = 0
    rolling: bool = False  # a roll was called for and waits for its die
    winner: int | None = None

    def with_(self, **changes) -> PigState:
        return replace(self, **changes)
