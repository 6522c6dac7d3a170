"""Whole games in and out: an export is the game's setup and every command in
force, in order; an import replays such documents through the engine, the
same unit of work as actions, then stores them in one transaction.

Retractions are applied: an export lists only the commands still in force
(the retracted ones, and the retraction itself, are left out), so an import
rebuilds the game as it stands. Chance is exported as the commands that
brought it (dealt by the service or posted at the table) and imported as
they are: an imported server-dealt game is never re-dealt.

A document's seed is kept only when its commands end the game (or the
document abandons it): a game the import leaves live deals the rest from a new
secret seed, since its importer must not know what is still to come. The
document's ``status``, when given, must be the one its commands lead to.
A finished game's ``played_at`` (when it was played: an export gives the
moment it first ended) is kept in its ``GameCreated``, so the imported game
keeps its day in every list and in its league's rating order.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from engines.base import GameConfig, RuleViolation
from service.records import access
from service.records.access import Principal
from service.records.club import names
from service.records.errors import Conflict, DomainError, Invalid
from service.records.log import fold, notify, store
from service.records.log.context import Records
from service.records.recording import commands, creation, games, states
from service.records.recording.games import Game
from service.records.recording.unit_of_work import UnitOfWork, WriteResult, metadata

FORMAT = "tablerecord.game/1"

#: The most events one transaction may append (positions are xid x 2^20 + ordinal, see ``store``).
MAX_EVENTS = 1 << 20


def export_game(records: Records, game_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The game as one document (see the module's docstring), for whoever
    ``access.may_export``."""
    with records.pool.connection() as conn:
        game = games.get_game(conn, game_id)
        access.may_export(game, principal)
        return document_of(conn, game)


