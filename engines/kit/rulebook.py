"""``Rulebook``: a game's ``decide``, declared rather than rewritten.

A game lists its seat commands and its chance commands, each with a handler
``(state, command) -> events`` that judges only what is particular to it.
The rulebook runs the common guards first (``engines.kit.guards``), then the
handler, then the settle loop (``engines.kit.settle``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engines.base import ChanceRequest, Command, Event, State
from engines.kit.guards import check_seat_command
from engines.kit.settle import Automatic, Evolve, settle

Handler = Callable[[State, Command], Sequence[Event]]


@dataclass(frozen=True)
class Rulebook:
    title: str
    commands: Mapping[str, Handler]  # commands a seat sends
    chance_commands: Mapping[str, Handler]  # commands only the dealer sends
    evolve: Evolve
    automatic: Automatic
    is_over: Callable[[State], bool]
    seats: Callable[[State], int]
    chance: Callable[[State], ChanceRequest | None]

    def decide(self, state: State, command: Command) -> list[Event]:
        check_seat_command(
            self.title,
            command,
            seats=self.seats(state),
            over=self.is_over(state),
            commands=self.commands,
            chance_commands=self.chance_commands,
            chance=self.chance(state),
        )
        kind = command["type"]
        handler = self.commands.get(kind) or self.chance_commands[kind]
        return self.settle(state, handler(state, command))

    def settle(self, state: State, events: Sequence[Event]) -> list[Event]:
        return settle(state, events, self.evolve, self.automatic)
