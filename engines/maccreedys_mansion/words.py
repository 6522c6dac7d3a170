"""The board's words for its catalog ids: what the log and the scorepad print.

The board prints no space names; a space goes by its location and its place
there. An id the board does not hold has no words (None).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.maccreedys_mansion.catalog import Board


def _named(table: Mapping[str, Any], key: str) -> str | None:
    entry = table.get(key)
    return None if entry is None else entry.name


def card_name(board: Board, card: str) -> str | None:
    """A job, Event or Haunt card by the name printed on it."""
    return _named(board.job, card) or _named(board.card, card)


def space_name(board: Board, space: str) -> str | None:
    """A space by its location's name and its place there."""
    found = board.space.get(space)
    if found is None:
        return None
    location = board.location[found.location]
    return f"{location.name}, space {location.spaces.index(space) + 1}"


def room_name(board: Board, room: str) -> str | None:
    return _named(board.room, room)


def location_name(board: Board, location: str) -> str | None:
    return _named(board.location, location)


def dollars(amount: int) -> str:
    """An amount of money as the rulebook prints it: $10,000."""
    return f"${amount:,}"
