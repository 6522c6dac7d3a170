"""The scorepad's shortcuts: several entries a table makes in one tap, each
still a command of its own, judged by the engine and appended as its own
events, all in one transaction (a refused one stores nothing).

- **Nobody else reacts.** While several seats may answer at once and every
  one of them may pass with the same field-less command (House of Cronies'
  reaction to a tactic, Political Divide & Conquer's window before an attack
  roll), one tap records that pass for each of them in turn.
- **Forced entries.** When after an entry the game awaits no chance and the
  only thing anyone may do is one command, there is no choice to make: it is
  recorded with the same tap (and the one after it, as long as that holds),
  marked ``forced`` so that Undo takes it back with the entry that forced it
  and the pad can say what was recorded.

Both are worked out from the engine's ``legal_commands`` and ``chance``
alone, and recorded only for seats the caller may act for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from engines.base import Engine, RuleViolation
from service.records import access
from service.records.access import Principal
from service.records.errors import Invalid
from service.records.log.context import Records
from service.records.recording import acting, states
from service.records.recording.games import Game
from service.records.recording.unit_of_work import WriteResult

Entry = tuple[int, dict[str, Any]]


@dataclass(frozen=True)
class Window:
    """Every seat that may still answer, and the pass each would enter."""

    entries: tuple[Entry, ...]

    @property
    def seats(self) -> list[int]:
        return [seat for seat, _ in self.entries]


def _field_less(commands: Sequence[dict[str, Any]]) -> set[str]:
    return {c["type"] for c in commands if set(c) <= {"type", "seat"}}


def _apply(engine: Engine, state: Any, seat: int | None, command: dict[str, Any]) -> Any:
    for event in engine.decide(state, {**command, "seat": seat}):
        state = engine.evolve(state, event)
    return state


def pass_window(engine: Engine, state: Any, seats: int) -> Window | None:
    """The pass window ``state`` is in, or None: no chance awaited, at least
    two seats may act, and every seat that may act has one same field-less
    command (its pass) that is still legal for each in turn once the seats
    before it have passed."""
    if engine.chance(state) is not None or engine.outcome(state).finished:
        return None
    acting = [(s, engine.legal_commands(state, s)) for s in range(seats)]
    acting = [(s, commands) for s, commands in acting if commands]
    if len(acting) < 2:
        return None
    common = set.intersection(*(_field_less(commands) for _, commands in acting))
    if len(common) != 1:
        return None
    command = {"type": common.pop()}
    entries: list[Entry] = []
    for seat, _ in acting:
        if command["type"] not in _field_less(engine.legal_commands(state, seat)):
            return None
        try:
            state = _apply(engine, state, seat, command)
        except RuleViolation:
            return None
        entries.append((seat, dict(command)))
    return Window(tuple(entries))


def forced(engine: Engine, state: Any, seats: int) -> Entry | None:
    """The one command anyone may enter on ``state``, when there is exactly
    one and no chance is awaited first; None otherwise."""
    if engine.chance(state) is not None or engine.outcome(state).finished:
        return None
    only: Entry | None = None
    for seat in range(seats):
        commands = engine.legal_commands(state, seat)
        if not commands:
            continue
        if only is not None or len(commands) > 1:
            return None
        only = (seat, {k: v for k, v in commands[0].items() if k != "seat"})
    return only


def forced_for(principal: Principal) -> acting.Forced:
    """The entry the game is forced into, when ``principal`` may enter it."""

    def then(game: Game, state: Any) -> Entry | None:
        entry = forced(game.engine, state, len(game.seats))
        return entry if entry is not None and access.may_enter_for(game, principal, entry[0]) else None

    return then


def record_forced(
    records: Records, game_id: UUID, principal: Principal, request_id: str | None
) -> WriteResult | None:
    """After an entry: the entries the game is now forced into, recorded
    (one transaction), or None when it is forced into nothing."""
    known = states.latest(game_id)  # the state this process just wrote: most entries force nothing
    if known is not None and (
        known.game.status != "active" or forced(known.game.engine, known.state, len(known.game.seats)) is None
    ):
        return None
    return acting.act_in_turn(
        records,
        game_id,
        principal,
        lambda game, state: (),
        forced=forced_for(principal),
        request_id=request_id,
    )


def record_pass_window(
    records: Records,
    game_id: UUID,
    principal: Principal,
    expected_version: int,
    request_id: str | None,
    then: dict[str, Any] | None = None,
) -> WriteResult | None:
    """The table's "Nobody else reacts": the pass of every seat still able to
    answer, and the table's dice rolled after them when the same tap gave
    them (``then``), in one transaction; then whatever the game is forced into."""

    def passes(game: Game, state: Any) -> list[tuple[int | None, dict[str, Any]]]:
        window = pass_window(game.engine, state, len(game.seats))
        if window is None:
            raise Invalid("no-pass-window", "Nobody is waiting to pass now.")
        return [*window.entries, *([(None, then)] if then is not None else [])]

    return acting.act_in_turn(
        records,
        game_id,
        principal,
        passes,
        forced=forced_for(principal),
        expected_version=expected_version,
        request_id=request_id,
    )
