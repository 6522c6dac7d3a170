"""The imperative shell around the engines: create a game, act, retract, abandon.

Every write runs in one transaction: lock the game row (so writers of one game
never interleave), fold its state, let the engine decide, deal any chance the
game then waits for (server dealer), and append all resulting events.
A rejected action raises before anything is written.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from engines import registry
from engines.base import Engine, Event, GameConfig, RuleViolation
from engines.chance import deal
from service import catalogs, replay, store
from service.auth import Principal, new_token
from service.errors import Problem, not_found
from service.store import NewEvent, StoredEvent

MAX_CHANCE_STEPS = 10_000


@dataclass(frozen=True)
class Game:
    id: UUID
    club_id: UUID
    league_id: UUID | None
    engine_id: str
    seats: list[str]
    options: dict[str, Any]
    dealer: str
    seed: str
    public: bool
    catalog: tuple[str, str, int] | None
    status: str
    version: int

    @property
    def engine(self) -> Engine:
        return registry.get(self.engine_id)


GAME_COLUMNS = (
    "id, club_id, league_id, engine, seats, options, dealer, seed, public,"
    " catalog_kind, catalog_id, catalog_version, status, version"
)


def _game(row: dict[str, Any]) -> Game:
    catalog = (row["catalog_kind"], row["catalog_id"], row["catalog_version"]) if row["catalog_id"] else None
    return Game(
        row["id"],
        row["club_id"],
        row["league_id"],
        row["engine"],
        [str(s) for s in row["seats"]],
        row["options"],
        row["dealer"],
        row["seed"],
        row["public"],
        catalog,
        row["status"],
        row["version"],
    )


def get_game(conn: psycopg.Connection, game_id: UUID, lock: bool = False) -> Game:
    sql = f"SELECT {GAME_COLUMNS} FROM games WHERE id = %s" + (" FOR UPDATE" if lock else "")
    row = conn.execute(sql, (game_id,)).fetchone()
    if row is None:
        raise not_found("game")
    return _game(row)


def config_of(conn: psycopg.Connection, game: Game) -> GameConfig:
    content = catalogs.load(conn, *game.catalog) if game.catalog else None
    return GameConfig(seats=len(game.seats), options=game.options, dealer=game.dealer, catalog=content)


def load_state(conn: psycopg.Connection, game: Game, use_snapshots: bool = True) -> Any:
    """The game's state at its current version (``use_snapshots=False``: a full fold, no cache)."""
    config = config_of(conn, game)
    if not use_snapshots:
        return replay.current_state(conn, game.engine, config, game.id, game.version, use_snapshots=False)
    return _state_at(conn, game, config)


class StateCache:
    """Recently folded states by (game, version, engine version).

    The state at a stream version is a pure function of the events up to it
    and states are immutable, so an entry can never go stale; the cache only
    spares re-reading a hot game's tail on every action.
    """

    def __init__(self, size: int = 1024):
        self.size = size
        self.entries: OrderedDict[tuple, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> Any:
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
                return self.entries[key]
        return None

    def put(self, key: tuple, state: Any) -> None:
        with self.lock:
            self.entries[key] = state
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)


STATES = StateCache()


def _state_at(conn: psycopg.Connection, game: Game, config: GameConfig) -> Any:
    key = (game.id, game.version, game.engine.version)
    state = STATES.get(key)
    if state is None:
        state = replay.current_state(conn, game.engine, config, game.id, game.version)
        STATES.put(key, state)
    return state


