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
