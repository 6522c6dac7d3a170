"""Copies of a card that read alike are one card to a person: a draw is
entered by what its cards read as, and a copy the deck no longer holds is
taken as one it holds that reads alike. A player entering their own cards
does not know which copies the other hands hold (their pad offers every card
they cannot see), nor does a recorder tapping a card by its name."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.base import Engine


def from_pool(engine: Engine, state: Any, command: dict[str, Any]) -> dict[str, Any]:
    """``command`` (the table's chance, its shape checked) with each card the
    pool awaited does not hold replaced by a copy it holds that reads alike
    (the engine's words for it); a card with no such copy stays, for the
    engine to refuse."""
    cards = command.get("cards")
    if not isinstance(cards, list) or command.get("seat") is not None:
        return command
    request = engine.chance(state)
    if request is None or getattr(engine, "label_value", None) is None:
        return command
    pool = Counter(request.pool)
    held = Counter(cards) & pool  # the cards entered that the pool holds, as often as it holds them
    if held.total() == len(cards):
        return command
    left = pool - held
    taken = []
    for card in cards:
        if held[card] > 0:
            held[card] -= 1
            taken.append(card)
        else:
            taken.append(_alike(engine, state, card, left) or card)
    return {**command, "cards": taken}


def _alike(engine: Engine, state: Any, card: str, left: Counter) -> str | None:
    """A copy ``left`` still holds that reads as ``card`` does, taken from it."""
    read = engine.label_value(state, "cards", card, ())
    for copy in sorted(c for c in left if left[c] > 0):
        if read and engine.label_value(state, "cards", copy, ()) == read:
            left[copy] -= 1
            return copy
    return None
