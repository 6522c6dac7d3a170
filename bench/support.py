"""Shared set-up for benchmarks: a server, a fresh schema, gunicorn, a delay
proxy, HTTP clients and timing helpers."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from service.records.log.migrate import migrate

ROOT = Path(__file__).resolve().parent.parent

# The same server settings for the service and for the framework's ceiling
# (``BENCH_GUNICORN`` to measure others).
GUNICORN = os.environ.get("BENCH_GUNICORN", "-w 3 --threads 6").split()


@contextmanager
def bench_database():
    """A migrated schema on BENCH_DATABASE_URL or on the embedded server, with
    ``bench_rows``: the table the raw baselines insert into."""
    with bench_databases(1) as (url,):
        yield url


@contextmanager
def bench_databases(n: int):
    """``n`` such schemas on the same server (figures measured side by side)."""
    url, pg = os.environ.get("BENCH_DATABASE_URL"), None
    if not url:
        from service.embedded import start_postgres

        pg = start_postgres(ROOT / "var" / "bench-postgres")
        url = pg.url
    schemas = [f"bench_{uuid.uuid4().hex[:8]}" for _ in range(n)]
    urls = []
    for schema in schemas:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        params = conninfo_to_dict(url)
        params["options"] = f"{params.get('options', '')} -c search_path={schema}".strip()
        urls.append(make_conninfo(**params))
        with psycopg.connect(urls[-1], autocommit=True) as conn:
            migrate(conn)
            conn.execute(
                "CREATE TABLE bench_rows (id bigserial PRIMARY KEY, body jsonb NOT NULL,"
                " at timestamptz NOT NULL DEFAULT now())"
            )
    try:
        yield urls
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            for schema in schemas:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
        if pg:
            pg.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, path: str = "/health", timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", path)
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answers on port {port}")


@dataclass(frozen=True)
class Server:
    port: int
    pid: int


@contextmanager
def gunicorn(app: str, database_url: str, env: dict[str, str] | None = None):
    """``app`` served by gunicorn (GUNICORN settings, and ``env`` for its
    environment) on a free port: its ``Server``."""
    port = free_port()
    env = {**os.environ, **(env or {}), "DATABASE_URL": database_url, "RATE_LIMIT_ENABLED": "0"}
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), *GUNICORN, "-b", f"127.0.0.1:{port}", app],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(port)
        yield Server(port, server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)


def tree_cpu_seconds(pid: int | None) -> float | None:
    """CPU seconds (user and system) that ``pid`` and its children have used
    so far, read from Linux's /proc; None where they cannot be read."""
    if pid is None or not os.path.isdir("/proc"):
        return None
    stats = {}  # pid: (parent, clock ticks)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    if pid not in stats:
        return None
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, (pp, _) in stats.items() if pp == parent and p not in tree]
        tree.update(children)
        frontier.extend(children)
    return sum(stats[p][1] for p in tree) / os.sysconf("SC_CLK_TCK")


def postgres_pid(url: str) -> int | None:
    """The PostgreSQL server's main process, when it runs on this machine and
    its data directory can be read (the embedded server's can)."""
    try:
        with psycopg.connect(url) as conn:
            data_dir = conn.execute("SHOW data_directory").fetchone()[0]
        return int((Path(data_dir) / "postmaster.pid").read_text().split()[0])
    except (psycopg.Error, OSError, ValueError, IndexError):
        return None


@contextmanager
def delay_proxy(database_url: str, delay_ms: float):
    """A conninfo that reaches the same database through a proxy delaying
    each direction by ``delay_ms``."""
    params = conninfo_to_dict(database_url)
    host, port = params.get("host") or "127.0.0.1", params.get("port") or "5432"
    target = f"{host}/.s.PGSQL.{port}" if host.startswith("/") else f"{host}:{port}"
    listen = free_port()
    proxy = subprocess.Popen(
        [sys.executable, "-m", "bench.delay_proxy", str(listen), target, str(delay_ms)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        proxy.stdout.readline()  # "ready"
        yield make_conninfo(**{**params, "host": "127.0.0.1", "port": str(listen)})
    finally:
        proxy.terminate()
        proxy.wait(10)


def call(conn: http.client.HTTPConnection, method: str, path: str, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    r = conn.getresponse()
    return r.status, json.loads(r.read() or b"{}")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def timed(func, repeat: int = 5) -> float:
    """Median seconds of ``repeat`` calls."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)
