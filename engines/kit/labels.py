"""A legal command in plain English: the line the log would write for it.

The scorepad shows each entry a recorder may make as a button. Worded by the
game's own ``describe`` for the first event the command produces, a button
reads as its entry will read in the log ("Ann places Chief Justice Nominee as
president"). A game whose log keeps out what tells two commands apart (a card
chosen face down, which card is kept) words those commands itself and leaves
the others to ``log_label``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import Command, Engine
from engines.kit.guards import is_int


def log_label(engine: Engine, state: Any, command: Command, names: Sequence[str]) -> str:
    """The log's line for the first event ``command`` produces from ``state``."""
    events = engine.decide(state, command)
    if not events:
        return str(command.get("type", ""))
    return engine.describe(events[0], names).rstrip(".")


def awaited_chance(command: Command) -> bool:
    """A chance command without its dice or cards: the chance the table is
    about to enter, worded as the title of what it enters (no log line yet)."""
    return command.get("seat") is None and "dice" not in command and "cards" not in command


def is_index(value: Any, size: int) -> bool:
    """Whether ``value``, taken from a command (so of any JSON type), is a
    position in a sequence of ``size`` items: an integer, not a boolean, in range."""
    return is_int(value) and 0 <= value < size


def seat_name(names: Sequence[str], value: Any) -> str | None:
    """The name of the player at seat ``value``; None when it is not one of ``names``' seats."""
    return names[value] if is_index(value, len(names)) else None