def chance_rng(seed: str, version: int) -> random.Random:
    """The generator for chance dealt after stream ``version``: derived from the
    game's secret seed, so a finished game's chance can be re-derived and checked."""
    digest = hashlib.sha256(f"{seed}:{version}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


class Session:
    """One write to one game: accumulates events, then appends them."""

    def __init__(
        self, conn: psycopg.Connection, game: Game, config: GameConfig, state: Any, meta: dict[str, Any]
    ):
        self.conn, self.game, self.config, self.state, self.meta = conn, game, config, state, meta
        self.pending: list[NewEvent] = []

    @property
    def version(self) -> int:
        return self.game.version + len(self.pending)

    def record(self, events: list[Event], **meta: Any) -> None:
        engine = self.game.engine
        for event in events:
            if event.type in replay.SERVICE_EVENTS:
                raise RuntimeError(f"{engine.id} emitted the service event {event.type}")
            # Evolve from the event exactly as it will be stored (through JSON),
            # so the live state is always the state a replay of the log gives;
            # the stored copy is separate, so evolving can never alter it.
            text = json.dumps(event.data)
            self.pending.append(NewEvent(event.type, json.loads(text), {**self.meta, **meta}))
            self.state = engine.evolve(self.state, Event(event.type, json.loads(text)))

    def record_service(self, type_: str, data: dict[str, Any]) -> None:
        self.pending.append(NewEvent(type_, data, dict(self.meta)))

    def decide(self, command: dict[str, Any], **meta: Any) -> None:
        self.record(self.game.engine.decide(self.state, command), **meta)

    def deal_chance(self) -> None:
        """Server dealer: answer every chance request at once, in this transaction."""
        if self.game.dealer != "server":
            return
        engine = self.game.engine
        for _ in range(MAX_CHANCE_STEPS):
            if engine.outcome(self.state).finished:
                return
            request = engine.chance(self.state)
            if request is None:
                return
            command = deal(request, chance_rng(self.game.seed, self.version))
            self.decide(command, dealt=True)
        raise RuntimeError("chance requests did not settle")

    def finish_if_over(self) -> str:
        outcome = self.game.engine.outcome(self.state)
        if not outcome.finished:
            return "active"
        self.record_service(
            replay.GAME_ENDED,
            {
                "places": list(outcome.places),
                "scores": list(outcome.scores),
                "ended_by": outcome.ended_by,
                "seed": self.game.seed if self.game.dealer == "server" else None,
            },
        )
        return "finished"

    def result(self, status: str, stored: list[StoredEvent], principal: Principal) -> ActionResult:
        """The answer to the writer: the events as it may see them."""
        body = {
            "game": str(self.game.id),
            "version": self.version,
            "status": status,
            "events": [redact_stored(self.game, e, viewer_seat(self.game, principal)) for e in stored],
        }
        return ActionResult(201, body)

    def commit(self, status: str, snapshot_every: int) -> list[StoredEvent]:
        stored = store.append(self.conn, self.game.id, self.game.version, self.pending)
        new_version = self.version
        self.conn.execute(
            "UPDATE games SET version = %s, status = %s WHERE id = %s", (new_version, status, self.game.id)
        )
        if snapshot_every and new_version // snapshot_every > self.game.version // snapshot_every:
            store.save_snapshot(
                self.conn,
                self.game.id,
                self.game.engine.version,
                new_version,
                self.game.engine.dump_state(self.state),
            )
        return stored


def metadata(
    principal: Principal | None, request_id: str | None, engine: Engine, game: Game, **extra
) -> dict:
    meta = {
        "actor": principal.label() if principal else "service",
        "request_id": request_id,
        "engine": engine.id,
        "engine_version": engine.version,
    }
    if game.catalog:
        meta["catalog"] = {"kind": game.catalog[0], "id": game.catalog[1], "version": game.catalog[2]}
    meta.update({k: v for k, v in extra.items() if v is not None})
    return meta


def create_game(
    pool: ConnectionPool,
    club_id: UUID,
    principal: Principal,
    spec: dict[str, Any],
    options: dict[str, Any],
    request_id: str | None,
    snapshot_every: int,
) -> tuple[Game, list[str], list[StoredEvent]]:
    engine = registry.get(spec["engine"])
    seats = [str(p) for p in spec["seats"]]
    if len(set(seats)) != len(seats):
        raise Problem(422, "player-seated-twice", "A player takes one seat of a game.")
    if not engine.min_seats <= len(seats) <= engine.max_seats:
        raise Problem(
            422,
            "seat-count",
            f"{engine.title} takes {engine.min_seats} to {engine.max_seats} players, not {len(seats)}.",
        )
    with pool.connection() as conn, conn.transaction():
        found = conn.execute(
            "SELECT id, name FROM players WHERE club_id = %s AND id = ANY(%s)",
            (club_id, [uuid.UUID(s) for s in seats]),
        ).fetchall()
        names = {str(r["id"]): r["name"] for r in found}
        missing = [s for s in seats if s not in names]
        if missing:
            raise Problem(422, "unknown-player", "Every seat must be a player of this club.", players=missing)
        if spec.get("league"):
            league = conn.execute(
                "SELECT engine FROM leagues WHERE id = %s AND club_id = %s", (spec["league"], club_id)
            ).fetchone()
            if league is None:
                raise Problem(422, "unknown-league", "No such league in this club.")
            if league["engine"] and league["engine"] != engine.id:
                raise Problem(422, "league-engine", f"This league records {league['engine']} games only.")
        catalog_ref = None
        if engine.catalog_kind:
            catalog_ref = _catalog_for(conn, engine, spec.get("catalog"))
        game = Game(
            uuid.uuid4(),
            club_id,
            spec.get("league"),
            engine.id,
            seats,
            options,
            spec.get("dealer", "server"),
            secrets.token_hex(16),
            bool(spec.get("public", False)),
            catalog_ref,
            "active",
            0,
        )
        conn.execute(
            "INSERT INTO games (id, club_id, league_id, engine, seats, options, dealer, seed, public,"
            " catalog_kind, catalog_id, catalog_version)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                game.id,
                club_id,
                game.league_id,
                engine.id,
                Jsonb(seats),
                Jsonb(options),
                game.dealer,
                game.seed,
                game.public,
                *(catalog_ref or (None, None, None)),
            ),
        )
        tokens = []
        for seat in range(len(seats)):
            token, digest = new_token("seat")
            conn.execute(
                "INSERT INTO tokens (hash, club_id, kind, game_id, seat) VALUES (%s, %s, 'seat', %s, %s)",
                (digest, club_id, game.id, seat),
            )
            tokens.append(token)
        config = config_of(conn, game)
        meta = metadata(principal, request_id, engine, game, setup=True)
        try:
            initial = engine.initial_state(config)
        except RuleViolation as violation:
            raise Problem(422, violation.code, violation.message, rule=violation.code) from violation
        session = Session(conn, game, config, initial, meta)
        session.record_service(
            replay.GAME_CREATED,
            {
                "engine": engine.id,
                "engine_version": engine.version,
                "club": str(club_id),
                "league": str(game.league_id) if game.league_id else None,
                "seats": seats,
                "options": options,
                "dealer": game.dealer,
                "public": game.public,
                "catalog": session.meta.get("catalog"),
            },
        )
        session.record(engine.setup(config))
        session.deal_chance()
        status = session.finish_if_over()
        stored = session.commit(status, snapshot_every)
    return get_game_fresh(pool, game.id), tokens, stored


