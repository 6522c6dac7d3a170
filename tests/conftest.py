"""Real servers for the suite: the embedded PostgreSQL (or TEST_DATABASE_URL)
started once per run, and a clean schema with every migration for each test."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from service.records.log.db import make_pool
from service.records.log.migrate import migrate

ROOT = Path(__file__).resolve().parent.parent
#: The operator's token in the tests' settings (``GET /projections`` in full).
OPERATOR_TOKEN = "tr_operator_for_tests"
#: The deployment's backup seal key in tests (a Fernet key, made for them).
BACKUP_SEAL_KEY = "0Jtql3eIhs0gJqJ1WWmvgXk8WZ1WnBeS3kcAfvxJ8zE="


@pytest.fixture(scope="session")
def server_url():
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        yield url
        return
    from service.embedded import start_postgres

    # One server per pytest-xdist worker ("gw0", "gw1"…); "main" when the run is serial.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    pg = start_postgres(ROOT / "var" / f"test-postgres-{worker}")
    yield pg.url
    pg.stop()


def with_schema(url: str, schema: str) -> str:
    params = conninfo_to_dict(url)
    params["options"] = f"{params.get('options', '')} -c search_path={schema}".strip()
    return make_conninfo(**params)


@pytest.fixture
def database_url(server_url):
    """A fresh schema holding every migration; dropped after the test."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = with_schema(server_url, schema)
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
    yield url
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def pool(database_url):
    pool = make_pool(database_url, max_size=30)
    yield pool
    try:
        assert_snapshots_equal_full_replay(pool)
    finally:
        pool.close()


def assert_snapshots_equal_full_replay(pool) -> None:
    """After every test: each game's state from its latest snapshot plus the
    tail equals the fold of its whole log."""
    from service.records.recording import games, states

    with pool.connection() as conn:
        ids = [r["id"] for r in conn.execute("SELECT DISTINCT game_id AS id FROM snapshots")]
        for game_id in ids:
            game = games.get_game(conn, game_id)
            assert states.load_state(conn, game) == states.load_state(conn, game, use_snapshots=False), (
                game_id
            )


@pytest.fixture
def settings(database_url):
    from service.config import Settings

    return Settings(
        database_url=database_url,
        rate_limit="100000 per minute",
        auth_failure_limit="100000 per minute",
        club_creation_limit="100000 per hour",
        operator_token=OPERATOR_TOKEN,
        snapshot_every=10,
        backup_seal_key=BACKUP_SEAL_KEY,
    )


@pytest.fixture
def app(settings, pool):
    from service.app import create_app

    app = create_app(settings, pool=pool)
    app.config["TESTING"] = True
    return app


@pytest.fixture
def client(app):
    return app.test_client()
