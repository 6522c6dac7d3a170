"""The operator's backup (``make backup``): a database with a club's games
dumped with the server's own pg_dump and restored with its pg_restore into a
fresh database holds the same rows, and serves the same club."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import psycopg
import pytest
from cryptography.fernet import Fernet
from psycopg.conninfo import make_conninfo

from service import dump
from service.app import create_app
from service.config import Settings
from service.records.history import sealing
from service.records.log.db import make_pool
from service.records.log.migrate import migrate
from service.run import secret_key
from tests.factories import Api, ClubFactory, GameFactory
from tests.workers.helpers import play_pig


def bin_dir() -> Path | None:
    """The binaries of the server the tests run on: the embedded one's, or ``PG_BIN``'s."""
    if os.environ.get("TEST_DATABASE_URL"):
        return Path(os.environ["PG_BIN"]) if os.environ.get("PG_BIN") else None
    return dump.embedded_bin()


@pytest.fixture
def databases(server_url):
    """Two fresh databases on the test server, dropped after the test."""
    names = [f"dump_{uuid.uuid4().hex[:10]}" for _ in range(2)]
    with psycopg.connect(server_url, autocommit=True) as conn:
        for name in names:
            conn.execute(f"CREATE DATABASE {name}")
    yield [make_conninfo(server_url, dbname=name) for name in names]
    with psycopg.connect(server_url, autocommit=True) as conn:
        for name in names:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def rows(url: str) -> dict[str, list[tuple]]:
    """Every table's rows, in a stable order."""
    with psycopg.connect(url) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1"
            )
        ]
        return {
            table: sorted(map(repr, conn.execute(f'SELECT * FROM "{table}"').fetchall())) for table in tables
        }


def serving(url: str):
    settings = Settings(database_url=url, rate_limit_enabled=False, club_creation_limit="1000 per hour")
    pool = make_pool(url, max_size=2)
    return create_app(settings, pool=pool).test_client(), pool


def test_a_database_backed_up_restores_into_a_fresh_one_with_the_same_rows(databases, tmp_path):
    source, fresh = databases
    with psycopg.connect(source, autocommit=True) as conn:
        migrate(conn)
    client, pool = serving(source)
    try:
        club = ClubFactory(client=client)
        game = GameFactory(client=client, club=club, options={"target": 12})
        play_pig(client, game)
        players = Api(client, club["admin_token"]).get(f"/clubs/{club['id']}/players").get_json()
    finally:
        pool.close()

    file = dump.backup(source, tmp_path / "tablerecord.dump", bin_dir())
    assert file.stat().st_size > 0
    dump.restore(fresh, file, bin_dir())

    before = rows(source)
    assert before["events"] and before["clubs"] and before["schema_migrations"]
    assert rows(fresh) == before
    client, pool = serving(fresh)
    try:
        assert Api(client, club["admin_token"]).get(f"/clubs/{club['id']}/players").get_json() == players
        view = Api(client, club["admin_token"]).get(f"/games/{game['id']}").get_json()
        assert view["status"] == "finished"
    finally:
        pool.close()


def test_a_restore_of_a_file_that_is_no_backup_changes_nothing(databases, tmp_path):
    source, _ = databases
    with psycopg.connect(source, autocommit=True) as conn:
        migrate(conn)
    before = rows(source)
    broken = tmp_path / "broken.dump"
    broken.write_bytes(b"PGDMP" + b"\0" * 64)
    with pytest.raises(SystemExit, match="pg_restore failed"):
        dump.restore(source, broken, bin_dir())
    assert rows(source) == before


def test_make_run_keeps_one_backup_seal_key_readable_by_its_owner_alone(tmp_path):
    path = tmp_path / "var" / "backup_seal_key"
    key = secret_key(path, Fernet.generate_key().decode)
    assert secret_key(path, Fernet.generate_key().decode) == key
    assert path.stat().st_mode & 0o777 == 0o600
    assert sealing.keys_of(key) == (key,)
