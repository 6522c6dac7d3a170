"""A game night's stream in PostgreSQL.

Kept as a tournament's is: append-only (the database refuses UPDATE, DELETE
and TRUNCATE), numbered 1, 2, 3 … with no gaps, its writers ordered by the
night's row lock.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import orjson
import psycopg

from service.records.errors import NotFound
from service.records.log import store

#: The most events one night holds: a read folds them all.
MOST_EVENTS = 2_000

#: The most nights a club's list shows (the newest first).
MOST_LISTED = 100


def insert(
    conn: psycopg.Connection,
    night_id: UUID,
    club_id: UUID,
    day: dt.date,
    created_at: dt.datetime | None = None,
) -> None:
    """A new night's row (``created_at``: when a restored one was posted; None: now)."""
    conn.execute(
        "INSERT INTO game_nights (id, club_id, day, created_at) VALUES (%s, %s, %s, coalesce(%s, now()))",
        (night_id, club_id, day, created_at),
    )


def lock(conn: psycopg.Connection, night_id: UUID) -> dict[str, Any]:
    """The night's row, locked until the transaction ends (its one writer)."""
    row = conn.execute(
        "SELECT id, club_id, version FROM game_nights WHERE id = %s FOR UPDATE", (night_id,)
    ).fetchone()
    if row is None:
        raise NotFound("game night")
    return row


def club_of(conn: psycopg.Connection, night_id: UUID) -> UUID:
    row = conn.execute("SELECT club_id FROM game_nights WHERE id = %s", (night_id,)).fetchone()
    if row is None:
        raise NotFound("game night")
    return row["club_id"]


def append(
    conn: psycopg.Connection,
    night_id: UUID,
    club_id: UUID,
    after_version: int,
    events: Sequence[tuple[str, dict[str, Any]]],
    metadata: dict[str, Any],
) -> int:
    """Append ``events`` (type, data) after ``after_version`` in the caller's
    transaction, which holds the night's row; returns the new version."""
    version = after_version
    for event_type, data in events:
        version += 1
        conn.execute(
            "INSERT INTO game_night_events (night_id, club_id, version, type, data, metadata)"
            " VALUES (%s, %s, %s, %s, %s::jsonb, %s::jsonb)",
            (
                night_id,
                club_id,
                version,
                event_type,
                store.event_json(data).decode(),
                store.event_json(metadata).decode(),
            ),
        )
    conn.execute("UPDATE game_nights SET version = %s WHERE id = %s", (version, night_id))
    return version


def read(conn: psycopg.Connection, night_id: UUID) -> list[tuple[str, dict[str, Any]]]:
    """The night's events (type, data), in order."""
    rows = conn.execute(
        "SELECT type, data::text AS data FROM game_night_events WHERE night_id = %s ORDER BY version",
        (night_id,),
    ).fetchall()
    return [(r["type"], orjson.loads(r["data"])) for r in rows]


def of_club(conn: psycopg.Connection, club_id: UUID) -> list[UUID]:
    """The club's nights, the latest day first."""
    rows = conn.execute(
        "SELECT id FROM game_nights WHERE club_id = %s ORDER BY day DESC, created_at DESC, id LIMIT %s",
        (club_id, MOST_LISTED),
    ).fetchall()
    return [r["id"] for r in rows]


def every_of_club(conn: psycopg.Connection, club_id: UUID) -> list[dict[str, Any]]:
    """Every night of the club (its id and when it was posted), the earliest day first (a backup's order)."""
    return conn.execute(
        "SELECT id, created_at FROM game_nights WHERE club_id = %s ORDER BY day, created_at, id", (club_id,)
    ).fetchall()


def ratings(conn: psycopg.Connection, club_id: UUID, players: Sequence[str]) -> dict[str, float]:
    """Each player's best rating in the club's leagues (those who have one)."""
    if not players:
        return {}
    rows = conn.execute(
        "SELECT s.player_id, max(s.rating) AS rating FROM standings s JOIN leagues l ON l.id = s.league_id"
        " WHERE l.club_id = %s AND s.games > 0 AND s.player_id = ANY(%s) GROUP BY s.player_id",
        (club_id, [UUID(p) for p in players]),
    ).fetchall()
    return {str(r["player_id"]): float(r["rating"]) for r in rows}


def newcomers(conn: psycopg.Connection, club_id: UUID, players: Sequence[str]) -> frozenset[str]:
    """The players who have finished no game of the club yet."""
    if not players:
        return frozenset()
    rows = conn.execute(
        "SELECT DISTINCT seat FROM games g, jsonb_array_elements_text(g.seats) AS seat"
        " WHERE g.club_id = %s AND g.status = 'finished' AND g.seats ?| %s::text[] AND seat = ANY(%s)",
        (club_id, list(players), list(players)),
    ).fetchall()
    return frozenset(players) - {str(r["seat"]) for r in rows}
