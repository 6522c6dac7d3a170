"""Projection runners: read the log from a checkpoint, apply, advance, commit.

A runner applies one batch of events per transaction and writes the
projection's rows and its checkpoint (the last global position applied) in
that same transaction: a crash before the commit applies nothing, a crash
after it leaves the checkpoint past the batch, so no event is ever applied
twice or lost. One runner per projection at a time: each batch transaction
first takes ``pg_try_advisory_xact_lock`` on the projection's key, and a
runner that does not get it leaves the work to the one that has it.

The log is read only below its horizon (see service/records/log/store.py), so
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
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol
from uuid import UUID

import psycopg

from service.records.log import store
from service.records.log.store import StoredEvent
from workers import faults
from workers.projections import checkpoints

log = logging.getLogger(__name__)

DEFAULT_BATCH = 500
SETTLE_POLL = 0.01  # seconds between looks while committed events wait above the horizon


class Projection(Protocol):
    name: str
    tables: tuple[str, ...]  # the tables it owns (a rebuild swaps them)
    event_types: frozenset[str] | None  # the only event types it reads (None: all)

    def apply(self, conn: psycopg.Connection, events: list[StoredEvent], batch: Batch) -> None: ...


def settle(conn: psycopg.Connection, projection: Projection) -> None:
    """What a projection folds from outside the games' log (a club's merges
    of players: ``settle``), brought up to date before each batch."""
    settle_now = getattr(projection, "settle", None)
    if settle_now is not None:
        settle_now(conn)


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
        checkpoints.record_error(
            self.conn, self.projection, event.game_id, event.position, event.type, detail
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
    if projection.event_types is None:
        events = store.read_all(conn, after, batch_size)
        return events, (events[-1].position if events else after), len(events) == batch_size
    head = store.head_position(conn)
    events = store.read_all(conn, after, batch_size, types=projection.event_types, to_position=head)
    full = len(events) == batch_size
    return events, (events[-1].position if full else max(head, after)), full


def apply_batch(conn: psycopg.Connection, projection: Projection, batch_size: int) -> Progress:
    """In the caller's transaction (holding the lock): apply the next batch
    and advance the checkpoint."""
    before = checkpoints.checkpoint(conn, projection.name)
    settle(conn, projection)
    events, after, full = read_batch(conn, projection, before, batch_size)
    if after == before:
        return Progress(0, before, before, False)
    if events:
        batch = Batch(projection.name, conn)
        batch.broken = checkpoints.broken_games(conn, projection.name, {e.game_id for e in events})
        projection.apply(conn, events, batch)
    checkpoints.advance(conn, projection.name, after)
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
    schema = schema or checkpoints.main_schema(conn)
    key = checkpoints.lock_key(schema, projection.name)
    deadline = time.monotonic() + budget
    applied, position = 0, None
    while True:
        with conn.transaction():
            if not checkpoints.try_lock(conn, key):
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
