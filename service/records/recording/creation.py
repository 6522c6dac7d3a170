"""Creating a game: seats checked against the club's players, a secret seed,
one token minted per seat, and the setup events appended in one transaction."""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from engines import registry
from engines.base import Engine, GameConfig, RuleViolation
from service.records import access
from service.records.access import Principal
from service.records.club import catalogs, sign_ins
from service.records.errors import Invalid
from service.records.log import fold, store
from service.records.log.context import Records
from service.records.recording import commands, games
from service.records.recording.games import Game
from service.records.recording.unit_of_work import UnitOfWork, metadata


def create_game(
    records: Records, club_id: UUID, principal: Principal | None, spec: dict[str, Any], request_id: str | None
) -> dict[str, Any]:
    """Create a game (the club's admin token): returns its summary and one token per seat (shown once)."""
    principal = access.club_admin(principal, club_id, app_scope="games")
    options = commands.options(commands.known_engine(spec["engine"]), spec["options"])
    game, tokens = new_game(records, club_id, principal, spec, options, request_id)
    with records.pool.connection() as conn:
        names = games.player_names(conn, game.seats)
    seat_tokens = [
        {"seat": i, "player": p, "token": t} for i, (p, t) in enumerate(zip(game.seats, tokens, strict=True))
    ]
    return {**summary(game, names), "seat_tokens": seat_tokens}


def summary(game: Game, names: dict[str, str] | None = None) -> dict[str, Any]:
    names = names or {}
    return {
        "id": game.id,
        "engine": game.engine_id,
        "seats": [{"seat": i, "player": p, "name": names.get(p)} for i, p in enumerate(game.seats)],
        "options": game.options,
        "dealer": game.dealer,
        "league": game.league_id,
        "public": game.public,
        "admin_spectator": game.admin_spectator,
        "catalog": game.catalog_ref,
        "status": game.status,
        "version": game.version,
    }


def new_game(
    records: Records,
    club_id: UUID,
    principal: Principal,
    spec: dict[str, Any],
    options: dict[str, Any],
    request_id: str | None,
) -> tuple[Game, list[str]]:
    """The game, created with ``options`` already checked; and its seat tokens."""
    with records.pool.connection() as conn:
        with conn.transaction():
            game, tokens = open_game(conn, club_id, spec, options)
            work = set_up(conn, game, principal, request_id)
            work.commit(work.finish_if_over(), records.snapshot_every)
        work.committed(records)
        return games.get_game(conn, game.id), tokens


def open_game(
    conn: psycopg.Connection,
    club_id: UUID,
    spec: dict[str, Any],
    options: dict[str, Any],
    seed: str | None = None,
) -> tuple[Game, list[str]]:
    """Check the seats and league, insert the game and mint its seat tokens, in
    the caller's transaction (nothing is appended yet).

    The club's row is locked first (``seats_unmerged``)."""
    opening = Opening(conn, club_id)
    seats = [str(p) for p in spec["seats"]]
    retired = [
        str(r["id"])
        for r in conn.execute(
            "SELECT id FROM players WHERE id = ANY(%s::uuid[]) AND club_id = %s AND retired_at IS NOT NULL",
            (_uuids(seats), club_id),
        )
    ]
    if retired:
        raise Invalid("retired-player", "A retired player takes no seat in new games.", players=retired)
    seats_unmerged(conn, club_id, seats)
    game = opening.game(spec, options, games.player_names(conn, seats, club_id), seed)
    (tokens,) = insert_games(conn, [game])
    return game, tokens


def seats_unmerged(conn: psycopg.Connection, club_id: UUID, seats: Sequence[str]) -> None:
    """No seat is a merged-in player's (``player-merged``), in the caller's
    transaction. The club's row is locked first (``FOR KEY SHARE``: games
    opened at once do not wait for each other), so that a merge of players
    (which locks it ``FOR UPDATE``, ``merges``) waits for the game or the
    game for it: a merge never misses a game seating both its players, and a
    game never seats a player merged meanwhile."""
    conn.execute("SELECT id FROM clubs WHERE id = %s FOR KEY SHARE", (club_id,))
    merged = [
        str(r["merged_id"])
        for r in conn.execute(
            "SELECT merged_id FROM player_merges WHERE merged_id = ANY(%s::uuid[]) AND club_id = %s",
            (_uuids(list(seats)), club_id),
        )
    ]
    if merged:
        raise Invalid("player-merged", "A player merged into another plays as the one kept.", players=merged)


def _uuids(ids: list[str]) -> list[UUID]:
    """The ids that are UUIDs (the others are refused as unknown players later)."""
    out = []
    for i in ids:
        try:
            out.append(UUID(i))
        except ValueError:
            continue
    return out


