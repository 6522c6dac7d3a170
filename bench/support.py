"""Shared set-up for benchmarks: a server, a fresh schema, timing helpers."""

from __future__ import annotations

import os
import statistics
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from service.records.migrate import migrate

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def bench_database():
    """A migrated schema on BENCH_DATABASE_URL or on the embedded server."""
    url, pg = os.environ.get("BENCH_DATABASE_URL"), None
    if not url:
        from service.embedded import start_postgres

        pg = start_postgres(ROOT / "var" / "bench-postgres")
        url = pg.url
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    params = conninfo_to_dict(url)
    params["options"] = f"{params.get('options', '')} -c search_path={schema}".strip()
    schema_url = make_conninfo(**params)
    with psycopg.connect(schema_url, autocommit=True) as conn:
        migrate(conn)
    try:
        yield schema_url
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
        if pg:
            pg.stop()


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
