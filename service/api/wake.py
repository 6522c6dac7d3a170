"""The API's commit listener: wake the projection runners after a write.

It never blocks a request: the listener only sets a flag, and one
background thread per process sends a single ``tablerecord.wake`` message
for all the commits that arrived since its last send (with short broker
timeouts). When the broker is down the send fails, is logged, and the thread
backs off; nothing is lost, because the runners read the log from their
checkpoints and the beat wakes them every few seconds regardless.
"""

from __future__ import annotations

import logging
import os
import threading

from celery import Celery

from service.records.log.notify import QUEUE, WAKE_TASK

log = logging.getLogger(__name__)

SEND_TIMEOUT = 1.0
BACKOFF = (0.5, 1, 2, 5)


class WakeSender:
    def __init__(self, broker_url: str):
        self.broker_url = broker_url
        self._lock = threading.Lock()
        self._wanted = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid: int | None = None
        self._position = 0
        self._celery: Celery | None = None

    def __call__(self, position: int) -> None:
        self._position = max(self._position, int(position))
        self._wanted.set()
        self._ensure_thread()

    def _ensure_thread(self) -> None:
        if self._thread is not None and self._thread.is_alive() and self._pid == os.getpid():
            return
        with self._lock:
            if self._thread is None or not self._thread.is_alive() or self._pid != os.getpid():
                self._pid = os.getpid()  # after a fork, a new thread and a new connection
                self._celery = None
                self._thread = threading.Thread(target=self._loop, name="tablerecord-wake", daemon=True)
                self._thread.start()

    def _app(self) -> Celery:
        if self._celery is None:
            app = Celery("tablerecord-api", broker=self.broker_url, set_as_current=False)
            app.conf.update(
                broker_connection_timeout=SEND_TIMEOUT,
                broker_connection_retry=False,
                broker_transport_options={
                    "socket_timeout": SEND_TIMEOUT,
                    "socket_connect_timeout": SEND_TIMEOUT,
                    "max_retries": 0,
                },
                task_default_queue=QUEUE,
            )
            self._celery = app
        return self._celery

    def send(self) -> None:
        self._app().send_task(
            WAKE_TASK, kwargs={"position": self._position}, queue=QUEUE, retry=False, expires=60
        )

    def _loop(self) -> None:
        failures = 0
        while True:
            self._wanted.wait()
            self._wanted.clear()
            try:
                self.send()
                failures = 0
            except Exception:  # noqa: BLE001 - the beat covers for a lost wake-up
                log.warning("could not wake the projection runners (broker down?)", exc_info=failures == 0)
                self._celery = None
                threading.Event().wait(BACKOFF[min(failures, len(BACKOFF) - 1)])
                failures += 1


def listeners(broker_url: str | None) -> list[WakeSender]:
    """The API's commit listeners (no broker configured: none)."""
    return [WakeSender(broker_url)] if broker_url else []
