"""A tournament's stream in PostgreSQL, and what its tables' games say.

A tournament's events are kept as the games' are: append-only (the database
refuses UPDATE, DELETE and TRUNCATE), numbered 1, 2, 3 … with no gaps, its
writers ordered by its row's lock. Its tables' games are the club's games;
how each stands is read from their own rows and ``GameEnded`` events.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

import orjson
import psycopg

from service.records.competitions.tournaments import ABANDONED, Outcomes
from service.records.errors import Invalid, NotFound
from service.records.log import fold, store

#: The most events one tournament holds: a read folds them all.
MOST_EVENTS = 2_000


def insert(
    conn: psycopg.Connection, tournament_id: UUID, club_id: UUID, created_at: dt.datetime | None = None
) -> None:
    """A new tournament's row (``created_at``: when a restored one was made; None: now)."""
    conn.execute(
        "INSERT INTO tournaments (id, club_id, created_at) VALUES (%s, %s, coalesce(%s, now()))",
        (tournament_id, club_id, created_at),
    )


def lock(conn: psycopg.Connection, tournament_id: UUID) -> dict[str, Any]:
    """The tournament's row, locked until the transaction ends (its one writer)."""
    row = conn.execute(
        "SELECT id, club_id, version FROM tournaments WHERE id = %s FOR UPDATE", (tournament_id,)
    ).fetchone()
    if row is None:
        raise NotFound("tournament")
    return row


def club_of(conn: psycopg.Connection, tournament_id: UUID) -> UUID:
    row = conn.execute("SELECT club_id FROM tournaments WHERE id = %s", (tournament_id,)).fetchone()
    if row is None:
        raise NotFound("tournament")
    return row["club_id"]


def append(
    conn: psycopg.Connection,
    tournament_id: UUID,
    club_id: UUID,
    after_version: int,
    events: Sequence[tuple[str, dict[str, Any]]],
    metadata: dict[str, Any],
) -> int:
    """Append ``events`` (type, data) after ``after_version`` in the caller's
    transaction, which holds the tournament's row; returns the new version."""
    version = after_version
    for event_type, data in events:
        version += 1
        conn.execute(
            "INSERT INTO tournament_events (tournament_id, club_id, version, type, data, metadata)"
            " VALUES (%s, %s, %s, %s, %s::jsonb, %s::jsonb)",
            (
                tournament_id,
                club_id,
                version,
                event_type,
                store.event_json(data).decode(),
                store.event_json(metadata).decode(),
            ),
        )
    conn.execute("UPDATE tournaments SET version = %s WHERE id = %s", (version, tournament_id))
    return version


def read(conn: psycopg.Connection, tournament_id: UUID) -> list[tuple[str, dict[str, Any]]]:
    """The tournament's events (type, data), in order."""
    rows = conn.execute(
        "SELECT type, data::text AS data FROM tournament_events WHERE tournament_id = %s ORDER BY version",
        (tournament_id,),
    ).fetchall()
    return [(r["type"], orjson.loads(r["data"])) for r in rows]


def of_club(conn: psycopg.Connection, club_id: UUID) -> list[UUID]:
    """The club's tournaments, newest first."""
    rows = conn.execute(
        "SELECT id FROM tournaments WHERE club_id = %s ORDER BY created_at DESC, id", (club_id,)
    ).fetchall()
    return [r["id"] for r in rows]


def every_of_club(conn: psycopg.Connection, club_id: UUID) -> list[dict[str, Any]]:
    """Every tournament of the club (its id and when it was made), the oldest first (a backup's order)."""
    return conn.execute(
        "SELECT id, created_at FROM tournaments WHERE club_id = %s ORDER BY created_at, id", (club_id,)
    ).fetchall()


def check_players(conn: psycopg.Connection, club_id: UUID, players: Sequence[str]) -> None:
    """Every one a player of the club, none retired."""
    rows = conn.execute(
        "SELECT id, retired_at IS NOT NULL AS retired FROM players WHERE club_id = %s AND id = ANY(%s::uuid[])",
        (club_id, list(players)),
    ).fetchall()
    if len(rows) != len(set(players)):
        raise Invalid("unknown-player", "Every player entered must be a player of this club.")
    if any(r["retired"] for r in rows):
        raise Invalid("retired-player", "A retired player is not entered in new tournaments.")


def outcomes(conn: psycopg.Connection, game_ids: Iterable[str]) -> Outcomes:
    """How each game stands: its places by player once it has ended, None while
    it is played, ``ABANDONED`` when it never will end (abandoned, or its
    logged result retracted)."""
    ids = [UUID(g) for g in game_ids]
    if not ids:
        return {}
    rows = conn.execute(
        "SELECT g.id, g.status, g.seats, e.data::text AS ended FROM games g"
        " LEFT JOIN LATERAL (SELECT data FROM events WHERE game_id = g.id AND type = %s"
        "  ORDER BY version DESC LIMIT 1) e ON g.status = 'finished'"
        " WHERE g.id = ANY(%s)",
        (fold.GAME_ENDED, ids),
    ).fetchall()
    found: dict[str, Any] = {}
    for r in rows:
        if r["status"] == "abandoned":
            found[str(r["id"])] = ABANDONED
        elif r["status"] == "finished" and r["ended"] is not None:
            places = orjson.loads(r["ended"])["places"]
            found[str(r["id"])] = {str(p): int(place) for p, place in zip(r["seats"], places, strict=True)}
        else:
            found[str(r["id"])] = None
    return found


def ratings(conn: psycopg.Connection, league_id: str, players: Sequence[str]) -> dict[str, float]:
    """The players' ratings in a league (those who have one), from its standings."""
    rows = conn.execute(
        "SELECT player_id, rating FROM standings WHERE league_id = %s AND player_id = ANY(%s)",
        (UUID(league_id), [UUID(p) for p in players]),
    ).fetchall()
    return {str(r["player_id"]): float(r["rating"]) for r in rows}