def _catalog_for(
    conn: psycopg.Connection, engine: Engine, wanted: dict[str, Any] | None
) -> tuple[str, str, int]:
    if wanted:
        catalogs.load(conn, engine.catalog_kind, wanted["id"], wanted["version"])
        return engine.catalog_kind, wanted["id"], int(wanted["version"])
    default = catalogs.default_catalog(engine.id)
    catalogs.ensure_stored(conn, default)
    return default["kind"], default["id"], int(default["version"])


def get_game_fresh(pool: ConnectionPool, game_id: UUID) -> Game:
    with pool.connection() as conn:
        return get_game(conn, game_id)


def request_hash(body: Any) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@dataclass(frozen=True)
class ActionResult:
    status: int
    body: dict[str, Any]
    replayed: bool = False


def act(
    pool: ConnectionPool,
    game_id: UUID,
    principal: Principal,
    seat: int | None,
    command: dict[str, Any],
    validate: Callable[[Game, dict[str, Any]], dict[str, Any]],
    expected_version: int | None,
    idempotency_key: str | None,
    body_hash: str,
    request_id: str | None,
    snapshot_every: int,
) -> ActionResult:
    with pool.connection() as conn, conn.transaction():
        if idempotency_key:
            authorize_seat(get_game(conn, game_id), principal, seat)
            earlier = _claim_key(conn, game_id, idempotency_key, body_hash)
            if earlier is not None:
                return earlier
        game = get_game(conn, game_id, lock=True)
        authorize_seat(game, principal, seat)
        command = validate(game, command)
        if game.status != "active":
            raise Problem(409, "game-not-active", f"The game is {game.status}.", current_version=game.version)
        if expected_version is not None and expected_version != game.version:
            raise Problem(
                409,
                "version-conflict",
                "The game has moved on since that version.",
                current_version=game.version,
            )
        config = config_of(conn, game)
        state = _state_at(conn, game, config)
        meta = metadata(principal, request_id, game.engine, game, idempotency_key=idempotency_key)
        session = Session(conn, game, config, state, meta)
        try:
            session.decide({**command, "seat": seat})
        except RuleViolation as violation:
            raise Problem(
                422, violation.code, violation.message, rule=violation.code, details=violation.details
            ) from violation
        session.deal_chance()
        status = session.finish_if_over()
        result = session.result(status, session.commit(status, snapshot_every), principal)
        if idempotency_key:
            conn.execute(
                "UPDATE idempotency_keys SET status = 201, response = %s WHERE game_id = %s AND key = %s",
                (Jsonb(result.body), game_id, idempotency_key),
            )
    # Only once committed: a rolled-back version may later hold other events.
    STATES.put((game.id, session.version, game.engine.version), session.state)
    return result


