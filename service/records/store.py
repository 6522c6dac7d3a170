"""The event store: append-only events in Postgres, read by game or by position.

Appends are serialised by one transaction-scoped advisory lock taken just
before positions are drawn, so a transaction that draws a higher position
always commits after every lower one: a reader that asks for
``position > checkpoint`` never skips an event that commits late, and gaps
left by rolled-back transactions are simply never filled. The cost is that
the insert-and-commit step of all games is serialised (see
docs/architecture.md); deciding an action is not.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

APPEND_LOCK = 7_302_002


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: dict[str, Any]
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredEvent:
    position: int
    game_id: UUID
    version: int
    type: str
    data: dict[str, Any]
    metadata: dict[str, Any]
    recorded_at: datetime


COLUMNS = "position, game_id, version, type, data, metadata, recorded_at"

INSERT = f"""
INSERT INTO events (position, game_id, version, type, data, metadata)
VALUES (nextval('events_position_seq'), %s, %s, %s, %s, %s)
RETURNING {COLUMNS}
"""


def append(
    conn: psycopg.Connection, game_id: UUID, after_version: int, events: Sequence[NewEvent]
) -> list[StoredEvent]:
    """Append ``events`` as versions ``after_version + 1 ...`` in the caller's
    transaction. The caller holds the game's row lock, so ``after_version`` is
    the stream's current version; ``UNIQUE (game_id, version)`` backs it up."""
    if not events:
        return []
    params = [
        (game_id, after_version + i, e.type, Jsonb(e.data), Jsonb(e.metadata))
        for i, e in enumerate(events, start=1)
    ]
    stored = []
    # One round trip: the lock and the inserts are pipelined.
    with conn.cursor() as cur:
        with conn.pipeline():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (APPEND_LOCK,))
            cur.executemany(INSERT, params, returning=True)
        while True:
            stored.append(_event(cur.fetchone()))
            if not cur.nextset():
                break
    return stored


def read_stream(
    conn: psycopg.Connection,
    game_id: UUID,
    after_version: int = 0,
    limit: int | None = None,
    to_version: int | None = None,
) -> list[StoredEvent]:
    """A game's events after ``after_version`` (up to ``to_version``), in order."""
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM events WHERE game_id = %s AND version > %s"
        " AND (%s::integer IS NULL OR version <= %s) ORDER BY version LIMIT %s",
        (game_id, after_version, to_version, to_version, limit),
    ).fetchall()
    return [_event(r) for r in rows]


def read_all(
    conn: psycopg.Connection,
    after_position: int = 0,
    limit: int = 1000,
    types: Iterable[str] | None = None,
    to_position: int | None = None,
) -> list[StoredEvent]:
    """Events of every game in position order, from ``after_position`` on
    (only of ``types`` and up to ``to_position`` when given)."""
    where, params = "position > %s", [after_position]
    if to_position is not None:
        where, params = where + " AND position <= %s", [*params, to_position]
    if types is not None:
        where, params = where + " AND type = ANY(%s)", [*params, list(types)]
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM events WHERE {where} ORDER BY position LIMIT %s", [*params, limit]
    ).fetchall()
    return [_event(r) for r in rows]


def read_streams(
    conn: psycopg.Connection, game_ids: Sequence[UUID], to_position: int
) -> dict[UUID, list[StoredEvent]]:
    """The streams of ``game_ids`` up to ``to_position``, each in version order."""
    streams: dict[UUID, list[StoredEvent]] = {game_id: [] for game_id in game_ids}
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM events WHERE game_id = ANY(%s) AND position <= %s ORDER BY game_id, version",
        (list(game_ids), to_position),
    )
    for row in rows:
        streams[row["game_id"]].append(_event(row))
    return streams


def first_position(conn: psycopg.Connection, game_id: UUID) -> int:
    """The position of the game's first event (0: none yet)."""
    row = conn.execute("SELECT min(position) AS p FROM events WHERE game_id = %s", (game_id,)).fetchone()
    return int(row["p"] or 0)


def read_club(
    conn: psycopg.Connection, club_id: UUID, after_position: int = 0, limit: int = 1000
) -> list[StoredEvent]:
    """Events of one club's games in position order, from ``after_position`` on
    (the same no-skip guarantee as ``read_all``)."""
    rows = conn.execute(
        f"SELECT {', '.join('e.' + c.strip() for c in COLUMNS.split(','))} FROM events e"
        " JOIN games g ON g.id = e.game_id WHERE g.club_id = %s AND e.position > %s"
        " ORDER BY e.position LIMIT %s",
        (club_id, after_position, limit),
    ).fetchall()
    return [_event(r) for r in rows]


def iter_all(conn: psycopg.Connection, after_position: int = 0, batch: int = 1000) -> Iterator[StoredEvent]:
    while True:
        page = read_all(conn, after_position, batch)
        yield from page
        if len(page) < batch:
            return
        after_position = page[-1].position


def head_position(conn: psycopg.Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(position), 0) AS head FROM events").fetchone()["head"])


def latest_snapshot(
    conn: psycopg.Connection, game_id: UUID, engine_version: str, at_most: int
) -> tuple[int, Any] | None:
    row = conn.execute(
        "SELECT version, state FROM snapshots WHERE game_id = %s AND engine_version = %s AND version <= %s"
        " ORDER BY version DESC LIMIT 1",
        (game_id, engine_version, at_most),
    ).fetchone()
    if row is None:
        return None
    return int(row["version"]), row["state"]


def save_snapshot(
    conn: psycopg.Connection, game_id: UUID, engine_version: str, version: int, state: Any
) -> None:
    conn.execute(
        "INSERT INTO snapshots (game_id, engine_version, version, state) VALUES (%s, %s, %s, %s)"
        " ON CONFLICT (game_id, engine_version, version) DO UPDATE SET state = EXCLUDED.state",
        (game_id, engine_version, version, Jsonb(state)),
    )


def drop_snapshots_after(conn: psycopg.Connection, game_id: UUID, version: int) -> None:
    """Snapshots are a cache: after a retraction, those past its target no
    longer describe the game's live line and are dropped."""
    conn.execute("DELETE FROM snapshots WHERE game_id = %s AND version > %s", (game_id, version))


def _event(row: dict[str, Any]) -> StoredEvent:
    return StoredEvent(**row)


def to_json(events: Iterable[StoredEvent]) -> list[dict[str, Any]]:
    return [
        {
            "position": e.position,
            "version": e.version,
            "type": e.type,
            "data": e.data,
            "metadata": e.metadata,
            "recorded_at": e.recorded_at.isoformat(),
        }
        for e in events
    ]
