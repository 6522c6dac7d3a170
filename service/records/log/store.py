"""The event store: append-only events in Postgres, read by game, by club or by position.

Appends of different games commit in parallel, and a reader that asks for
``position > checkpoint`` still never skips an event that commits late. A
position is the appending transaction's id (``xid8``) times 2^20 plus the
event's ordinal in that transaction, and readers read only below
``events_horizon()``: the id of the oldest transaction still in progress,
times 2^20. Every transaction below it has settled (its events are all
visible, or it rolled back and left a gap no one will fill), and every
transaction that has yet to write gets a larger id: nothing can ever appear
below the horizon again. The cost is that readers lag behind the oldest
open writing transaction, which the session timeouts bound (see
docs/architecture.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
import psycopg
from psycopg.types.json import Jsonb


def event_json(value: Any) -> bytes:
    """``value`` as the JSON the store keeps, written by orjson (several times
    faster than the standard library's): keys become strings as there, and
    NaN and the infinities, which jsonb cannot hold, become null."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


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


#: An event's data and metadata are read as text and parsed by orjson, which
#: wrote them (``event_json``): a replay reads a game's every event, and the
#: standard library's parser took two thirds of that time.
COLUMNS = "position, game_id, version, type, data::text AS data, metadata::text AS metadata, recorded_at"

# One statement: move the game's version from the one the events were decided
# at (or fail whole: ``games_advance``), claim positions, insert every event.
APPEND = """
WITH moved AS (SELECT games_advance(%(game)s, %(after)s, %(n)s, %(status)s)),
first AS (SELECT events_claim_positions(%(n)s) AS position FROM moved),
appended AS (
    INSERT INTO events (position, club_id, game_id, version, type, data, metadata)
    SELECT first.position + e.i - 1, %(club)s, %(game)s, %(after)s + e.i, e.event->>0, e.event->1, e.event->2
    FROM first, jsonb_array_elements(%(events)s::jsonb) WITH ORDINALITY AS e(event, i)
    RETURNING position, recorded_at
)
SELECT position, recorded_at FROM appended ORDER BY position
"""


class Appended(Sequence[StoredEvent]):
    """The events of one append, read from its statement's result when first
    used: in pipeline mode, after the commit that travelled with it."""

    def __init__(
        self,
        cursor: psycopg.Cursor | None,
        game_id: UUID,
        after: int,
        events: Sequence[NewEvent],
    ):
        self._cursor, self._game_id, self._after, self._new = cursor, game_id, after, events
        self._stored: list[StoredEvent] | None = None if cursor else []

    def _events(self) -> list[StoredEvent]:
        if self._stored is None:
            rows = self._cursor.fetchall()
            self._stored = [
                StoredEvent(
                    r["position"],
                    self._game_id,
                    self._after + i,
                    e.type,
                    e.data,
                    e.metadata,
                    r["recorded_at"],
                )
                for i, (e, r) in enumerate(zip(self._new, rows, strict=True), start=1)
            ]
        return self._stored

    def __getitem__(self, index):
        return self._events()[index]

    def __len__(self) -> int:
        return len(self._new)


def append(
    conn: psycopg.Connection,
    club_id: UUID,
    game_id: UUID,
    after_version: int,
    events: Sequence[NewEvent],
    status: str | None = None,
) -> Appended:
    """Append ``events`` as versions ``after_version + 1 ...`` in the caller's
    transaction and move the game's version (and ``status``, when given) in
    the same statement. If the game is no longer at ``after_version`` the
    transaction fails with ``SerializationFailure`` (``errors.GameMoved``
    once the pool has mapped it) and nothing is stored; a caller holding the
    game's row lock never meets that. ``UNIQUE (game_id, version)`` backs it up."""
    if not events:
        return Appended(None, game_id, after_version, events)
    cursor = conn.execute(
        APPEND,
        {
            "n": len(events),
            "club": club_id,
            "game": game_id,
            "after": after_version,
            "status": status,
            # One JSON document for all the events: [[type, data, metadata], ...].
            "events": event_json([[e.type, e.data, e.metadata] for e in events]).decode(),
        },
    )
    return Appended(cursor, game_id, after_version, events)


#: Events per COPY statement of ``append_games``. A COPY is one command in
#: flight while Python writes its rows, and the pool's watchdog cuts a command
#: in flight past ``DB_WAIT_LIMIT``: small enough that, with the process busy
#: (other imports judging beside it), each one ends well within it.
COPY_ROWS = 5_000


@dataclass(frozen=True)
class GameAppend:
    """One game's share of ``append_games``: as ``append``'s arguments."""

    club_id: UUID
    game_id: UUID
    after_version: int
    events: Sequence[NewEvent]
    status: str | None = None


def append_games(conn: psycopg.Connection, appends: Sequence[GameAppend]) -> int:
    """``append`` for many games at once, in the caller's transaction: the
    positions are claimed in one call, the events COPYed in and every game's
    version (and status) moved in one statement. Returns the last position
    (0: nothing appended). The caller holds each game's row, as for ``append``."""
    total = sum(len(a.events) for a in appends)
    if not total:
        return 0
    first = conn.execute("SELECT events_claim_positions(%s) AS first", (total,)).fetchone()["first"]
    rows = _event_rows(first, appends)
    with conn.cursor() as cursor:
        # Several COPY statements for a long batch: each stays well within the wait limits.
        # Each chunk's rows (their JSON) are made before its COPY starts: the
        # database watchdog counts a COPY's whole time as waiting on the server.
        for _ in range(0, total, COPY_ROWS):
            chunk = list(itertools.islice(rows, COPY_ROWS))
            with cursor.copy(
                "COPY events (position, club_id, game_id, version, type, data, metadata) FROM STDIN"
            ) as copy:
                for row in chunk:
                    copy.write_row(row)
        cursor.execute(
            "UPDATE games SET version = moved.version, status = coalesce(moved.status, games.status)"
            " FROM unnest(%s::uuid[], %s::integer[], %s::text[]) AS moved(id, version, status)"
            " WHERE games.id = moved.id",
            (
                [a.game_id for a in appends],
                [a.after_version + len(a.events) for a in appends],
                [a.status for a in appends],
            ),
        )
    return first + total - 1


def _event_rows(position: int, appends: Sequence[GameAppend]) -> Iterator[tuple]:
    """The events of ``appends`` as rows of ``events``, from ``position`` on."""
    for a in appends:
        for version, event in enumerate(a.events, start=a.after_version + 1):
            yield (
                position,
                a.club_id,
                a.game_id,
                version,
                event.type,
                event_json(event.data).decode(),
                event_json(event.metadata).decode(),
            )
            position += 1


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
    """Settled events of every game in position order, from ``after_position``
    on (only of ``types`` and up to ``to_position`` when given)."""
    where, params = "position > %s AND position < events_horizon()", [after_position]
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
    row = conn.execute(
        "SELECT position FROM events WHERE game_id = %s ORDER BY version LIMIT 1", (game_id,)
    ).fetchone()
    return int(row["position"]) if row else 0


def read_club(
    conn: psycopg.Connection, club_id: UUID, after_position: int = 0, limit: int = 1000
) -> list[StoredEvent]:
    """Settled events of one club's games in position order, from
    ``after_position`` on (the same no-skip guarantee as ``read_all``): one
    range of the ``(club_id, position)`` index, whatever the log's size."""
    # Both bounds as row comparisons: only (club_id, position) can serve them,
    # so no plan (a generic one included) walks the log by position instead.
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM events WHERE club_id = %(club)s AND (club_id, position) > (%(club)s, %(after)s)"
        " AND (club_id, position) < (%(club)s, events_horizon()) ORDER BY club_id, position LIMIT %(limit)s",
        {"club": club_id, "after": after_position, "limit": limit},
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
    """The last settled position: every event at or before it is visible for good."""
    return int(
        conn.execute(
            "SELECT coalesce(max(position), 0) AS head FROM events WHERE position < events_horizon()"
        ).fetchone()["head"]
    )


def unsettled(conn: psycopg.Connection) -> bool:
    """Committed events wait above the horizon (for older transactions still open)."""
    return bool(
        conn.execute(
            "SELECT EXISTS (SELECT 1 FROM events WHERE position >= events_horizon()) AS waiting"
        ).fetchone()["waiting"]
    )


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


def copy_snapshots(conn: psycopg.Connection, snapshots: Sequence[tuple[UUID, str, int, Any]]) -> None:
    """Snapshots (game, engine version, version, state) of games stored in the
    caller's transaction (an import, a restore): none has a snapshot yet, so
    they are COPYed in."""
    with conn.cursor() as cursor:
        for start in range(0, len(snapshots), COPY_ROWS):
            chunk = [
                (game_id, engine_version, version, event_json(state).decode())
                for game_id, engine_version, version, state in snapshots[start : start + COPY_ROWS]
            ]
            with cursor.copy("COPY snapshots (game_id, engine_version, version, state) FROM STDIN") as copy:
                for row in chunk:
                    copy.write_row(row)


def drop_snapshots_after(conn: psycopg.Connection, game_id: UUID, version: int) -> None:
    """Snapshots are a cache: after a retraction, those past its target no
    longer describe the game's live line and are dropped."""
    conn.execute("DELETE FROM snapshots WHERE game_id = %s AND version > %s", (game_id, version))


def _event(row: dict[str, Any]) -> StoredEvent:
    return StoredEvent(
        **{**row, "data": orjson.loads(row["data"]), "metadata": orjson.loads(row["metadata"])}
    )


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
