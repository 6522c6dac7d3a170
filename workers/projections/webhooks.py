"""The webhook outbox: a runner like the projections' (``workers/runner.py``)
whose rows are the deliveries it owes (``service/records/hooks/outbox.py``).

Each batch's deliveries are written with the outbox's checkpoint in one
transaction, under the outbox's advisory lock, so every event that concerns
a webhook is owed exactly once however the worker dies; the senders then
make each delivery at least once. The outbox is not among ``PROJECTIONS``:
it is no read model, is never rebuilt (a rebuild would send everything
again) and starts at the log's head when first made.
"""

from __future__ import annotations

import time

import psycopg

from service.records.hooks import messages, outbox
from service.records.log import store
from workers import faults
from workers.projections import checkpoints

NAME = "webhooks"
BATCH = 500


def apply_batch(conn: psycopg.Connection, batch_size: int) -> tuple[int, bool]:
    """In the caller's transaction (holding the lock): the next batch's
    deliveries and the checkpoint past it; (events read, whether it moved)."""
    before = outbox.checkpoint(conn)
    head = store.head_position(conn)
    events = store.read_all(conn, before, batch_size, types=messages.LOG_TYPES, to_position=head)
    after = events[-1].position if len(events) == batch_size else max(head, before)
    if after == before:
        return 0, False
    outbox.record(conn, events)
    outbox.advance(conn, after)
    return len(events), True


def catch_up(conn: psycopg.Connection, budget: float, batch_size: int = BATCH) -> tuple[str, int]:
    """Write the deliveries owed up to the log's head, or for ``budget`` seconds:
    ("caught-up" | "more" | "busy", events read). ``conn`` is in autocommit."""
    key = checkpoints.lock_key(checkpoints.main_schema(conn), NAME)
    deadline = time.monotonic() + budget
    read = 0
    while True:
        with conn.transaction():
            if not checkpoints.try_lock(conn, key):
                return "busy", read
            count, moved = apply_batch(conn, batch_size)
            if moved:
                faults.point(NAME, "before-commit")
        if not moved:
            return "caught-up", read
        faults.point(NAME, "after-commit")
        read += count
        if time.monotonic() >= deadline:
            return "more", read
