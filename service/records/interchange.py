"""Whole games in and out: an export is the game's setup and every command in
force, in order; an import replays such a document through the engine, the
same unit of work as actions, in one transaction.

Retractions are applied: an export lists only the commands still in force
(the retracted ones, and the retraction itself, are left out), so an import
rebuilds the game as it stands. Chance is exported as the commands that
brought it (dealt by the service or posted at the table) and imported as
they are: an imported server-dealt game is never re-dealt.
"""

from __future__ import annotations

import uuid
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from engines.base import RuleViolation
from service.records import access, commands, creation, fold, games, states, store
from service.records.access import Principal
from service.records.context import Records
from service.records.errors import Conflict, DomainError, Invalid
from service.records.unit_of_work import UnitOfWork, WriteResult, metadata

FORMAT = "tablerecord.game/1"


def export_game(records: Records, game_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The game as one document (see the module's docstring). A live game's
    export shows every hand and draw, so only its recorder may take it; an
    ended game's, whoever may see the game."""
    with records.pool.connection() as conn:
        game = games.get_game(conn, game_id)
        if game.status == "active":
            access.recorder_of(game, principal)
        else:
            access.may_see_game(game, principal)
        events = store.read_stream(conn, game.id)
        names = games.player_names(conn, game.seats)
        outcome = game.engine.outcome(states.load_state(conn, game))
    live = fold.live_line(events)
    ended = next((e for e in reversed(live) if e.type == fold.GAME_ABANDONED), None)
    return {
        "format": FORMAT,
        "engine": game.engine_id,
        "engine_version": game.engine.version,
        "catalog": game.catalog_ref,
        "seats": [{"seat": i, "player": p, "name": names.get(p)} for i, p in enumerate(game.seats)],
        "options": game.options,
        "dealer": game.dealer,
        "public": game.public,
        "seed": game.seed if game.status != "active" and game.dealer == "server" else None,
        "commands": _commands_in_force(live),
        "status": game.status,
        "abandon_reason": ended.data.get("reason") if ended else None,
        "outcome": {
            "finished": outcome.finished,
            "places": list(outcome.places),
            "scores": list(outcome.scores),
            "ended_by": outcome.ended_by,
        },
    }


def _commands_in_force(live: list[store.StoredEvent]) -> list[dict[str, Any]]:
    """The commands whose events are all in force, in order."""
    found: list[dict[str, Any]] = []
    covered = 0  # the last version made by a command found so far
    for index, event in enumerate(live):
        command = event.metadata.get("command")
        if command is not None:
            made = live[index : index + event.metadata["command_events"]]
            if [e.version for e in made] != list(range(event.version, event.version + len(made))) or len(
                made
            ) != event.metadata["command_events"]:
                raise Conflict(
                    "not-exportable", "A retraction took back part of one command's events; no exact export."
                )
            found.append({"seat": command.get("seat"), "command": _without_seat(command)})
            covered = made[-1].version
        elif (
            event.type not in fold.SERVICE_EVENTS
            and not event.metadata.get("setup")
            and event.version > covered
        ):
            raise Conflict("not-exportable", "This game was recorded without its commands.")
    return found


def _without_seat(command: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in command.items() if k != "seat"}


def import_game(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    document: dict[str, Any],
    *,
    idempotency_key: str | None = None,
    body_hash: str = "",
    request_id: str | None = None,
) -> WriteResult:
    """Create a game from ``document`` and replay its commands, all in one
    transaction: every event is stored, or nothing is and ``Invalid`` names the
    index of the first refused command and its rule."""
    principal = access.club_admin(principal, club_id)
    engine_id = commands.known_engine(document["engine"])
    options = commands.options(engine_id, document["options"])
    with records.pool.connection() as conn:
        with conn.transaction():
            if idempotency_key:
                earlier = _claim(conn, club_id, idempotency_key, body_hash)
                if earlier is not None:
                    return earlier
            seats = _seat_players(conn, club_id, document["seats"])
            spec = {**document, "engine": engine_id, "seats": seats}
            # A seed is kept only for a game the import ends: a live game's
            # chance must stay secret from everyone, the importer included.
            seed = document.get("seed") if document.get("status") in ("finished", "abandoned") else None
            game, tokens = creation.open_game(conn, club_id, spec, options, seed=seed)
            work = creation.set_up(conn, game, principal, request_id, deal=False)
            work.meta = metadata(principal, request_id, game, imported=True)
            _replay(work, document["commands"])
            status = _close(work, document)
            work.commit(status, records.snapshot_every)
            with_names = games.get_game(conn, game.id)
            answer = creation.summary(with_names, games.player_names(conn, game.seats))
            if idempotency_key:
                conn.execute(
                    "UPDATE import_keys SET response = %s WHERE club_id = %s AND key = %s",
                    (Jsonb(_json(answer)), club_id, idempotency_key),
                )
        work.committed(records)
    seat_tokens = [
        {"seat": i, "player": p, "token": t} for i, (p, t) in enumerate(zip(game.seats, tokens, strict=True))
    ]
    return WriteResult(201, {**answer, "seat_tokens": seat_tokens})


def _replay(work: UnitOfWork, items: list[dict[str, Any]]) -> None:
    engine = work.game.engine
    for index, item in enumerate(items):
        try:
            seat = item["seat"]
            if seat is not None:
                access.check_seat(work.game, seat)
            command = commands.command(engine.id, item["command"])
            if engine.outcome(work.state).finished:
                raise Invalid("game-over", "The game has ended; no command follows.")
            work.decide({**command, "seat": seat})
        except RuleViolation as violation:
            raise _refused(index, violation.code, violation.message) from violation
        except DomainError as error:
            raise _refused(index, error.code, error.detail) from error


def _refused(index: int, rule: str, detail: str) -> Invalid:
    return Invalid("command-refused", f"Command {index} was refused: {detail}", index=index, rule=rule)


def _close(work: UnitOfWork, document: dict[str, Any]) -> str:
    """The imported game's status; its outcome must be the document's, if given."""
    work.deal_chance()
    status = work.finish_if_over()
    outcome = work.game.engine.outcome(work.state)
    claimed = document.get("outcome")
    if claimed and claimed.get("finished") is not None:
        mine = {"finished": outcome.finished, "places": list(outcome.places), "scores": list(outcome.scores)}
        theirs = {k: claimed.get(k, mine[k]) for k in mine}
        if theirs != mine:
            raise Invalid(
                "outcome-mismatch", "The commands do not lead to the document's outcome.", details=mine
            )
    if document.get("status") == "abandoned":
        if status != "active":
            raise Invalid("outcome-mismatch", "A finished game cannot be abandoned.")
        work.record_service(
            fold.GAME_ABANDONED,
            {
                "reason": document.get("abandon_reason"),
                "seed": work.game.seed if work.game.dealer == "server" else None,
            },
        )
        return "abandoned"
    return status


def _seat_players(conn: psycopg.Connection, club_id: UUID, seats: list[dict[str, Any]]) -> list[str]:
    """Each seat's player in this club: the given id if it is the club's, else
    the club's player of that name, created if the club has none."""
    ids = [str(s["player"]) for s in seats if s.get("player")]
    known = games.player_names(conn, ids, club_id)
    found = []
    for index, seat in enumerate(seats):
        if seat.get("player") and str(seat["player"]) in known:
            found.append(str(seat["player"]))
            continue
        if not seat.get("name"):
            raise Invalid(
                "unknown-player",
                f"Seat {index} names no player of this club.",
                players=[str(seat.get("player"))],
            )
        row = conn.execute(
            "INSERT INTO players (id, club_id, name) VALUES (%s, %s, %s)"
            " ON CONFLICT (club_id, name) DO UPDATE SET name = EXCLUDED.name RETURNING id",
            (uuid.uuid4(), club_id, seat["name"]),
        ).fetchone()
        found.append(str(row["id"]))
    return found


def _claim(conn: psycopg.Connection, club_id: UUID, key: str, body_hash: str) -> WriteResult | None:
    """Claim ``key`` for this club in this transaction (None), or return the first answer."""
    claimed = conn.execute(
        "INSERT INTO import_keys (club_id, key, request_hash) VALUES (%s, %s, %s)"
        " ON CONFLICT (club_id, key) DO NOTHING RETURNING key",
        (club_id, key, body_hash),
    ).fetchone()
    if claimed:
        return None
    row = conn.execute(
        "SELECT request_hash, response FROM import_keys WHERE club_id = %s AND key = %s", (club_id, key)
    ).fetchone()
    if row["request_hash"] != body_hash:
        raise Invalid("idempotency-key-reused", "This Idempotency-Key was used with a different body.")
    return WriteResult(201, row["response"], replayed=True)


def _json(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: (str(v) if isinstance(v, UUID) else v) for k, v in answer.items()}