class Opening:
    """The checks of a club's new games: each league and catalog they name is
    read once, however many games name it."""

    def __init__(
        self,
        conn: psycopg.Connection,
        club_id: UUID,
        leagues: dict[Any, str | None] | None = None,
        catalogs: dict[tuple[str, str, int], dict[str, Any]] | None = None,
    ):
        """``leagues`` (id -> engine) and ``catalogs`` ((kind, id, version) ->
        content): the club's when the club is not stored yet (a restore);
        otherwise they are read as games name them."""
        self.conn, self.club_id = conn, club_id
        self._leagues: dict[Any, str | None] = dict(leagues or {})
        self._own = dict(catalogs or {})
        self._catalogs: dict[tuple, tuple[tuple[str, str, int], UUID | None]] = {}

    def game(
        self, spec: dict[str, Any], options: dict[str, Any], names: dict[str, str], seed: str | None = None
    ) -> Game:
        """The game ``spec`` describes, checked (``names``: the club's players
        among its seats), not yet inserted."""
        engine = registry.get(spec["engine"])
        seats = [str(p) for p in spec["seats"]]
        if len(set(seats)) != len(seats):
            raise Invalid("player-seated-twice", "A player takes one seat of a game.")
        if not engine.min_seats <= len(seats) <= engine.max_seats:
            raise Invalid(
                "seat-count",
                f"{engine.title} takes {engine.min_seats} to {engine.max_seats} players, not {len(seats)}.",
            )
        missing = [s for s in seats if s not in names]
        if missing:
            raise Invalid("unknown-player", "Every seat must be a player of this club.", players=missing)
        if spec.get("league"):
            self.check_league(spec["league"], engine.id)
        catalog_ref, catalog_club = (
            self._catalog(engine, spec.get("catalog")) if engine.catalog_kind else (None, None)
        )
        return Game(
            uuid.uuid4(),
            self.club_id,
            spec.get("league"),
            engine.id,
            seats,
            options,
            spec.get("dealer", "server"),
            seed or secrets.token_hex(16),
            bool(spec.get("public", False)),
            catalog_ref,
            "active",
            0,
            catalog_club,
            _admin_spectator(spec),
        )

    def check_league(self, league_id: Any, engine_id: str) -> None:
        """The league is the club's, open, and records this game (or any)."""
        league_engine = self._league_engine(league_id)
        if league_engine and league_engine != engine_id:
            raise Invalid("league-engine", f"This league records {league_engine} games only.")

    def _league_engine(self, league_id: Any) -> str | None:
        if league_id not in self._leagues:
            league = self.conn.execute(
                "SELECT engine, closed_at FROM leagues WHERE id = %s AND club_id = %s",
                (league_id, self.club_id),
            ).fetchone()
            if league is None:
                raise Invalid("unknown-league", "No such league in this club.")
            if league["closed_at"] is not None:
                raise Invalid("league-closed", "This league's season is closed: it takes no new games.")
            self._leagues[league_id] = league["engine"]
        return self._leagues[league_id]

    def _catalog(
        self, engine: Engine, wanted: dict[str, Any] | None
    ) -> tuple[tuple[str, str, int], UUID | None]:
        key = (engine.id, None if not wanted else (wanted["id"], int(wanted["version"])))
        if key not in self._catalogs:
            own = wanted and (engine.catalog_kind, wanted["id"], int(wanted["version"]))
            if own in self._own:
                self._catalogs[key] = own, self.club_id
            else:
                self._catalogs[key] = _catalog_for(self.conn, engine, self.club_id, wanted)
        return self._catalogs[key]

    def config(self, game: Game) -> GameConfig:
        """A game's configuration, its catalog's content read from the club's
        catalogs to be when it names one of them."""
        if game.catalog_club == self.club_id and game.catalog in self._own:
            return GameConfig(len(game.seats), game.options or {}, game.dealer, self._own[game.catalog])
        return games.config_of(self.conn, game)


def insert_games(conn: psycopg.Connection, new: Sequence[Game]) -> list[list[str]]:
    """Insert ``new`` games and mint one token per seat of each (its tokens,
    by game). One game (a game created at the table) is one INSERT of each;
    many (an import, a restore) are COPYed (``copy_games``)."""
    tokens = [[access.new_token("seat") for _ in game.seats] for game in new]
    seat_rows = [
        (digest, game.club_id, "seat", game.id, seat)
        for game, minted in zip(new, tokens, strict=True)
        for seat, (_, digest) in enumerate(minted)
    ]
    if len(new) > 1:
        copy_games(conn, new)
        _copy(conn, "COPY tokens (hash, club_id, kind, game_id, seat) FROM STDIN", seat_rows)
    else:
        with conn.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({', '.join(['%s'] * 14)})",
                [_game_row(game, Jsonb) for game in new],
            )
            cursor.executemany(
                "INSERT INTO tokens (hash, club_id, kind, game_id, seat) VALUES (%s, %s, %s, %s, %s)",
                seat_rows,
            )
    return [[token for token, _ in minted] for minted in tokens]


