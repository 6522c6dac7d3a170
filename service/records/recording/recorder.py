"""The recorder's corrections: take a table game back (retraction) or abandon a game.

Nothing is ever deleted: a retraction is an ``ActionsRetracted`` event that
drops the events after its target from the live line; an abandoned game keeps
its log and counts in no standings.
"""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from service.records import access
from service.records.access import Principal
from service.records.errors import Conflict, Invalid
from service.records.log import fold, store
from service.records.log.context import Records
from service.records.log.store import NewEvent, StoredEvent
from service.records.recording.games import Game, config_of, get_game
from service.records.recording.unit_of_work import UnitOfWork, WriteResult, metadata


def retract(
    records: Records,
    game_id: UUID,
    principal: Principal,
    to_version: int,
    request_id: str | None = None,
    reason: str | None = None,
) -> WriteResult:
    """Take a table game back to ``to_version`` (a live version after its setup)."""
    with records.pool.connection() as conn, conn.transaction():
        game = get_game(conn, game_id, lock=True)
        access.recorder_of(game, principal)
        if game.dealer != "table":
            raise Invalid(
                "server-dealt-no-retraction", "A server-dealt game cannot take actions back: no re-rolls."
            )
        if game.status == "abandoned":
            raise Conflict("game-not-active", "The game is abandoned.")
        events = store.read_stream(conn, game.id)
        live_versions = [e.version for e in fold.live_line(events)]
        setup_end = _setup_end(events)
        if to_version not in live_versions or to_version >= game.version or to_version < setup_end:
            raise Invalid(
                "bad-retraction", f"Retract to a live version between {setup_end} and {game.version - 1}."
            )
        store.drop_snapshots_after(conn, game.id, to_version)
        config = config_of(conn, game)
        work = UnitOfWork(conn, game, config, None, metadata(principal, request_id, game))
        work.record_service(fold.ACTIONS_RETRACTED, {"to_version": to_version, "reason": reason})
        work.state = fold.fold_stored(
            game.engine, config, [*events, _as_stored(work.pending[-1], game, work.version)]
        )
        status = work.finish_if_over()
        work.commit(status, 0)
        result = work.result(status, principal)
    work.committed(records)
    return result


def abandon(
    records: Records,
    game_id: UUID,
    principal: Principal,
    request_id: str | None = None,
    reason: str | None = None,
) -> WriteResult:
    """Abandon an active game: it keeps its log and counts in no standings."""
    with records.pool.connection() as conn, conn.transaction():
        game = get_game(conn, game_id, lock=True)
        access.recorder_of(game, principal)
        if game.status != "active":
            raise Conflict("game-not-active", f"The game is {game.status}.")
        work = UnitOfWork(conn, game, config_of(conn, game), None, metadata(principal, request_id, game))
        work.record_service(
            fold.GAME_ABANDONED,
            {"reason": reason, "seed": game.seed if game.dealer == "server" else None},
        )
        work.commit("abandoned", 0)
        result = work.result("abandoned", principal)
    work.committed(records)
    return result


def _setup_end(events: list[StoredEvent]) -> int:
    """The last version written when the game was created; nothing before it can be retracted."""
    return max((e.version for e in events if e.metadata.get("setup")), default=1)


def _as_stored(event: NewEvent, game: Game, version: int) -> StoredEvent:
    return StoredEvent(0, game.id, version, event.type, event.data, event.metadata, datetime.now(UTC))
