"""`make run`: the API (waitress) and a Celery worker, on the configured
servers or, when none are configured, on embedded ones kept under ./var/.

Ctrl-C stops everything it started.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg

from service.records.migrate import migrate

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
    host, port = env.get("HOST", "127.0.0.1"), env.get("PORT", "8000")
    children = [
        subprocess.Popen(
            api_command(host, port, threads=env.get("WEB_THREADS", str(API_THREADS))), env=env, cwd=ROOT
        )
    ]
    children.append(
        subprocess.Popen(
            worker_command(str(VAR / "celerybeat-schedule"), concurrency=env.get("WORKER_CONCURRENCY", "2")),
            env=env,
            cwd=ROOT,
        )
    )
    print(
        f"\ntablerecord web:  http://{host}:{port}/\n"
        f"tablerecord API:  http://{host}:{port}/ (JSON, bearer token)\n"
        f"API docs:         http://{host}:{port}/docs\n"
        "Ctrl-C stops everything.\n",
        flush=True,
    )

    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    code = 0
    while not stopping:
        for child in children:
            if child.poll() is not None:
                print(f"{child.args[0]} exited with {child.returncode}; stopping", flush=True)
                stopping, code = True, 1
        time.sleep(0.5)
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    for child in children:
        try:
            child.wait(20)
        except subprocess.TimeoutExpired:
            child.kill()
    for stopper in reversed(stoppers):
        stopper()
    print("stopped.", flush=True)
    return code


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
    never) holds a socket, not a thread, and is dropped after CHANNEL_TIMEOUT.
    """
    return [
        sys.executable,
        *("-m", "waitress"),
        f"--listen={host}:{port}",
        f"--threads={threads}",
        f"--channel-timeout={CHANNEL_TIMEOUT}",
        f"--connection-limit={CONNECTION_LIMIT}",
        "--ident=tablerecord",
        "service.wsgi:app",
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


def secret_key(path: Path) -> str:
    """The web pages' signing key, made once and kept under ./var/ so that
    every web process (and the next start) shares it."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


if __name__ == "__main__":
    raise SystemExit(main())
