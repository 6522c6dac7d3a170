"""Clubs (the tenant), their players and their leagues."""

from __future__ import annotations

import uuid
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from service.records import access
from service.records.access import Principal
from service.records.club import names
from service.records.errors import Conflict, NotFound
from service.records.log.context import Records

LEAGUE_COLUMNS = (
    "id, name, engine, season, points_table, min_games, public, created_at, closed_at IS NOT NULL AS closed"
)
PLAYER_COLUMNS = "id, name, created_at, retired_at IS NOT NULL AS retired"

#: Points by place when a league names none: first 10, second 6, third 3, fourth 1.
DEFAULT_POINTS = [10, 6, 3, 1]


def _update(
    conn: psycopg.Connection,
    table: str,
    columns: str,
    row_id: UUID,
    club_id: UUID,
    values: dict[str, Any],
    stamps: dict[str, Any],
) -> dict[str, Any] | None:
    """Update one row of the club's ``table``: each of ``values`` set as given,
    each of ``stamps`` (a column holding when something was done: retired,
    closed) set to now when true (kept if already set) and cleared when false."""
    sets = [sql.SQL("{} = %s").format(sql.Identifier(name)) for name in values]
    sets += [
        sql.SQL("{0} = CASE WHEN %s THEN coalesce({0}, now()) END").format(sql.Identifier(c)) for c in stamps
    ]
    query = sql.SQL("UPDATE {} SET {} WHERE id = %s AND club_id = %s RETURNING {}").format(
        sql.Identifier(table), sql.SQL(", ").join(sets or [sql.SQL("name = name")]), sql.SQL(columns)
    )
    params = (*values.values(), *(bool(flag) for flag in stamps.values()), row_id, club_id)
    return conn.execute(query, params).fetchone()


def create_club(records: Records, name: str) -> dict[str, Any]:
    """A new club and its admin token (shown only once)."""
    name = names.name(name)
    with records.pool.connection() as conn, conn.transaction():
        return insert_club(conn, uuid.uuid4(), name)


def insert_club(conn: psycopg.Connection, club_id: UUID, name: str) -> dict[str, Any]:
    """``create_club`` in the caller's transaction, under ``club_id``."""
    token, digest = access.new_token("admin")
    row = conn.execute(
        "INSERT INTO clubs (id, name) VALUES (%s, %s) RETURNING id, name, created_at", (club_id, name)
    ).fetchone()
    conn.execute("INSERT INTO tokens (hash, club_id, kind) VALUES (%s, %s, 'admin')", (digest, club_id))
    return {**row, "admin_token": token}


def insert_players(
    conn: psycopg.Connection, club_id: UUID, names: dict[str, str], moments: dict[str, tuple] | None = None
) -> None:
    """Players (id -> name) of a club made in the caller's transaction (a
    restore); ``moments``: when each was added and retired (id -> (added,
    retired); added None: now)."""
    moments = moments or {}
    added = [moments.get(i, (None, None))[0] for i in names]
    retired = [moments.get(i, (None, None))[1] for i in names]
    conn.execute(
        "INSERT INTO players (id, club_id, name, created_at, retired_at)"
        " SELECT id, %s, name, coalesce(added, now()), retired"
        " FROM unnest(%s::uuid[], %s::text[], %s::timestamptz[], %s::timestamptz[]) AS p(id, name, added, retired)",
        (club_id, list(names), list(names.values()), added, retired),
    )


def insert_leagues(conn: psycopg.Connection, club_id: UUID, leagues: dict[UUID, dict[str, Any]]) -> None:
    """Leagues (id -> ``LeagueCreate`` fields, and ``created_at`` and
    ``closed_at``: when it was made and closed) of a club made in the
    caller's transaction (a restore)."""
    with conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO leagues"
            " (id, club_id, name, engine, season, points_table, min_games, public, created_at, closed_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, coalesce(%s, now()), %s)",
            [
                (
                    league_id,
                    club_id,
                    spec["name"],
                    spec["engine"],
                    spec["season"],
                    Jsonb(spec["points_table"] if spec["points_table"] is not None else DEFAULT_POINTS),
                    spec["min_games"],
                    spec["public"],
                    spec.get("created_at"),
                    spec.get("closed_at"),
                )
                for league_id, spec in leagues.items()
            ],
        )


def get_club(records: Records, club_id: UUID, principal: Principal | None) -> dict[str, Any]:
    access.club_member(principal, club_id)
    with records.pool.connection() as conn:
        return conn.execute("SELECT id, name, created_at FROM clubs WHERE id = %s", (club_id,)).fetchone()


