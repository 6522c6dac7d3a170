"""Celery tasks. They only *wake* the projection runners: all state lives in
Postgres (checkpoints written with the rows), so a task delivered twice, late
or never changes nothing but latency; the beat wakes the runners every few
seconds anyway.

Every task counts its deliveries in ``task_deliveries`` before it runs. A
message redelivered more than ``MAX_DELIVERIES`` times (its worker keeps
dying under it: ``task_reject_on_worker_lost`` puts it back each time) is set
aside: recorded with ``set_aside_at``, logged at ERROR and acknowledged
without running, so it cannot loop forever. ``GET /projections`` reports it.
"""

from __future__ import annotations

import logging
import os
import time
from uuid import UUID

import psycopg
from celery import Task

from service.records.history import jobs, sealing
from service.records.hooks import outbox
from service.records.log import db as log_db
from service.records.log import deliveries, store
from service.records.log.context import Records
from service.records.log.notify import WAKE_TASK
from workers import db, runner, webhooks
from workers.celery_app import MAX_DELIVERIES, WAKE_EVERY, app
from workers.projections import PROJECTIONS, checkpoints
from workers.projections import webhooks as outbox_runner

log = logging.getLogger(__name__)

#: Seconds a runner works before it re-queues itself (well under the time limits).
RUN_BUDGET = 20.0
BUSY_RETRIES = 4


class CappedTask(Task):
    """A task whose message is set aside after MAX_DELIVERIES deliveries."""

    def __call__(self, *args, **kwargs):
        task_id = self.request.id
        if not task_id or self.request.called_directly or self.request.is_eager:
            return super().__call__(*args, **kwargs)
        try:
            count = deliveries.record(db.shared(), task_id, self.name, args, kwargs)
        except psycopg.Error:
            db.discard()
            raise
        if count > MAX_DELIVERIES:
            reason = f"delivered {count} times: its worker died under it {count - 1} times"
            deliveries.set_aside(db.shared(), task_id, reason)
            log.error("task %s %s%r set aside: %s", self.name, task_id, args, reason)
            return None
        try:
            return super().__call__(*args, **kwargs)
        finally:
            try:
                deliveries.done(db.shared(), task_id)
            except psycopg.Error:
                db.discard()


@app.task(name=WAKE_TASK, base=CappedTask)
def wake(position: int | None = None) -> list[str]:
    """Queue a run of each projection behind the log's head, and of the
    webhooks when their outbox is behind or a delivery is due soon."""
    conn = db.shared()
    try:
        head = store.head_position(conn)
        behind = [
            name for name, at in checkpoints.positions(conn).items() if at < head and name in PROJECTIONS
        ]
        outbox_behind = outbox.checkpoint(conn) < head
        due = outbox.next_due_in(conn)
        deliveries.forget_stale(conn)
        waiting = jobs.waiting(conn)
    except psycopg.Error:
        db.discard()
        raise
    for job in waiting:
        run_job.apply_async((str(job),))
    for name in behind:
        run_projection.apply_async((name,), expires=60)
    if outbox_behind or (due is not None and due < WAKE_EVERY):
        run_webhooks.apply_async(expires=60)
        behind.append(outbox_runner.NAME)
    return behind


@app.task(name="tablerecord.run_projection", base=CappedTask)
def run_projection(name: str) -> str:
    """Catch one projection up (for at most RUN_BUDGET seconds, then re-queue)."""
    projection = PROJECTIONS[name]
    result = None
    for attempt in range(BUSY_RETRIES):
        try:
            result = runner.catch_up(db.shared(), projection, budget=RUN_BUDGET)
        except psycopg.OperationalError:
            db.discard()
            raise
        if result.status != "busy":
            break
        time.sleep(0.25 * (attempt + 1))  # another runner holds it: it may be just finishing
    if result.status == "more":
        run_projection.apply_async((name,))
    # Progress is news; a wake-up that found nothing to do is not.
    log.log(
        logging.INFO if result.applied else logging.DEBUG,
        "projection %s: %s, %d events applied, at %d",
        name,
        result.status,
        result.applied,
        result.position,
    )
    return result.status


@app.task(name="tablerecord.run_webhooks", base=CappedTask)
def run_webhooks() -> str:
    """Catch the webhook outbox up, then send the deliveries due (each for at
    most RUN_BUDGET seconds; another runner may hold the outbox: this one then
    only sends)."""
    try:
        conn = db.shared()
        status, read = outbox_runner.catch_up(conn, RUN_BUDGET)
        sent = webhooks.deliver_due(conn, RUN_BUDGET, refill=lambda: outbox_runner.catch_up(conn, 0.2))
    except psycopg.OperationalError:
        db.discard()
        raise
    if status == "more":
        run_webhooks.apply_async()
    log.log(
        logging.INFO if read or sent else logging.DEBUG,
        "webhooks: outbox %s, %d events read, %d deliveries settled",
        status,
        read,
        sent,
    )
    return status


_records: Records | None = None
_records_pid: int | None = None


def job_records() -> Records:
    """This process's pool for the jobs (an import takes one connection, its
    progress another) and the keys that open a backup's sealed games."""
    global _records, _records_pid
    if _records is None or _records_pid != os.getpid():
        pool = log_db.make_pool(db.database_url(), min_size=1, max_size=3)
        _records = Records(pool, seal_keys=sealing.keys_of(os.environ.get("BACKUP_SEAL_KEY")))
        _records_pid = os.getpid()
    return _records


@app.task(name="tablerecord.run_job", base=CappedTask)
def run_job(job_id: str) -> str | None:
    """Run a history import or a club restore asked for as a job (see
    ``history.jobs``): one transaction, all or nothing; a job already claimed
    by another worker is left to it."""
    status = jobs.run(job_records(), UUID(job_id))
    if status is not None:
        log.info("job %s: %s", job_id, status)
    return status
