"""Acting: a command checked for shape, then by the game's rules, then appended."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from engines.base import RuleViolation
from service.records import access
from service.records.access import Principal
from service.records.errors import Conflict, GameMoved
from service.records.log.context import Records
from service.records.log.db import one_statement_transactions, write_transaction
from service.records.recording import commands, entry_tries, idempotency, states
from service.records.recording.games import Game, config_of, get_game
from service.records.recording.unit_of_work import UnitOfWork, WriteResult, metadata


def act(
    records: Records,
    game_id: UUID,
    principal: Principal,
    seat: int | None,
    command: dict[str, Any],
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    body_hash: str = "",
    request_id: str | None = None,
) -> WriteResult:
    """Record ``command`` for ``seat`` (None: the dealer of a table game).

    With ``expected_version``, a game that has moved on is a conflict and
    nothing is stored; an engine's ``RuleViolation`` passes through.

    When this process committed the game's last write, the command is first
    decided on that state without locking the game, and appended by one
    statement that is its own transaction (with the snapshot, when one is
    due, in one pipelined transaction): one round trip where locking first
    costs two. The append moves the game only from the version it was
    decided at, so if another process has written since, nothing is stored
    and the command is decided again under the lock, as is a command the
    remembered state refuses: a refusal is always judged on the game's
    current state.

    Cards entered from a pool their maker may not see are always judged
    under the lock, and any refusal of them is the one answer of
    ``entry_tries``, counted against the player's tries."""
    known = None if idempotency_key else states.latest(game_id)
    if (
        known
        and known.game.status == "active"
        and expected_version in (None, known.game.version)
        and not entry_tries.sealed_entry(known.game, principal, seat)
    ):
        game, config, state = known
        _may_act(game, principal, seat, state)
        checked = commands.command(game.engine_id, command)
        work = UnitOfWork(None, game, config, state, metadata(principal, request_id, game))
        try:
            status = work.judge({**checked, "seat": seat})
            due = work.snapshot_due(records.snapshot_every)
            with (write_transaction if due else one_statement_transactions)(records.pool) as conn:
                work.conn = conn
                work.commit(status, records.snapshot_every)
            return _committed(records, work, status, principal)
        except (GameMoved, RuleViolation):
            pass
    sealed = None
    try:
        with write_transaction(records.pool) as conn:
            if idempotency_key:
                _may_act(get_game(conn, game_id), principal, seat, None)
                earlier = idempotency.claim(conn, game_id, principal, idempotency_key, body_hash)
                if earlier is not None:
                    return earlier
            game = get_game(conn, game_id, lock=True)
            _may_act(game, principal, seat, None)
            checked = commands.command(game.engine_id, command)
            if game.status != "active":
                raise Conflict("game-not-active", f"The game is {game.status}.", current_version=game.version)
            if expected_version is not None and expected_version != game.version:
                raise Conflict(
                    "version-conflict",
                    "The game has moved on since that version.",
                    current_version=game.version,
                )
            config = config_of(conn, game)
            state = states.state_at(conn, game, config)
            _may_act(game, principal, seat, state)
            if entry_tries.sealed_entry(game, principal, seat):
                entry_tries.check(conn, game, principal)
                sealed = game
            meta = metadata(principal, request_id, game, idempotency_key=idempotency_key)
            work = UnitOfWork(conn, game, config, state, meta)
            status = work.act({**checked, "seat": seat}, records.snapshot_every)
            if idempotency_key:
                idempotency.keep_answer(
                    conn, game_id, principal, idempotency_key, work.result(status, principal)
                )
    except RuleViolation:
        if sealed is None:
            raise
        raise entry_tries.refused(records.pool, sealed, principal) from None
    return _committed(records, work, status, principal)


#: Entries a tap makes, worked out on the game as it stands under its lock: ``(game, state) -> [(seat, command)]``.
Planned = Callable[[Game, Any], Sequence[tuple[int | None, dict[str, Any]]]]
#: The entry the game is forced into next, if any: ``(game, state) -> (seat, command) | None``.
Forced = Callable[[Game, Any], tuple[int | None, dict[str, Any]] | None]
#: Forced entries one write makes at most.
MAX_FORCED = 50


def act_in_turn(
    records: Records,
    game_id: UUID,
    principal: Principal,
    planned: Planned,
    *,
    forced: Forced | None = None,
    expected_version: int | None = None,
    request_id: str | None = None,
) -> WriteResult | None:
    """Several commands entered by one tap, appended in one transaction: the
    ``planned`` ones, each judged on the state the one before it left, then
    each entry the game is then ``forced`` into (marked ``forced``). A refused
    command stores nothing (its ``RuleViolation`` passes through); None when
    there was nothing to enter."""
    with write_transaction(records.pool) as conn:
        game = get_game(conn, game_id, lock=True)
        if game.status != "active":
            raise Conflict("game-not-active", f"The game is {game.status}.", current_version=game.version)
        if expected_version is not None and expected_version != game.version:
            raise Conflict(
                "version-conflict", "The game has moved on since that version.", current_version=game.version
            )
        config = config_of(conn, game)
        work = UnitOfWork(
            conn, game, config, states.state_at(conn, game, config), metadata(principal, request_id, game)
        )
        for seat, command in planned(game, work.state):
            if game.engine.outcome(work.state).finished:
                raise Conflict("game-not-active", "The game ended before every entry was made.")
            _judged(work, principal, seat, command)
        for _ in range(MAX_FORCED):
            entry = (
                None
                if forced is None or game.engine.outcome(work.state).finished
                else forced(game, work.state)
            )
            if entry is None:
                break
            _judged(work, principal, *entry, forced=True)
        if not work.pending:
            return None
        status = work.finish_if_over()
        work.commit(status, records.snapshot_every)
    return _committed(records, work, status, principal)


def _judged(
    work: UnitOfWork, principal: Principal, seat: int | None, command: dict[str, Any], **meta: Any
) -> None:
    """One command of several: checked for access and shape, decided, and any chance dealt."""
    _may_act(work.game, principal, seat, work.state)
    checked = commands.command(work.game.engine_id, command)
    work.decide({**checked, "seat": seat}, **meta)
    work.deal_chance()


def _may_act(game: Game, principal: Principal, seat: int | None, state: Any) -> None:
    """May ``principal`` act for ``seat``; for the table's chance (None), may it
    supply the chance ``state`` awaits (None: not yet known, checked once it is)."""
    if seat is not None:
        access.may_act(game, principal, seat)
    elif state is None:
        access.player_of(game, principal)
    else:
        access.may_supply_chance(game, principal, game.engine.chance(state))


def _committed(records: Records, work: UnitOfWork, status: str, principal: Principal) -> WriteResult:
    """After the commit: the answer (the events' positions came back with the
    commit), the state remembered for the next write, the listeners told."""
    result = work.result(status, principal)
    states.remember(work.game, work.config, work.state, work.version, status)
    work.committed(records)
    return result
