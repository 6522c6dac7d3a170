"""A required step by one seat, possibly during another seat's turn.

Some rules make a named seat act before the game can go on: in Final Decrees
the head at the top of a chain of control chooses where blame is removed when
a decree is enacted, even during another player's turn. Unlike a reaction
window (optional answers that every eligible seat may pass), the step is
required: the game suspends the turn and waits for exactly one command type
from exactly one seat.

While a step is awaited:

- the awaited seat's answer is the only command that moves the game on;
- every other command (from any seat, the turn's player included) is refused
  with ``awaiting-seat``, which names the seat and the command awaited, except
  the engine's *free* commands (for example trade offers), which it lists;
- an answer sent when nothing is awaited is refused with ``nothing-awaited``.

``legal_commands`` offers the answer to the awaited seat only; views show
``awaiting`` (:meth:`Awaiting.to_json`) so every client knows who the game
waits for.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import RuleViolation


@dataclass(frozen=True)
class Awaiting:
    seat: int
    command: str  # the command type that answers the step
    rule: str  # the rule that requires it, e.g. "FD-39"
    amount: int = 0  # a bound the answer must respect (what the engine needs, or 0)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "command": self.command, "rule": self.rule, "amount": self.amount}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Awaiting | None:
        if data is None:
            return None
        return cls(data["seat"], data["command"], data["rule"], data["amount"])


def check(awaiting: Awaiting | None, command: Mapping[str, Any], free: Collection[str] = ()) -> None:
    """Refuse ``command`` if it may not be sent while ``awaiting`` stands; with nothing awaited, pass it."""
    kind, seat = command.get("type"), command.get("seat")
    if awaiting is None or kind in free:
        return
    if kind != awaiting.command or seat != awaiting.seat:
        raise RuleViolation(
            "awaiting-seat",
            f"The game waits for seat {awaiting.seat} to {awaiting.command} ({awaiting.rule}).",
            awaiting.to_json(),
        )


def check_answer(awaiting: Awaiting | None, command: Mapping[str, Any]) -> Awaiting:
    """The step ``command`` answers; refuses an answer when nothing (or something else) is awaited."""
    if awaiting is None or awaiting.command != command.get("type"):
        raise RuleViolation("nothing-awaited", f"Nobody is asked to {command.get('type')} now.")
    check(awaiting, command)
    return awaiting