GAME_COLUMNS = (
    "id, club_id, league_id, engine, seats, options, dealer, seed, public,"
    " catalog_kind, catalog_id, catalog_version, catalog_club_id, admin_spectator"
)


def copy_games(conn: psycopg.Connection, new: Sequence[Game]) -> None:
    """The games' rows COPYed in, in the caller's transaction: the one bulk
    writer of games, for imports, restores and histories of results."""
    _copy(conn, f"COPY games ({GAME_COLUMNS}) FROM STDIN", [_game_row(game, _json_text) for game in new])


def _copy(conn: psycopg.Connection, statement: str, rows: Sequence[tuple]) -> None:
    """``rows`` COPYed by ``statement``, ``store.COPY_ROWS`` a statement, so
    that each ends well within the database wait limit."""
    with conn.cursor() as cursor:
        for start in range(0, len(rows), store.COPY_ROWS):
            with cursor.copy(statement) as copy:
                for row in rows[start : start + store.COPY_ROWS]:
                    copy.write_row(row)


def _json_text(value: Any) -> str:
    return store.event_json(value).decode()


def _game_row(game: Game, as_json: Any) -> tuple:
    return (
        game.id,
        game.club_id,
        game.league_id,
        game.engine_id,
        as_json(game.seats),
        as_json(game.options),
        game.dealer,
        game.seed,
        game.public,
        *(game.catalog or (None, None, None)),
        game.catalog_club,
        game.admin_spectator,
    )


def set_up(
    conn: psycopg.Connection,
    game: Game,
    principal: Principal,
    request_id: str | None,
    deal: bool = True,
    config: GameConfig | None = None,
    played_at: dt.datetime | None = None,
) -> UnitOfWork:
    """The game's opening: ``GameCreated``, the engine's setup events and (``deal``)
    the chance a server-dealt game then waits for. ``config``: the game's, when
    the caller has it already. ``played_at``: when a game recorded elsewhere
    was played (an import's), which its ``GameCreated`` keeps as its day."""
    engine = game.engine
    config = config or games.config_of(conn, game)
    try:
        initial = engine.initial_state(config)
    except RuleViolation as violation:
        raise Invalid(violation.code, violation.message, rule=violation.code) from violation
    work = UnitOfWork(conn, game, config, initial, metadata(principal, request_id, game, setup=True))
    work.record_service(
        fold.GAME_CREATED,
        {
            "engine": engine.id,
            "engine_version": engine.version,
            "club": str(game.club_id),
            "league": str(game.league_id) if game.league_id else None,
            "seats": game.seats,
            "options": game.options,
            "dealer": game.dealer,
            "public": game.public,
            "admin_spectator": game.admin_spectator,
            "catalog": work.meta.get("catalog"),
            **({"played_at": played_at.isoformat()} if played_at else {}),
        },
    )
    work.record(engine.setup(config))
    if deal:
        work.deal_chance()
    return work


def _admin_spectator(spec: dict[str, Any]) -> bool:
    """The admin token as a spectator: in a server-dealt game it sees no hand
    and acts for no seat; at a table it is a recorder who sees only public
    information (it enters the public chance, each player their own cards and
    entries on their own phone)."""
    return bool(spec.get("admin_spectator", False))


def _catalog_for(
    conn: psycopg.Connection, engine: Engine, club_id: UUID, wanted: dict[str, Any] | None
) -> tuple[tuple[str, str, int], UUID | None]:
    """The catalog a new game names (the club's own or a shipped default) and its owner."""
    if wanted:
        owner = catalogs.owned_or_shipped(conn, club_id, engine.catalog_kind, wanted["id"], wanted["version"])
        return (engine.catalog_kind, wanted["id"], int(wanted["version"])), UUID(owner) if owner else None
    default = catalogs.default_catalog(engine.id)
    catalogs.ensure_stored(conn, default)
    return (default["kind"], default["id"], int(default["version"])), None


def reissue_seat_tokens(records: Records, game_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """New seat tokens for every seat of a game (its recorder only), the old
    ones revoked in the same transaction: for a seat token lost, or given to
    the wrong person (an answer lost on the way is asked for again under its
    Idempotency-Key, which answers the same tokens)."""
    with records.pool.connection() as conn, conn.transaction():
        game = games.get_game(conn, game_id)
        access.recorder_of(game, principal)
        conn.execute("DELETE FROM tokens WHERE game_id = %s AND kind = 'seat'", (game.id,))
        minted = [access.new_token("seat") for _ in game.seats]
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO tokens (hash, club_id, kind, game_id, seat) VALUES (%s, %s, 'seat', %s, %s)",
                [(digest, game.club_id, game.id, seat) for seat, (_, digest) in enumerate(minted)],
            )
    sign_ins.tokens_changed()
    return {
        "game": game.id,
        "seat_tokens": [
            {"seat": i, "player": p, "token": t}
            for i, (p, (t, _)) in enumerate(zip(game.seats, minted, strict=True))
        ],
    }