def _claim_key(conn: psycopg.Connection, game_id: UUID, key: str, body_hash: str) -> ActionResult | None:
    """Claim an idempotency key in this transaction, or return the first answer.

    A concurrent copy blocks on the key's unique index until the first
    transaction ends: if it committed, the copy reads its answer; if it rolled
    back (a rejected action stores nothing), the copy claims the key itself.
    """
    claimed = conn.execute(
        "INSERT INTO idempotency_keys (game_id, key, request_hash) VALUES (%s, %s, %s)"
        " ON CONFLICT (game_id, key) DO NOTHING RETURNING key",
        (game_id, key, body_hash),
    ).fetchone()
    if claimed:
        return None
    row = conn.execute(
        "SELECT request_hash, status, response FROM idempotency_keys WHERE game_id = %s AND key = %s",
        (game_id, key),
    ).fetchone()
    if row["request_hash"] != body_hash:
        raise Problem(422, "idempotency-key-reused", "This Idempotency-Key was used with a different body.")
    return ActionResult(row["status"], row["response"], replayed=True)


def authorize_seat(game: Game, principal: Principal, seat: int | None) -> None:
    if principal.club_id != game.club_id or (not principal.is_admin and principal.game_id != game.id):
        raise not_found("game")
    if seat is None:
        if game.dealer == "server":
            raise Problem(403, "server-deals", "The service deals this game's chance; nobody submits it.")
        if not principal.is_admin:
            raise Problem(403, "recorder-only", "Only the recorder submits the table's dice and draws.")
        return
    if not 0 <= seat < len(game.seats):
        raise Problem(422, "no-such-seat", f"Seats run from 0 to {len(game.seats) - 1}.")
    if not principal.is_admin and principal.seat != seat:
        raise Problem(403, "not-your-seat", "A seat token acts only for its own seat.")