def document_of(conn: psycopg.Connection, game: Game) -> dict[str, Any]:
    """``game``'s document, whoever asks: its callers check who may have it."""
    events = store.read_stream(conn, game.id)
    names = games.player_names(conn, game.seats)
    outcome = game.engine.outcome(states.load_state(conn, game))
    live = fold.live_line(events)
    ended = next((e for e in reversed(live) if e.type == fold.GAME_ABANDONED), None)
    first_end = next((e for e in events if e.type == fold.GAME_ENDED), None)
    given = events[0].data.get("played_at")
    played_at = dt.datetime.fromisoformat(given) if given else (first_end.recorded_at if first_end else None)
    return {
        "format": FORMAT,
        "engine": game.engine_id,
        "engine_version": game.engine.version,
        "catalog": game.catalog_ref,
        "seats": [{"seat": i, "player": p, "name": names.get(p)} for i, p in enumerate(game.seats)],
        "options": game.options,
        "dealer": game.dealer,
        "public": game.public,
        "admin_spectator": game.admin_spectator,
        "seed": game.seed if game.status != "active" and game.dealer == "server" else None,
        "commands": _commands_in_force(live),
        "status": game.status,
        "abandon_reason": ended.data.get("reason") if ended else None,
        "played_at": played_at if game.status == "finished" else None,
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
    return _import(records, club_id, principal, [document], idempotency_key, body_hash, request_id, one=True)


def import_games(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    documents: list[dict[str, Any]],
    *,
    idempotency_key: str | None = None,
    body_hash: str = "",
    request_id: str | None = None,
) -> WriteResult:
    """``import_game`` for many documents in one transaction (a club's history
    moved in at once): all their games are stored, or none is and the error
    names the ``document`` (its index) as well. The answer is ``{"games": [...]}``,
    one summary with seat tokens per document, in order."""
    return _import(records, club_id, principal, documents, idempotency_key, body_hash, request_id, one=False)


def _import(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    documents: list[dict[str, Any]],
    idempotency_key: str | None,
    body_hash: str,
    request_id: str | None,
    *,
    one: bool,
) -> WriteResult:
    """Replay every document with no transaction open (reads only, each its
    own), then store all the games in one short transaction: a long replay
    neither holds back the readers of the log (``events_horizon()``, see
    ``store``) nor meets the idle-transaction timeout."""
    principal = access.club_admin(principal, club_id, app_scope="games")
    checked = []
    for index, document in enumerate(documents):
        with _naming(None if one else index):
            engine_id = commands.known_engine(document["engine"])
            checked.append((engine_id, commands.options(engine_id, document["options"])))
    for _ in range(PLAYER_RACES):
        with records.pool.connection() as conn:
            conn.autocommit = True
            try:
                earlier = _answered(conn, club_id, idempotency_key, body_hash)
                if earlier is not None:
                    return earlier
                replayed = _replay_all(conn, club_id, principal, documents, checked, request_id, one)
            finally:
                conn.autocommit = False
            try:
                with conn.transaction():
                    result, last = _store(conn, records, club_id, replayed, idempotency_key, body_hash, one)
            except _PlayerAddedMeanwhile:
                continue
        if last:
            notify.publish(records.listeners, last)
        return result
    raise Conflict("players-changing", "Players of these names were being added meanwhile; retry.")


#: Attempts at an import whose new players' names another writer takes meanwhile.
PLAYER_RACES = 3


class _PlayerAddedMeanwhile(Exception):
    """A name the import seats a new player under was taken before it stored its games."""


@dataclass
class Replayed:
    """Documents replayed, not stored: their games, events and statuses, and
    the players to add by name."""

    works: list[UnitOfWork]
    statuses: list[str]
    names: dict[str, str]
    new_players: dict[str, str]


def _replay_all(
    conn: psycopg.Connection,
    club_id: UUID,
    principal: Principal,
    documents: list[dict[str, Any]],
    checked: list[tuple[str, dict[str, Any]]],
    request_id: str | None,
    one: bool,
) -> Replayed:
    players, names, new_players = _seat_players(conn, club_id, documents, one)
    opening = creation.Opening(conn, club_id)
    works, statuses = _replay_documents(
        conn, opening, principal, documents, checked, players, names, request_id, one
    )
    return Replayed(works, statuses, names, new_players)


def replay_for_new_club(
    conn: psycopg.Connection,
    opening: creation.Opening,
    principal: Principal,
    documents: list[dict[str, Any]],
    names: dict[str, str],
    request_id: str | None,
    sealed_seeds: dict[int, str] | None = None,
) -> Replayed:
    """Documents replayed for a club that is not stored yet (a restore): each
    seat names its player by an id of ``names`` (the club's players to be),
    and ``opening`` knows the club's leagues and catalogs to be. Nothing is
    read of the club; ``store_replayed`` stores the games once the club is
    stored. ``sealed_seeds``: the seeds of live games (by index) that came
    sealed for this service alone, kept so that they deal on as they would have."""
    checked = []
    for index, document in enumerate(documents):
        with _naming(index):
            engine_id = commands.known_engine(document["engine"])
            checked.append((engine_id, commands.options(engine_id, document["options"])))
    players = [[str(s.get("player")) for s in document["seats"]] for document in documents]
    works, statuses = _replay_documents(
        conn, opening, principal, documents, checked, players, names, request_id, False, sealed_seeds
    )
    return Replayed(works, statuses, names, {})


def _replay_documents(
    conn: psycopg.Connection,
    opening: creation.Opening,
    principal: Principal,
    documents: list[dict[str, Any]],
    checked: list[tuple[str, dict[str, Any]]],
    players: list[list[str]],
    names: dict[str, str],
    request_id: str | None,
    one: bool,
    sealed_seeds: dict[int, str] | None = None,
) -> tuple[list[UnitOfWork], list[str]]:
    """Each document's game opened and its commands replayed: their units of work and statuses."""
    configs: dict[str, GameConfig] = {}
    works, statuses = [], []
    for index, (document, (engine_id, options)) in enumerate(zip(documents, checked, strict=True)):
        with _naming(None if one else index):
            spec = {**document, "engine": engine_id, "seats": players[index]}
            # A seed is kept only for a game the import ends (``_close``
            # checks that it does): a live game's chance must stay secret
            # from everyone, the importer included; or one that came sealed
            # for this service alone (a restore), which nobody else has read.
            seed = (sealed_seeds or {}).get(index) or (
                document.get("seed") if document.get("status") in ("finished", "abandoned") else None
            )
            game = opening.game(spec, options, names, seed)
            # A game the import leaves live is played from now on, whatever day the document gives.
            played_at = document.get("played_at") if document.get("status") != "active" else None
            work = creation.set_up(
                conn,
                game,
                principal,
                request_id,
                deal=False,
                config=_config(opening, game, configs),
                played_at=played_at,
            )
            work.meta = metadata(principal, request_id, game, imported=True)
            _replay(work, document["commands"])
            statuses.append(_close(work, document))
            works.append(work)
    if sum(len(w.pending) for w in works) > MAX_EVENTS:
        raise Invalid("import-too-large", f"One import stores at most {MAX_EVENTS} events; send fewer games.")
    return works, statuses


def _store(
    conn: psycopg.Connection,
    records: Records,
    club_id: UUID,
    replayed: Replayed,
    idempotency_key: str | None,
    body_hash: str,
    one: bool,
) -> tuple[WriteResult, int]:
    """Store the replayed games, in the caller's transaction; and the last position."""
    if idempotency_key:
        earlier = _claim(conn, club_id, idempotency_key, body_hash)
        if earlier is not None:
            return earlier, 0
    _add_players(conn, club_id, replayed.new_players)
    works, statuses = replayed.works, replayed.statuses
    tokens, last = store_replayed(conn, records, replayed)
    answers = [
        _json(creation.summary(replace(w.game, status=status, version=w.version), replayed.names))
        for w, status in zip(works, statuses, strict=True)
    ]
    if idempotency_key:
        conn.execute(
            "UPDATE import_keys SET response = %s WHERE club_id = %s AND key = %s",
            (Jsonb(answers[0] if one else {"games": answers}), club_id, idempotency_key),
        )
    shown = [
        {**summary, "seat_tokens": _seat_tokens(w.game, minted)}
        for summary, w, minted in zip(answers, works, tokens, strict=True)
    ]
    return WriteResult(201, shown[0] if one else {"games": shown}), last


def store_replayed(
    conn: psycopg.Connection, records: Records, replayed: Replayed
) -> tuple[list[list[str]], int]:
    """Insert the replayed games and append their events, in the caller's
    transaction: each game's seat tokens, and the last position."""
    works = replayed.works
    tokens = creation.insert_games(conn, [w.game for w in works])
    last = store.append_games(
        conn,
        [
            store.GameAppend(w.game.club_id, w.game.id, w.game.version, w.pending, status)
            for w, status in zip(works, replayed.statuses, strict=True)
        ],
    )
    store.copy_snapshots(conn, [w.snapshot() for w in works if w.snapshot_due(records.snapshot_every)])
    return tokens, last


def _seat_tokens(game: Game, tokens: list[str]) -> list[dict[str, Any]]:
    return [
        {"seat": i, "player": p, "token": t} for i, (p, t) in enumerate(zip(game.seats, tokens, strict=True))
    ]


@contextmanager
def _naming(document: int | None) -> Iterator[None]:
    """A refusal met while importing document ``document`` of a batch names it."""
    try:
        yield
    except DomainError as error:
        if document is not None and "document" not in error.extra:
            error.extra = {"document": document, **error.extra}
            error.detail = f"Game {document}: {error.detail}"
        raise


def _config(opening: creation.Opening, game: Game, configs: dict[str, GameConfig]) -> GameConfig:
    """The game's configuration, read once for all the games of an import that share it."""
    key = json.dumps([len(game.seats), game.options, game.dealer, game.catalog_ref], sort_keys=True)
    if key not in configs:
        configs[key] = opening.config(game)
    return configs[key]


def _replay(work: UnitOfWork, items: list[dict[str, Any]]) -> None:
    engine = work.game.engine
    for index, item in enumerate(items):
        try:
            seat = item["seat"]
            if seat is not None:
                access.check_seat(work.game, seat)
            command = commands.command(engine.id, item["command"])
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
    if document.get("status") not in (None, status):
        raise Invalid(
            "status-mismatch",
            f"The document says the game is {document['status']}, but its commands leave it {status}.",
        )
    return status


def _seat_players(
    conn: psycopg.Connection, club_id: UUID, documents: list[dict[str, Any]], one: bool
) -> tuple[list[list[str]], dict[str, str], dict[str, str]]:
    """Each document's seats as players of this club (the given id if it is
    the club's, else the club's player of that name, or a new one under that
    name), the names of them all, and the new ones to add (name -> id)."""
    given = {str(s["player"]) for d in documents for s in d["seats"] if s.get("player")}
    known = games.player_names(conn, given, club_id)
    wanted = set()
    seat_names: dict[tuple[int, int], str] = {}
    for index, document in enumerate(documents):
        for seat_index, seat in enumerate(document["seats"]):
            if seat.get("player") and str(seat["player"]) in known:
                continue
            with _naming(None if one else index):
                if not seat.get("name"):
                    raise Invalid(
                        "unknown-player",
                        f"Seat {seat_index} names no player of this club.",
                        players=[str(seat.get("player"))],
                    )
                seat_names[index, seat_index] = names.name(seat["name"], f"seats.{seat_index}.name")
            wanted.add(seat_names[index, seat_index])
    rows = conn.execute(
        "SELECT id, name FROM players WHERE club_id = %s AND name = ANY(%s)", (club_id, list(wanted))
    ).fetchall()
    by_name = {r["name"]: str(r["id"]) for r in rows}
    new_players = {name: str(uuid.uuid4()) for name in wanted if name not in by_name}
    by_name.update(new_players)
    players = [
        [
            str(s["player"]) if s.get("player") and str(s["player"]) in known else by_name[seat_names[i, k]]
            for k, s in enumerate(document["seats"])
        ]
        for i, document in enumerate(documents)
    ]
    return players, {**known, **{player: name for name, player in by_name.items()}}, new_players


def _add_players(conn: psycopg.Connection, club_id: UUID, new_players: dict[str, str]) -> None:
    """Add the import's new players, or raise ``_PlayerAddedMeanwhile`` (the
    games were replayed with these ids, so another player of the name will not do)."""
    if not new_players:
        return
    added = conn.execute(
        "INSERT INTO players (id, club_id, name) SELECT unnest(%s::uuid[]), %s, unnest(%s::text[])"
        " ON CONFLICT (club_id, name) DO NOTHING RETURNING id",
        (list(new_players.values()), club_id, list(new_players)),
    ).fetchall()
    if len(added) != len(new_players):
        raise _PlayerAddedMeanwhile()


def _answered(conn: psycopg.Connection, club_id: UUID, key: str | None, body_hash: str) -> WriteResult | None:
    """The first answer to an import under ``key``, if one has been stored."""
    if not key:
        return None
    row = conn.execute(
        "SELECT request_hash, response FROM import_keys WHERE club_id = %s AND key = %s", (club_id, key)
    ).fetchone()
    return _earlier(row, body_hash) if row else None


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
    return _earlier(row, body_hash)


def _earlier(row: dict[str, Any], body_hash: str) -> WriteResult:
    if row["request_hash"] != body_hash:
        raise Invalid("idempotency-key-reused", "This Idempotency-Key was used with a different body.")
    return WriteResult(201, row["response"], replayed=True)


def _json(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: (str(v) if isinstance(v, UUID) else v) for k, v in answer.items()}
