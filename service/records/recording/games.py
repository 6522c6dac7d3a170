"""The game record: its row, its configuration and the club's players' names."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

import psycopg

from engines.base import GameConfig
from service.records.club import catalogs
from service.records.errors import NotFound
from service.records.game_record import Game

COLUMNS = (
    "id, club_id, league_id, engine, seats, options, dealer, seed, public,"
    " catalog_kind, catalog_id, catalog_version, status, version, catalog_club_id, admin_spectator"
)


def from_row(row: dict[str, Any]) -> Game:
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
        row["catalog_club_id"],
        row["admin_spectator"],
    )


def get_game(conn: psycopg.Connection, game_id: UUID, lock: bool = False) -> Game:
    sql = f"SELECT {COLUMNS} FROM games WHERE id = %s" + (" FOR UPDATE" if lock else "")
    row = conn.execute(sql, (game_id,)).fetchone()
    if row is None:
        raise NotFound("game")
    return from_row(row)


def games_by_id(conn: psycopg.Connection, ids: Iterable[UUID]) -> dict[UUID, Game]:
    rows = conn.execute(f"SELECT {COLUMNS} FROM games WHERE id = ANY(%s)", (list(ids),)).fetchall()
    return {r["id"]: from_row(r) for r in rows}


def club_games(
    conn: psycopg.Connection, club_id: UUID, limit: int = 500, after: UUID | None = None
) -> list[Game]:
    """The club's games, newest first (ties by id): at most ``limit`` of
    them, from the one after the game ``after`` on."""
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM games WHERE club_id = %s"
        " AND (%s::uuid IS NULL OR (created_at, id) < (SELECT created_at, id FROM games"
        " WHERE club_id = %s AND id = %s))"
        " ORDER BY created_at DESC, id DESC LIMIT %s",
        (club_id, after, club_id, after, limit),
    ).fetchall()
    return [from_row(r) for r in rows]


def engine_config(
    conn: psycopg.Connection, seats: int, options: dict[str, Any], dealer: str, catalog: dict | None
) -> GameConfig:
    """A game's configuration; ``catalog`` names a stored catalog version (kind,
    id, version, and its owning club; a game recorded before catalogs had
    owners names no club, see ``catalogs.load``)."""
    content = (
        catalogs.load(
            conn,
            catalog["kind"],
            catalog["id"],
            int(catalog["version"]),
            catalog.get("club", catalogs.RECORDED_BEFORE_OWNERS),
        )
        if catalog
        else None
    )
    return GameConfig(seats=seats, options=options or {}, dealer=dealer, catalog=content)


def config_of(conn: psycopg.Connection, game: Game) -> GameConfig:
    return engine_config(conn, len(game.seats), game.options, game.dealer, game.catalog_ref)


def player_names(conn: psycopg.Connection, ids: Iterable[Any], club_id: UUID | None = None) -> dict[str, str]:
    """Players' names by id (as text), of one club's players when ``club_id`` is
    given; the one query for names everywhere."""
    ids = [UUID(str(i)) for i in ids]
    if not ids:
        return {}
    rows = conn.execute(
        "SELECT id, name FROM players WHERE id = ANY(%s) AND (%s::uuid IS NULL OR club_id = %s)",
        (ids, club_id, club_id),
    ).fetchall()
    return {str(r["id"]): r["name"] for r in rows}
