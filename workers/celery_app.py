"""The Celery app: ``celery -A workers.celery_app worker --beat``.

Broker from ``CELERY_BROKER_URL`` (for example ``redis://localhost:6379/0``
or the embedded Redis's ``redis+socket:///path/to/redis.socket``); the
database from ``DATABASE_URL``. The settings below are chosen for
at-least-once delivery of idempotent work; docs/workers.md explains each.
"""

from __future__ import annotations

import logging
import os

from celery import Celery
from celery.signals import after_setup_logger

from service.records.log.notify import QUEUE, WAKE_TASK

DEFAULT_BROKER = "redis://localhost:6379/0"

#: Longest a task may run: the runners stop at RUN_BUDGET and re-queue themselves.
TASK_TIME_LIMIT = 120
TASK_SOFT_TIME_LIMIT = 90
#: A message taken but not acked within this time is handed out again (Redis).
VISIBILITY_TIMEOUT = 600
#: Deliveries of one message before it is set aside (see workers/tasks.py).
MAX_DELIVERIES = int(os.environ.get("TABLERECORD_MAX_DELIVERIES", "3"))
#: Seconds between beat wake-ups of the projection runners.
WAKE_EVERY = float(os.environ.get("TABLERECORD_WAKE_EVERY", "2"))


def configure(app: Celery, broker_url: str) -> Celery:
    app.conf.update(
        broker_url=broker_url,
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,  # a worker outlives a broker outage
        broker_connection_timeout=4,
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT},
        # at-least-once
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,
        worker_prefetch_multiplier=1,
        worker_cancel_long_running_tasks_on_connection_loss=True,
        task_time_limit=TASK_TIME_LIMIT,
        task_soft_time_limit=TASK_SOFT_TIME_LIMIT,
        # the tasks return nothing anyone waits for
        task_ignore_result=True,
        result_backend=None,
        task_default_queue=QUEUE,
        task_serializer="json",
        accept_content=["json"],
        timezone="UTC",
        beat_schedule={
            "wake-projections": {
                "task": WAKE_TASK,
                "schedule": WAKE_EVERY,
                "options": {"expires": max(WAKE_EVERY * 5, 10)},
            },
        },
    )
    return app


def _survive_broker_loss_with_unacked_messages() -> None:
    """Work around a kombu (5.7) Redis-transport bug that kills the worker.

    When the broker connection drops while a message is unacknowledged (with
    ``acks_late``: any running task), the consumer closes the connection and
    the channel tries to put the message back through a transport whose
    client is already gone: ``AttributeError: 'NoneType' object has no
    attribute 'hostname'`` escapes ``ignore_errors`` and the worker exits
    ("Unrecoverable error"). Reported as a connection error instead, it is
    ignored like the broken connection it is: the message stays in Redis's
    unacked set and is handed out again after the visibility timeout, and the
    worker reconnects when the broker is back.
    """
    import redis
    from kombu.transport import redis as kombu_redis

    restore = kombu_redis.QoS.restore_unacked
    if getattr(restore, "tablerecord_patched", False):
        return

    def restore_unacked(self, client=None):
        try:
            return restore(self, client)
        except AttributeError as error:
            raise redis.exceptions.ConnectionError("the broker connection is already closed") from error

    restore_unacked.tablerecord_patched = True
    kombu_redis.QoS.restore_unacked = restore_unacked


_survive_broker_loss_with_unacked_messages()

#: Celery's own lines for every message: the beat sending a wake-up, the
#: worker receiving it and its success; at WAKE_EVERY = 2 s that is 5,400
#: lines an hour that tell an operator nothing. Failures are still logged
#: (at ERROR); ``--loglevel DEBUG`` shows them all again.
PER_MESSAGE_LOGGERS = ("celery.beat", "celery.worker.strategy", "celery.app.trace")


@after_setup_logger.connect
def _log_what_an_operator_needs(loglevel: int | str = logging.INFO, **_) -> None:
    level = logging.getLevelName(loglevel.upper()) if isinstance(loglevel, str) else loglevel
    if level > logging.DEBUG:
        for name in PER_MESSAGE_LOGGERS:
            logging.getLogger(name).setLevel(logging.WARNING)


app = configure(
    Celery("tablerecord", include=["workers.tasks"]),
    os.environ.get("CELERY_BROKER_URL") or DEFAULT_BROKER,
)
