"""`make run`: the API (waitress), the event streams (uvicorn) and a Celery
worker, on the configured servers or, when none are configured, on embedded
ones kept under ./var/.

The stream process listens at HOST:PORT, in front: it answers ``/streams/``
itself and passes every other request to the API, which listens on the
loopback only (``API_PORT``), as a reverse proxy in front of a deployment
routes them (see the README). The pages reach their streams on their own origin.

A process that dies (the API, the streams or the worker) is started again, after a
back-off that doubles while it keeps dying (1 s up to 30 s), while the rest,
the embedded PostgreSQL and Redis included, keeps running. Ctrl-C stops
everything it started.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
from cryptography.fernet import Fernet

from service.records.log.migrate import migrate

ROOT = Path(__file__).resolve().parent.parent
VAR = Path(os.environ.get("TABLERECORD_VAR", ROOT / "var"))


def main() -> int:
    env = dict(os.environ)
    stoppers = []
    if not env.get("DATABASE_URL"):
        from service.embedded import start_postgres

        pg = start_postgres(VAR / "postgres")
        stoppers.append(pg.stop)
        env["DATABASE_URL"] = pg.url
        print(f"embedded PostgreSQL: data in {VAR / 'postgres'}", flush=True)
    if not env.get("CELERY_BROKER_URL"):
        from service.embedded import start_redis

        redis = start_redis(VAR / "redis")
        stoppers.append(redis.stop)
        env["CELERY_BROKER_URL"] = redis.url
        # API processes share their rate-limit counters through the same Redis.
        env.setdefault("RATE_LIMIT_STORAGE_URI", f"redis+unix://{redis.socket}")
        print(f"embedded Redis: socket {redis.socket}", flush=True)
    with psycopg.connect(env["DATABASE_URL"], autocommit=True) as conn:
        applied = migrate(conn)
    print(f"migrations applied: {applied or 'none (up to date)'}", flush=True)

    if not env.get("SECRET_KEY"):
        env["SECRET_KEY"] = secret_key(VAR / "secret_key")
    if not env.get("BACKUP_SEAL_KEY"):
        env["BACKUP_SEAL_KEY"] = secret_key(VAR / "backup_seal_key", Fernet.generate_key().decode)
    host, port = env.get("HOST", "127.0.0.1"), env.get("PORT", "8000")
    api_port = env.get("API_PORT", str(int(port) + 1))
    # Every request reaches the API through the stream process, which says whom it came from.
    api_env = {**env, "TRUSTED_PROXIES": env.get("TRUSTED_PROXIES", "1")}
    children = [
        Supervised(
            "API",
            api_command("127.0.0.1", api_port, threads=env.get("WEB_THREADS", str(API_THREADS))),
            api_env,
        ),
        Supervised("streams", streams_command(host, port, upstream=f"http://127.0.0.1:{api_port}"), env),
        Supervised(
            "worker",
            worker_command(str(VAR / "celerybeat-schedule"), concurrency=env.get("WORKER_CONCURRENCY", "2")),
            env,
        ),
    ]
    print(
        f"\ntablerecord web:  http://{host}:{port}/\n"
        f"tablerecord API:  http://{host}:{port}/ (JSON, bearer token)\n"
        f"API docs:         http://{host}:{port}/docs\n"
        f"event streams:    http://{host}:{port}/streams/ (the API itself: http://127.0.0.1:{api_port}/)\n"
        "Ctrl-C stops everything.\n",
        flush=True,
    )

    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping:
        for child in children:
            child.tend()
        time.sleep(0.5)
    for child in children:
        child.terminate()
    for child in children:
        child.wait(20)
    for stopper in reversed(stoppers):
        stopper()
    print("stopped.", flush=True)
    return 0


class Supervised:
    """One child process kept running: started again when it dies, after a
    back-off that doubles from ``FIRST_BACKOFF`` to ``LAST_BACKOFF`` while it
    keeps dying, and starts again from the first once it has run ``STEADY``
    seconds.

    Each child leads a process group of its own: a worker killed outright
    leaves its pool and beat processes behind, and they are ended with it
    (the group is killed before a restart and after a stop)."""

    FIRST_BACKOFF, LAST_BACKOFF, STEADY = 1.0, 30.0, 60.0

    def __init__(self, name: str, command: list[str], env: dict[str, str]):
        self.name, self.command, self.env = name, command, env
        self.backoff = self.FIRST_BACKOFF
        self.restart_at: float | None = None
        self._start()

    def _start(self) -> None:
        self.proc = subprocess.Popen(self.command, env=self.env, cwd=ROOT, process_group=0)
        self.started = time.monotonic()
        self.restart_at = None

    def tend(self) -> None:
        """Restart the process if it died and its back-off has passed."""
        now = time.monotonic()
        if self.restart_at is not None:
            if now >= self.restart_at:
                print(f"{self.name}: starting again", flush=True)
                self._start()
            return
        code = self.proc.poll()
        if code is None:
            return
        self._end_group()
        if now - self.started >= self.STEADY:
            self.backoff = self.FIRST_BACKOFF
        print(f"{self.name} exited with {code}; starting it again in {self.backoff:.0f} s", flush=True)
        self.restart_at = now + self.backoff
        self.backoff = min(self.backoff * 2, self.LAST_BACKOFF)

    def terminate(self) -> None:
        self.restart_at = None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)

    def wait(self, timeout: float) -> None:
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._end_group()

    def _end_group(self) -> None:
        """Kill what is left of the child's process group (its own children)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)


