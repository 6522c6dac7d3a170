"""What the scorepad offers one actor: a ``Choice`` of ``Option`` buttons, each
leading on by its picks or entering a whole command.

A pick is ``path=value`` (``card=P3``, ``dice.1=5``; the value as JSON).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engines.base import Amount, ChanceRequest

#: A seat's legal commands up to this many are direct buttons, grouped by kind (no question first).
FINAL_AT = 24


@dataclass(frozen=True)
class Option:
    label: str
    picks: tuple[str, ...] = ()  # the picks that lead on (when ``command`` is None)
    command: dict[str, Any] | None = None  # a whole command, seat excluded
    count: int = 0  # a card of a set: how many of it may still be chosen (or are chosen)
    kind: str = ""  # a card of a set: its kind, for filtering a large deck
    group: str = ""  # a seat's command: its kind in words, under which the buttons are grouped
    then: dict[str, Any] | None = None  # the die rolled on the command, entered by the same tap


@dataclass(frozen=True)
class Choice:
    """What one actor (a seat, or None for the table's chance) may enter now."""

    actor: int | None
    question: str  # what the options answer
    options: list[Option] = field(default_factory=list)
    picked: list[str] = field(default_factory=list)  # the answers given so far, as labels
    title: str = ""  # what is being entered, when the actor alone does not say it
    chosen: list[Option] = field(default_factory=list)  # a set's cards so far; each takes one back
    needed: int = 0  # the cards a set holds when complete
    kinds: list[tuple[str, str]] = field(default_factory=list)  # (kind, words) when a deck has several
    grid: int = 0  # the options as a grid of this many columns (a pair of dice: one tap, six by six)
    stays: bool = False  # a set entered by the cards that stay (the draw takes most of the pool)
    own: bool = False  # the caller's own cards, entered on their own phone
    amounts: tuple[Amount, ...] = ()  # a number the seat may enter beyond the buttons (a bid of any sum)

    @property
    def key(self) -> str:
        return "table" if self.actor is None else str(self.actor)


def encode(path: str, value: Any) -> str:
    return f"{path}={json.dumps(value, separators=(',', ':'))}"


def decode(pick: str) -> tuple[str, Any]:
    path, _, raw = pick.partition("=")
    try:
        return path, json.loads(raw)
    except ValueError:
        return path, None


Label = Callable[[dict[str, Any]], str]


#: The chance a seat's command leads to, when the caller may enter it: ``command -> request``.
Then = Callable[[dict[str, Any]], ChanceRequest | None]


#: One value of a command's field in words: ``(field, value) -> text``.
ValueLabel = Callable[[str, Any], str]
