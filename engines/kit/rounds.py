"""Rounds made of fixed phases, and the end a game is guaranteed.

``PhaseMachine`` runs a round as an explicit sequence of named phases. Each
phase says what the game does by itself in it (``step``) and when nothing is
left to do (``done``); the machine answers the settle loop's question "what
happens next without anyone's input": the phase's own automatic events, or
nothing (someone must act, or chance is awaited), or the events that begin
the next phase (or end the round, after the last phase).

Some rulebooks never force an end. Such engines take a ``max_rounds`` option,
a house rule named as such in their readings, and end after that round:
``round_limit_reached`` is the one test of it, so every game ends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from engines.base import Event

S = TypeVar("S")


@dataclass(frozen=True)
class Phase(Generic[S]):
    name: str
    step: Callable[[S], list[Event]]  # events the game takes by itself now ([] when it waits or is done)
    done: Callable[[S], bool]  # nothing is left to do in this phase


class PhaseMachine(Generic[S]):
    """The phases of a round, in order. ``advance(state, phase)`` makes the
    events that begin ``phase``, or end the round when ``phase`` is None."""

    def __init__(self, phases: Sequence[Phase[S]], advance: Callable[[S, str | None], list[Event]]):
        names = [p.name for p in phases]
        if len(set(names)) != len(names) or not names:
            raise ValueError("a round needs distinct phase names")
        self.phases = tuple(phases)
        self.names = tuple(names)
        self._advance = advance
        self._by_name = {p.name: p for p in phases}

    @property
    def first(self) -> str:
        return self.names[0]

    def after(self, name: str) -> str | None:
        """The phase after ``name``; None after the last one."""
        index = self.names.index(name) + 1
        return self.names[index] if index < len(self.names) else None

    def automatic(self, state: S, current: str) -> list[Event]:
        phase = self._by_name[current]
        events = phase.step(state)
        if events:
            return events
        if not phase.done(state):
            return []
        return self._advance(state, self.after(current))


def round_limit_reached(round_: int, max_rounds: int | None) -> bool:
    """The house rule's end: ``round_`` was the last round allowed."""
    return max_rounds is not None and round_ >= max_rounds
