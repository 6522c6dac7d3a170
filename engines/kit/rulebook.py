"""``Rulebook``: a game's rules declared once, as the engine the service plays.

A game declares one ``Rulebook`` (its ``rules.py``'s ``ENGINE``): its name,
version and seat range, its seat commands and its chance commands, each with
a handler ``(state, command) -> events`` that judges only what is particular
to it, and plain functions for the rest (``evolve``, ``chance``, ``view``...).
The rulebook is the ``engines.base.Engine`` the service, the workers and the
tests call: it runs the common guards (``engines.kit.guards``), then the
handler, then the settle loop (``engines.kit.settle``), and it supplies what
most games share: no opening events, every event seen whole, the state
dumped and loaded through its dataclass (``engines.kit.state_schema``), and
the scorepad's label of a command as the log line it would write
(``engines.kit.labels``), and no numbers beyond those ``legal_commands`` lists.

Each function a game supplies is stored as it is and called as the engine's
method of the same name, so ``ENGINE.evolve(state, event)`` is the game's
own ``evolve``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import Amount, ChanceRequest, Command, Event, GameConfig, Outcome, State
from engines.kit import state_schema
from engines.kit.guards import check_seat_command
from engines.kit.labels import awaited_chance, log_label
from engines.kit.settle import Automatic, Evolve, as_given, settle, settled

Handler = Callable[[State, Command], Sequence[Event]]
Names = Sequence[str]


def no_opening(state: State, config: GameConfig) -> Sequence[Event]:
    return ()


def no_automatic_step(state: State) -> Sequence[Event]:
    return ()


def seen_whole(event: Event, seat: int | None) -> Event:
    return event


def nothing_kept_out(config: GameConfig) -> Mapping[str, Any]:
    return {}


def catalog_kept_out(
    parse: Callable[[Any], Any], field: str = "catalog"
) -> Callable[[GameConfig], Mapping[str, Any]]:
    """The ``kept_out`` of a state that keeps its catalog out of its dump: the
    config's catalog, parsed, as the state's field ``field``."""

    def kept(config: GameConfig) -> Mapping[str, Any]:
        return {field: parse(config.catalog)}

    return kept


def as_logged(state: State, command: Command, names: Names, logged: str) -> str:
    return logged


def no_amounts(state: State, seat: int) -> Sequence[Amount]:
    return ()


@dataclass(frozen=True, eq=False, kw_only=True)
class Rulebook:
    id: str  # "chancellors", "house-of-cronies", ...
    title: str
    version: str  # bump when rules or state shape change: old snapshots are ignored
    min_seats: int
    max_seats: int
    catalog_kind: str | None = None  # None when the game needs no card catalog
    #: The game's name in the refusals the guards write ("Pig has no command ..."); its title by default.
    short_title: str = ""

    # Judging: ``decide`` is the guards, a handler, then the settle loop.
    commands: Mapping[str, Handler]  # commands a seat sends
    chance_commands: Mapping[str, Handler]  # commands only the dealer sends
    automatic: Automatic = no_automatic_step  # what the game does by itself until it waits
    is_over: Callable[[State], bool]
    evolve: Evolve
    chance: Callable[[State], ChanceRequest | None]

    # Starting: the state before any event (``RuleViolation`` for options that
    # do not fit the seats) and the opening events made from it, then settled.
    initial_state: Callable[[GameConfig], State]
    opening: Callable[[State, GameConfig], Sequence[Event]] = no_opening

    # The state as JSON: the state's dataclass, and the fields it keeps out of
    # its dump (its catalog) rebuilt from the game's config.
    state_class: type
    kept_out: Callable[[GameConfig], Mapping[str, Any]] = nothing_kept_out

    # What each viewer sees and reads.
    legal_commands: Callable[[State, int | None], list[dict[str, Any]]]
    view: Callable[[State, int | None], dict[str, Any]]
    redact: Callable[[Event, int | None], Event] = seen_whole
    describe: Callable[[Event, Names], str]
    table: Callable[[State, int | str | None, Names], dict[str, Any]]
    #: The table's ``round`` and ``turn`` alone (the same for every viewer): a replay's
    #: table of contents reads them for every step, without drawing each step's table.
    heading: Callable[[State, Names], tuple[str, str]]
    outcome: Callable[[State], Outcome]
    luck: Callable[[State, Event], dict[int, float]]
    statistics: Callable[[State], dict[str, Any]]

    # The scorepad's words: the chance a table is about to enter, a command as
    # the log line it would write (``label_command`` may add what the log keeps
    # out), and one value of a command's field (None: the value as it is).
    awaited_label: Callable[[State, Command, Names], str]
    label_command: Callable[[State, Command, Names, str], str] = as_logged
    label_value: Callable[[State, str, Any, Names], str | None] | None = None
    #: The numbers a seat's commands may carry beyond those ``legal_commands``
    #: lists (a bid of any sum): the scorepad asks for them (``engines.base.Amount``).
    amounts: Callable[[State, int], Sequence[Amount]] = no_amounts
    #: Commands a seat may send whenever it holds what they need, which the game
    #: never waits for (``engines.base.Engine.any_time``).
    any_time: frozenset[str] = frozenset()

    def decide(self, state: State, command: Command) -> list[Event]:
        return self.decide_settled(state, command)[0]

    def decide_settled(
        self, state: State, command: Command, normal: Callable[[Event], Event] = as_given
    ) -> tuple[list[Event], State]:
        check_seat_command(
            self.short_title or self.title,
            command,
            seats=state.seats,
            over=self.is_over(state),
            commands=self.commands,
            chance_commands=self.chance_commands,
            chance=self.chance(state),
        )
        kind = command["type"]
        handler = self.commands.get(kind) or self.chance_commands[kind]
        return settled(state, handler(state, command), self.evolve, self.automatic, normal)

    def settle(self, state: State, events: Sequence[Event]) -> list[Event]:
        return settle(state, events, self.evolve, self.automatic)

    def setup(self, config: GameConfig) -> list[Event]:
        state = self.initial_state(config)
        return self.settle(state, self.opening(state, config))

    def dump_state(self, state: State) -> dict[str, Any]:
        return state_schema.dump(state)

    def load_state(self, data: dict[str, Any], config: GameConfig) -> State:
        return state_schema.load(self.state_class, data, **self.kept_out(config))

    def label(self, state: State, command: Command, names: Names) -> str:
        if awaited_chance(command):
            return self.awaited_label(state, dict(command), names)
        return self.label_command(state, dict(command), names, log_label(self, state, command, names))
