"""Clubs (the tenant), their players and their leagues."""

from __future__ import annotations

import uuid
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from service.records import access
from service.records.access import Principal
from service.records.context import Records
from service.records.errors import Conflict
from service.records.league import DEFAULT_POINTS

LEAGUE_COLUMNS = "id, name, engine, season, points_table, min_games, public, created_at"


def create_club(records: Records, name: str) -> dict[str, Any]:
    """A new club and its admin token (shown only once)."""
    club_id = uuid.uuid4()
    token, digest = access.new_token("admin")
    with records.pool.connection() as conn, conn.transaction():
        row = conn.execute(
            "INSERT INTO clubs (id, name) VALUES (%s, %s) RETURNING id, name, created_at", (club_id, name)
        ).fetchone()
        conn.execute("INSERT INTO tokens (hash, club_id, kind) VALUES (%s, %s, 'admin')", (digest, club_id))
    return {**row, "admin_token": token}


def get_club(records: Records, club_id: UUID, principal: Principal | None) -> dict[str, Any]:
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        return conn.execute("SELECT id, name, created_at FROM clubs WHERE id = %s", (club_id,)).fetchone()


def add_player(records: Records, club_id: UUID, principal: Principal | None, name: str) -> dict[str, Any]:
    access.club_admin(principal, club_id)
    try:
        with records.pool.connection() as conn, conn.transaction():
            return conn.execute(
                "INSERT INTO players (id, club_id, name) VALUES (%s, %s, %s) RETURNING id, name, created_at",
                (uuid.uuid4(), club_id, name),
            ).fetchone()
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict("player-exists", "The club already has a player of that name.") from exc


def players(records: Records, club_id: UUID, principal: Principal | None) -> list[dict[str, Any]]:
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        return conn.execute(
            "SELECT id, name, created_at FROM players WHERE club_id = %s ORDER BY name", (club_id,)
        ).fetchall()


def create_league(
    records: Records, club_id: UUID, principal: Principal | None, spec: dict[str, Any]
) -> dict[str, Any]:
    """A league of the club; its points table gives points by place."""
    access.club_admin(principal, club_id)
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


def leagues(records: Records, club_id: UUID, principal: Principal | None) -> list[dict[str, Any]]:
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        return conn.execute(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE club_id = %s ORDER BY created_at", (club_id,)
        ).fetchall()
