"""Acting: a command checked for shape, then by the game's rules, then appended."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from service.records import access, commands, idempotency, states
from service.records.access import Principal
from service.records.context import Records
from service.records.db import write_transaction
from service.records.errors import Conflict
from service.records.games import config_of, get_game
from service.records.unit_of_work import UnitOfWork, WriteResult, metadata


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
    nothing is stored; an engine's ``RuleViolation`` passes through."""
    with write_transaction(records.pool) as conn:
        if idempotency_key:
            access.may_act(get_game(conn, game_id), principal, seat)
            earlier = idempotency.claim(conn, game_id, idempotency_key, body_hash)
            if earlier is not None:
                return earlier
        game = get_game(conn, game_id, lock=True)
        access.may_act(game, principal, seat)
        command = commands.command(game.engine_id, command)
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
        meta = metadata(principal, request_id, game, idempotency_key=idempotency_key)
        work = UnitOfWork(conn, game, config, state, meta)
        work.decide({**command, "seat": seat})
        work.deal_chance()
        status = work.finish_if_over()
        work.commit(status, records.snapshot_every)
        if idempotency_key:
            idempotency.keep_answer(conn, game_id, idempotency_key, work.result(status, principal))
    result = work.result(status, principal)  # the events' positions came back with the commit
    states.remember(game, work.version, work.state)
    work.committed(records)
    return result