#: Threads that run requests; reading and writing sockets is not their job.
API_THREADS = 8
#: Seconds a connection may stay silent (mid-request or idle) before it is closed.
CHANNEL_TIMEOUT = 30
#: Connections held open at once; further ones wait in the listen backlog.
CONNECTION_LIMIT = 200


def api_command(host: str, port: str | int, *, threads: int | str = API_THREADS) -> list[str]:
    """The API server's command line, as `make run` and the tests start it.

    waitress reads each request, body included, on its event loop and hands
    a thread only a complete request: a client that sends its body slowly (or
    never) holds a socket, not a thread, and is dropped after CHANNEL_TIMEOUT
    of silence or, however steadily it trickles, when its request has not
    arrived whole within REQUEST_ARRIVAL_LIMIT (``service.http_server``).
    """
    return [
        sys.executable,
        *("-m", "service.http_server"),
        f"--listen={host}:{port}",
        f"--threads={threads}",
        f"--channel-timeout={CHANNEL_TIMEOUT}",
        f"--connection-limit={CONNECTION_LIMIT}",
        "--ident=tablerecord",
    ]


def streams_command(host: str, port: str | int, *, upstream: str | None = None) -> list[str]:
    """The event streams' command line (``upstream``: the API, which every
    other request is passed to), as `make run`, the tests and the bench start it."""
    return [
        sys.executable,
        *("-m", "service.streams"),
        f"--listen={host}:{port}",
        *([f"--upstream={upstream}"] if upstream else []),
    ]


def worker_command(
    schedule: str, *, concurrency: int | str = 2, loglevel: str = "INFO", extra: tuple = ()
) -> list[str]:
    """The command line of a worker with its beat, as `make run`, the tests and
    the bench start it (with the celery of the running interpreter)."""
    return [
        str(Path(sys.executable).parent / "celery"),
        *("-A", "workers.celery_app", "worker", "--beat"),
        *("--loglevel", loglevel, "--concurrency", str(concurrency), "--schedule", schedule),
        *extra,
    ]


def secret_key(path: Path, make: Callable[[], str] = lambda: secrets.token_hex(32)) -> str:
    """A key of the deployment (the web pages' signing key, the backup seal
    key), made once by ``make`` and kept under ./var/ so that every process
    (and the next start) shares it."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Readable by its owner alone from the first byte written.
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
            file.write(make())
    return path.read_text().strip()


if __name__ == "__main__":
    raise SystemExit(main())