def add_player(records: Records, club_id: UUID, principal: Principal | None, name: str) -> dict[str, Any]:
    access.club_admin(principal, club_id, app_scope="players")
    name = names.name(name)
    try:
        with records.pool.connection() as conn, conn.transaction():
            return conn.execute(
                f"INSERT INTO players (id, club_id, name) VALUES (%s, %s, %s) RETURNING {PLAYER_COLUMNS}",
                (uuid.uuid4(), club_id, name),
            ).fetchone()
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict("player-exists", "The club already has a player of that name.") from exc


def players(records: Records, club_id: UUID, principal: Principal | None) -> list[dict[str, Any]]:
    """The club's players, retired ones included (marked so); a player merged
    into another (``merges``) is no longer one of them."""
    access.club_member(principal, club_id)
    with records.pool.connection() as conn:
        return conn.execute(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE club_id = %s"
            " AND NOT EXISTS (SELECT 1 FROM player_merges m WHERE m.merged_id = players.id) ORDER BY name",
            (club_id,),
        ).fetchall()


def update_player(
    records: Records, club_id: UUID, player_id: UUID, principal: Principal | None, changes: dict[str, Any]
) -> dict[str, Any]:
    """Rename a player, or retire them (``retired``: true; false brings them
    back). A retired player keeps every past game and figure but is not
    offered for, nor seated in, new games."""
    access.club_admin(principal, club_id, app_scope="players")
    values = names.names_in({name: changes[name] for name in ("name",) if name in changes})
    stamps = {"retired_at": changes["retired"]} if "retired" in changes else {}
    try:
        with records.pool.connection() as conn, conn.transaction():
            row = _update(conn, "players", PLAYER_COLUMNS, player_id, club_id, values, stamps)
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict("player-exists", "The club already has a player of that name.") from exc
    if row is None:
        raise NotFound("player")
    return row


def create_league(
    records: Records, club_id: UUID, principal: Principal | None, spec: dict[str, Any]
) -> dict[str, Any]:
    """A league of the club; its points table gives points by place."""
    access.club_admin(principal, club_id, app_scope="players")
    spec = names.names_in(spec)
    points = spec["points_table"] if spec["points_table"] is not None else DEFAULT_POINTS
    try:
        with records.pool.connection() as conn, conn.transaction():
            return conn.execute(
                f"INSERT INTO leagues (id, club_id, name, engine, season, points_table, min_games, public)"
                f" VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING {LEAGUE_COLUMNS}",
                (
                    uuid.uuid4(),
                    club_id,
                    spec["name"],
                    spec["engine"],
                    spec["season"],
                    Jsonb(points),
                    spec["min_games"],
                    spec["public"],
                ),
            ).fetchone()
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict("league-exists", "The club already has a league of that name and season.") from exc


#: What ``update_league`` may change, and the column each is kept in.
LEAGUE_EDITS = ("name", "season", "points_table", "min_games", "public")


def update_league(
    records: Records, club_id: UUID, league_id: UUID, principal: Principal | None, changes: dict[str, Any]
) -> dict[str, Any]:
    """Edit a league (name, season, points table, games to be ranked, public),
    or close its season (``closed``: true): a closed league takes no new games
    and keeps its standings. Its game never changes (its games would not fit),
    and its ranking settings (points table, games to be ranked) only until its
    first game: the standings already computed were ranked by them."""
    access.club_admin(principal, club_id, app_scope="players")
    ranking = {"points_table", "min_games"} & changes.keys()
    values = names.names_in({name: changes[name] for name in LEAGUE_EDITS if name in changes})
    if "points_table" in values:
        values["points_table"] = Jsonb(
            values["points_table"] if values["points_table"] is not None else DEFAULT_POINTS
        )
    stamps = {"closed_at": changes["closed"]} if "closed" in changes else {}
    try:
        with records.pool.connection() as conn, conn.transaction():
            if (
                ranking
                and conn.execute("SELECT 1 FROM games WHERE league_id = %s LIMIT 1", (league_id,)).fetchone()
            ):
                raise Conflict(
                    "league-has-games",
                    "The points and the games needed to be ranked can change only before the league's first game.",
                )
            row = _update(conn, "leagues", LEAGUE_COLUMNS, league_id, club_id, values, stamps)
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict("league-exists", "The club already has a league of that name and season.") from exc
    if row is None:
        raise NotFound("league")
    return row


def leagues(records: Records, club_id: UUID, principal: Principal | None) -> list[dict[str, Any]]:
    access.club_member(principal, club_id)
    with records.pool.connection() as conn:
        return conn.execute(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE club_id = %s ORDER BY created_at", (club_id,)
        ).fetchall()
