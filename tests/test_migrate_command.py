"""``python -m service.migrate``: the release step of a deployment on its own servers."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import psycopg

from service.records.log.migrate import pending
from tests.conftest import ROOT, with_schema


def migrate_command(url: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    if url:
        env["DATABASE_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "service.migrate"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_migrate_applies_every_migration_once_and_then_nothing(server_url):
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = with_schema(server_url, schema)
    try:
        first = migrate_command(url)
        assert first.returncode == 0, first.stderr
        with psycopg.connect(url) as conn:
            numbers = [n for (n,) in conn.execute("SELECT number FROM schema_migrations ORDER BY number")]
        assert numbers == [number for number, _ in pending(set())]
        assert first.stdout.strip() == "migrations applied: " + ", ".join(map(str, numbers))
        again = migrate_command(url)
        assert again.stdout.strip() == "migrations applied: none (up to date)"
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def test_migrate_without_a_database_says_what_to_set():
    done = migrate_command(None)
    assert done.returncode == 2 and "DATABASE_URL" in done.stderr
