"""Deliveries of the workers' messages, counted so that a message whose worker
keeps dying under it is set aside instead of looping for ever (the API shows
those set aside, see ``projection_state.freshness``)."""

from __future__ import annotations

import psycopg
from psycopg.types.json import Jsonb


def record(conn: psycopg.Connection, task_id: str, name: str, args: list, kwargs: dict) -> int:
    """One more delivery of ``task_id``; returns how many there have been."""
    row = conn.execute(
        "INSERT INTO task_deliveries (task_id, task_name, args, deliveries) VALUES (%s, %s, %s, 1)"
        " ON CONFLICT (task_id) DO UPDATE SET deliveries = task_deliveries.deliveries + 1, last_seen = now()"
        " RETURNING deliveries",
        (task_id, name, Jsonb({"args": list(args), "kwargs": kwargs})),
    ).fetchone()
    return int(row["deliveries"])


def set_aside(conn: psycopg.Connection, task_id: str, reason: str) -> None:
    conn.execute(
        "UPDATE task_deliveries SET set_aside_at = now(), reason = %s WHERE task_id = %s", (reason, task_id)
    )


def done(conn: psycopg.Connection, task_id: str) -> None:
    conn.execute("DELETE FROM task_deliveries WHERE task_id = %s AND set_aside_at IS NULL", (task_id,))


def forget_stale(conn: psycopg.Connection) -> None:
    """Counts of messages not seen for a day (never set aside) are dropped."""
    conn.execute(
        "DELETE FROM task_deliveries WHERE set_aside_at IS NULL AND last_seen < now() - interval '1 day'"
    )