def viewer_seat(game: Game, principal: Principal | None, as_seat: int | None = None) -> int | None | str:
    """The seat a caller sees as: a seat number, None (spectator) or "all".

    An ended game shows everything. The recorder of a table game sees
    everything (it enters every seat's cards); in a server-dealt game it sees
    the spectator view unless it asks to see as one seat (``as_seat``).
    """
    if game.status != "active":
        return "all"
    if principal is None or principal.club_id != game.club_id:
        return None
    if principal.is_admin:
        if as_seat is not None:
            return as_seat
        return "all" if game.dealer == "table" else None
    return principal.seat if principal.game_id == game.id else None


def redact_stored(game: Game, event: StoredEvent, seat: int | None | str) -> dict[str, Any]:
    data = event.data
    if seat != "all" and event.type not in replay.SERVICE_EVENTS:
        data = dict(game.engine.redact(Event(event.type, event.data), seat).data)
    return {
        "position": event.position,
        "version": event.version,
        "type": event.type,
        "data": data,
        "recorded_at": event.recorded_at.isoformat(),
    }


def retract(
    pool: ConnectionPool,
    game_id: UUID,
    principal: Principal,
    to_version: int,
    request_id: str | None,
    reason: str | None,
) -> ActionResult:
    with pool.connection() as conn, conn.transaction():
        game = _lock_for_recorder(conn, game_id, principal)
        if game.dealer != "table":
            raise Problem(
                422,
                "server-dealt-no-retraction",
                "A server-dealt game cannot take actions back: no re-rolls.",
            )
        if game.status == "abandoned":
            raise Problem(409, "game-not-active", "The game is abandoned.")
        events = store.read_stream(conn, game.id)
        live_versions = [e.version for e in replay.live_line(events)]
        setup_end = _setup_end(events)
        if to_version not in live_versions or to_version >= game.version or to_version < setup_end:
            raise Problem(
                422,
                "bad-retraction",
                f"Retract to a live version between {setup_end} and {game.version - 1}.",
            )
        store.drop_snapshots_after(conn, game.id, to_version)
        config = config_of(conn, game)
        meta = metadata(principal, request_id, game.engine, game)
        session = Session(conn, game, config, None, meta)
        session.record_service(replay.ACTIONS_RETRACTED, {"to_version": to_version, "reason": reason})
        kept = replay.fold_stored(
            game.engine, config, [*events, _as_stored(session.pending[-1], game, session.version)]
        )
        session.state = kept
        status = session.finish_if_over()
        return session.result(status, session.commit(status, 0), principal)


def _lock_for_recorder(conn: psycopg.Connection, game_id: UUID, principal: Principal) -> Game:
    """The game, row-locked, for its club's admin token (the recorder) only."""
    game = get_game(conn, game_id, lock=True)
    if principal.club_id != game.club_id:
        raise not_found("game")
    if not principal.is_admin:
        raise Problem(403, "recorder-only", "Only the club's admin token (the recorder) may do this.")
    return game


def _setup_end(events: list[StoredEvent]) -> int:
    """The last version written when the game was created; nothing before it can be retracted."""
    return max((e.version for e in events if e.metadata.get("setup")), default=1)


def _as_stored(event: NewEvent, game: Game, version: int) -> StoredEvent:
    return StoredEvent(0, game.id, version, event.type, event.data, event.metadata, datetime.now(UTC))


def abandon(
    pool: ConnectionPool, game_id: UUID, principal: Principal, request_id: str | None, reason: str | None
):
    with pool.connection() as conn, conn.transaction():
        game = _lock_for_recorder(conn, game_id, principal)
        if game.status != "active":
            raise Problem(409, "game-not-active", f"The game is {game.status}.")
        session = Session(
            conn, game, config_of(conn, game), None, metadata(principal, request_id, game.engine, game)
        )
        session.record_service(
            replay.GAME_ABANDONED, {"reason": reason, "seed": game.seed if game.dealer == "server" else None}
        )
        return session.result("abandoned", session.commit("abandoned", 0), principal)
