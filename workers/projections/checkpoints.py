"""The projections' bookkeeping, written in the same transaction as their rows:
the checkpoint (the last log position applied), the games a projection could
not apply, and the advisory lock that keeps one runner per projection."""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from uuid import UUID

import psycopg


def lock_key(schema: str, projection: str) -> int:
    """The advisory lock key of a projection in a schema (stable across processes)."""
    return zlib.crc32(f"tablerecord:projection:{schema}:{projection}".encode())


def try_lock(conn: psycopg.Connection, key: int) -> bool:
    """Take the transaction-scoped lock ``key`` if no one holds it."""
    return conn.execute("SELECT pg_try_advisory_xact_lock(%s) AS got", (key,)).fetchone()["got"]


def lock(conn: psycopg.Connection, key: int) -> None:
    """Take the transaction-scoped lock ``key``, waiting for its holder."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (key,))


def main_schema(conn: psycopg.Connection) -> str:
    return conn.execute("SELECT current_schema() AS s").fetchone()["s"]


def checkpoint(conn: psycopg.Connection, projection: str) -> int:
    row = conn.execute(
        "SELECT position FROM projection_checkpoints WHERE projection = %s", (projection,)
    ).fetchone()
    if row is None:
        conn.execute(
            "INSERT INTO projection_checkpoints (projection) VALUES (%s) ON CONFLICT DO NOTHING",
            (projection,),
        )
        return 0
    return int(row["position"])


def advance(conn: psycopg.Connection, projection: str, position: int) -> None:
    updated = conn.execute(
        "UPDATE projection_checkpoints SET position = %s, updated_at = now()"
        " WHERE projection = %s AND position <= %s",
        (position, projection, position),
    ).rowcount
    if updated != 1:
        raise RuntimeError(f"checkpoint of {projection} would go backwards to {position}")


def positions(conn: psycopg.Connection) -> dict[str, int]:
    """Every projection's checkpoint."""
    rows = conn.execute(
        "SELECT projection, position FROM projection_checkpoints ORDER BY projection"
    ).fetchall()
    return {r["projection"]: int(r["position"]) for r in rows}


def broken_games(conn: psycopg.Connection, projection: str, game_ids: Iterable[UUID]) -> set[UUID]:
    """Those of ``game_ids`` whose events ``projection`` has stopped applying."""
    rows = conn.execute(
        "SELECT game_id FROM projection_errors WHERE projection = %s AND game_id = ANY(%s)",
        (projection, list(game_ids)),
    ).fetchall()
    return {r["game_id"] for r in rows}


def record_error(
    conn: psycopg.Connection, projection: str, game_id: UUID, position: int, event_type: str, detail: str
) -> None:
    """The first event of a game that ``projection`` could not apply (later ones are not kept)."""
    conn.execute(
        "INSERT INTO projection_errors (projection, game_id, position, event_type, error)"
        " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (projection, game_id) DO NOTHING",
        (projection, game_id, position, event_type, detail),
    )
