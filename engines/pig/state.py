"""Pig's state: immutable, plain values only, each field with the shape the
service publishes it with (its schema, ``dump_state`` and ``load_state`` are
derived from this class: ``engines.kit.state_schema``)."""

from __future__ import annotations

from dataclasses import dataclass

from marshmallow import fields

from engines.kit import shapes as v
from engines.kit.items import Record
from engines.kit.state_schema import shaped


@dataclass(frozen=True)
class PigState(Record):
    seats: int = shaped(v.count())
    target: int = shaped(v.count())
    scores: tuple[int, ...] = shaped(fields.List(v.count(), required=True))
    turn: int = shaped(v.seat(description="The seat to act."), default=0)
    turn_total: int = shaped(v.count(description="Points of the turn so far, lost on a 1."), default=0)
    rolling: bool = shaped(
        v.boolean(description="A roll was called for and waits for its die."), default=False
    )
    winner: int | None = shaped(v.seat(null=True), default=None)
