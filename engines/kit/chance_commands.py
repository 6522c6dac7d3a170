"""The chance commands a table's recorder may post: a representative set.

Every outcome of a chance request cannot be listed (three dice have 216,
a hand of five from forty cards has hundreds of thousands), so
``legal_commands(state, None)`` lists a representative set; ``decide``
judges any other outcome the recorder posts.

- dice: every combination of faces for up to ``every_face_up_to`` dice; for
  more dice, each rotation of 1..6 and each all-equal throw (twelve throws);
- cards: from the sorted pool, one run of consecutive cards starting at each
  card (wrapping round), without repeats, in sorted order; or, with
  ``spread``, at most ``spread`` selections of cards spaced evenly across
  the pool (``len(pool) // draw`` apart), in the order of their first card.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from engines.base import ChanceRequest


def table_chance_commands(
    request: ChanceRequest, *, every_face_up_to: int = 2, spread: int | None = None
) -> list[dict[str, Any]]:
    """Representative commands answering ``request``, as a table's recorder would post them."""
    base = {"type": request.command, "seat": None, **request.fixed}
    if request.dice:
        return [{**base, "dice": faces} for faces in _throws(request.dice, every_face_up_to)]
    pool = sorted(request.pool)
    if not pool or request.draw <= 0:
        return []
    selections = _runs(pool, request.draw) if spread is None else _spread(pool, request.draw, spread)
    return [{**base, "cards": list(cards)} for cards in selections]


def _throws(dice: int, every_face_up_to: int) -> list[list[int]]:
    if dice <= every_face_up_to:
        return [list(faces) for faces in product(range(1, 7), repeat=dice)]
    rotations = [[(k + i) % 6 + 1 for i in range(dice)] for k in range(6)]
    return rotations + [[k] * dice for k in range(1, 7)]


def _runs(pool: list[str], draw: int) -> list[tuple[str, ...]]:
    return sorted({_take(pool, start, draw, 1) for start in range(len(pool))})


def _spread(pool: list[str], draw: int, limit: int) -> list[tuple[str, ...]]:
    step = max(1, len(pool) // draw)
    selections: list[tuple[str, ...]] = []
    for start in range(min(limit, step * draw, len(pool))):
        cards = _take(pool, start, draw, step)
        if cards not in selections:
            selections.append(cards)
    return selections


def _take(pool: list[str], start: int, count: int, step: int) -> tuple[str, ...]:
    return tuple(pool[(start + i * step) % len(pool)] for i in range(count))
