"""Pig's state: immutable, plain values only."""

from __future__ import annotations

from dataclasses import dataclass

from engines.kit.items import Record


@dataclass(frozen=True)
class PigState(Record):
    seats: int
    target: int
    scores: tuple[int, ...]
    turn: int = 0  # seat to act
    turn_total: int = 0
    rolling: bool = False  # a roll was called for and waits for its die
    winner: int | None = None
