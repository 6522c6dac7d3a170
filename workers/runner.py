"""Projection runners: read the log from a checkpoint, apply, advance, commit.

A runner applies one batch of events per transaction and writes the
projection's rows and its checkpoint (the last global position applied) in
that same transaction: a crash before the commit applies nothing, a crash
after it leaves the checkpoint past the batch, so no event is ever applied
twice or lost. One runner per projection at a time: each batch transaction
first takes ``pg_try_advisory_xact_lock`` on the projection's key, and a
runner that does not get it leaves the work to the one that has it.

The log is read only below its horizon (see service/records/store.py), so
``position > checkpoint`` never skips an event committed late. An event
committed above the horizon waits for the older transactions still open: a
runner that finds one polls briefly (within its budget) instead of going
idle, since the transaction that releases it may not wake anyone.

An event a projection cannot apply (an engine error: a "poison" event) is
recorded in ``projection_errors`` and the projection skips that game from
then on; it goes on with every other game, and the other projections are
not affected at all.
"""

from __future__ import annotations

import logging
import time
import traceback
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol
from uuid import UUID

import psycopg

from service.records import store
from service.records.store import StoredEvent
from workers import faults

log = logging.getLogger(__name__)

DEFAULT_BATCH = 500
SETTLE_POLL = 0.01  # seconds between looks while committed events wait above the horizon


class Projection(Protocol):
    name: str
    tables: tuple[str, ...]  # the tables it owns (a rebuild swaps them)
    event_types: frozenset[str] | None  # the only event types it reads (None: all)

    def apply(self, conn: psycopg.Connection, events: list[StoredEvent], batch: Batch) -> None: ...


@dataclass
class Batch:
    """What a projection needs besides the events: which games are broken,
    and a way to report one more."""

    projection: str
    conn: psycopg.Connection
    broken: set[UUID] = field(default_factory=set)

    def fail(self, event: StoredEvent, error: BaseException) -> None:
        log.error(
            "projection %s: event %s of game %s failed: %r",
            self.projection,
            event.position,
            event.game_id,
            error,
        )
        self.broken.add(event.game_id)
        detail = "".join(traceback.format_exception_only(type(error), error)).strip()[:2000]
        self.conn.execute(
            "INSERT INTO projection_errors (projection, game_id, position, event_type, error)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (projection, game_id) DO NOTHING",
            (self.projection, event.game_id, event.position, event.type, detail),
        )

    def live(self, events: Iterable[StoredEvent]) -> Iterable[StoredEvent]:
        """The events of games not broken (checked as each is reached)."""
        for event in events:
            if event.game_id not in self.broken:
                yield event


@dataclass(frozen=True)
class RunResult:
    projection: str
    status: str  # "caught-up", "more" (budget spent), "busy" (another runner has the lock)
    applied: int
    position: int


def lock_key(schema: str, projection: str) -> int:
    """The advisory lock key of a projection in a schema (stable across processes)."""
    return zlib.crc32(f"tablerecord:projection:{schema}:{projection}".encode())


def main_schema(conn: psycopg.Connection) -> str:
    row = conn.execute("SELECT current_schema() AS s").fetchone()
    return row["s"] if isinstance(row, dict) else row[0]


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
    return int(row["position"] if isinstance(row, dict) else row[0])


def advance(conn: psycopg.Connection, projection: str, position: int) -> None:
    updated = conn.execute(
        "UPDATE projection_checkpoints SET position = %s, updated_at = now()"
        " WHERE projection = %s AND position <= %s",
        (position, projection, position),
    ).rowcount
    if updated != 1:
        raise RuntimeError(f"checkpoint of {projection} would go backwards to {position}")


@dataclass(frozen=True)
class Progress:
    applied: int  # events handed to the projection
    before: int  # checkpoint before the batch
    after: int  # checkpoint after it
    full: bool  # a whole batch was read: there may be more

    @property
    def moved(self) -> bool:
        return self.after > self.before


def read_batch(conn: psycopg.Connection, projection: Projection, after: int, batch_size: int):
    """The next events the projection wants, and the checkpoint they take it to.

    A projection with ``event_types`` reads only those; when fewer than a
    batch come back, its checkpoint moves to the settled head read first
    (every event at or before it was visible then, for good)."""
    types = getattr(projection, "event_types", None)
    if not types:
        events = store.read_all(conn, after, batch_size)
        return events, (events[-1].position if events else after), len(events) == batch_size
    head = store.head_position(conn)
    rows = conn.execute(
        f"SELECT {store.COLUMNS} FROM events WHERE position > %s AND position <= %s AND type = ANY(%s)"
        " ORDER BY position LIMIT %s",
        (after, head, list(types), batch_size),
    ).fetchall()
    events = [StoredEvent(**r) if isinstance(r, dict) else StoredEvent(*r) for r in rows]
    full = len(events) == batch_size
    return events, (events[-1].position if full else max(head, after)), full


def apply_batch(conn: psycopg.Connection, projection: Projection, batch_size: int) -> Progress:
    """In the caller's transaction (holding the lock): apply the next batch
    and advance the checkpoint."""
    before = checkpoint(conn, projection.name)
    events, after, full = read_batch(conn, projection, before, batch_size)
    if after == before:
        return Progress(0, before, before, False)
    if events:
        batch = Batch(projection.name, conn)
        ids = list({e.game_id for e in events})
        rows = conn.execute(
            "SELECT game_id FROM projection_errors WHERE projection = %s AND game_id = ANY(%s)",
            (projection.name, ids),
        ).fetchall()
        batch.broken = {r["game_id"] if isinstance(r, dict) else r[0] for r in rows}
        projection.apply(conn, events, batch)
    advance(conn, projection.name, after)
    return Progress(len(events), before, after, full)


def catch_up(
    conn: psycopg.Connection,
    projection: Projection,
    *,
    schema: str | None = None,
    batch_size: int = DEFAULT_BATCH,
    budget: float = 10.0,
) -> RunResult:
    """Apply batches until the log's head or until ``budget`` seconds are spent.

    ``conn`` is an autocommit connection; each batch is one transaction that
    holds the projection's advisory lock."""
    schema = schema or main_schema(conn)
    key = lock_key(schema, projection.name)
    deadline = time.monotonic() + budget
    applied, position = 0, None
    while True:
        with conn.transaction():
            row = conn.execute("SELECT pg_try_advisory_xact_lock(%s) AS got", (key,)).fetchone()
            if not row["got"]:
                return RunResult(projection.name, "busy", applied, position or 0)
            progress = apply_batch(conn, projection, batch_size)
            position = progress.after
            if progress.moved:
                faults.point(projection.name, "before-commit")
        if not progress.moved:
            if time.monotonic() < deadline and store.unsettled(conn):
                time.sleep(SETTLE_POLL)
                continue
            return RunResult(projection.name, "caught-up", applied, position)
        faults.point(projection.name, "after-commit")
        applied += progress.applied
        if time.monotonic() >= deadline:
            return RunResult(projection.name, "more", applied, position)


def freshness(conn: psycopg.Connection) -> dict[str, int]:
    rows = conn.execute(
        "SELECT projection, position FROM projection_checkpoints ORDER BY projection"
    ).fetchall()
    return {r["projection"]: int(r["position"]) for r in rows}
