"""Pig on the table: each player's banked points, the turn's running total."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.kit import table as t
from engines.pig.state import PigState


def table(state: PigState, viewer: t.Viewer, names: Sequence[str]) -> dict[str, Any]:
    over = state.winner is not None
    seats = [
        t.seat_area(names, s, [], t.count_words(state.scores[s], "point"), not over and s == state.turn)
        for s in range(state.seats)
    ]
    facts = [t.fact("Target", t.count_words(state.target, "point"))]
    if not over:
        facts.append(t.fact("This turn", t.count_words(state.turn_total, "point")))
    round, turn = heading(state, names)
    return t.table(seats, facts=facts, round=round, turn=turn)


def heading(state: PigState, names: Sequence[str]) -> tuple[str, str]:
    return ("The end", "") if state.winner is not None else ("", t.whose(names, state.turn))
