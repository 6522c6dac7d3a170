"""The connection pool: a connection is checked before it is lent unless its
last use, moments ago, proved the server alive."""

import threading
import time

import pytest

from service.records.errors import Unavailable
from service.records.log import db


def _backend_pid(pool) -> int:
    with pool.connection() as conn:
        return conn.execute("SELECT pg_backend_pid() AS pid").fetchone()["pid"]


def _terminate(database_url, pid) -> None:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    time.sleep(0.2)


def test_a_connection_idle_longer_than_a_moment_is_checked_and_replaced_if_dropped(database_url):
    pool = db.make_pool(database_url, min_size=1, max_size=1)
    try:
        dropped = _backend_pid(pool)
        _terminate(database_url, dropped)
        time.sleep(db.RECENTLY_USED + 0.2)
        assert _backend_pid(pool) != dropped
    finally:
        pool.close()


def test_a_connection_used_a_moment_ago_is_lent_unchecked_and_discarded_once_it_fails(
    database_url, monkeypatch
):
    monkeypatch.setattr(db, "RECENTLY_USED", 60.0)  # "a moment", however slow this machine is
    pool = db.make_pool(database_url, min_size=1, max_size=1)
    try:
        dropped = _backend_pid(pool)
        _terminate(database_url, dropped)
        with pytest.raises(Unavailable), pool.connection() as conn:
            conn.execute("SELECT 1")
        assert _backend_pid(pool) != dropped
    finally:
        pool.close()


def test_a_transaction_whose_server_freezes_before_its_commit_is_cut_within_the_wait_limit(database_url):
    """The commit (or rollback) that ends a lent connection's transaction is
    an answer awaited like any other: a server frozen just before it answers
    ``Unavailable`` after the wait limit, not when the server thaws."""
    import os
    import signal

    pool = db.make_pool(database_url, min_size=1, max_size=1, wait_limit=1.0)
    frozen = None
    thaw = threading.Timer(10.0, lambda: os.kill(frozen, signal.SIGCONT))
    try:
        started = time.monotonic()
        with pytest.raises(Unavailable), pool.connection() as conn:
            conn.execute("SELECT 1")  # a read opens the transaction the block's end commits
            frozen = conn.info.backend_pid
            os.kill(frozen, signal.SIGSTOP)
            thaw.start()  # so that a commit left unwatched fails this test instead of hanging it
        waited = time.monotonic() - started
    finally:
        thaw.cancel()
        if frozen is not None:
            os.kill(frozen, signal.SIGCONT)
        pool.close()
    assert waited < 5.0, f"the commit waited {waited:.1f}s"
