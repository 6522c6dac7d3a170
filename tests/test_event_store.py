"""The event log: append-only in the database itself, gap-free versions,
readers that never skip a late commit."""

import threading
import time
import uuid

import psycopg
import pytest

from service.records import store
from service.records.store import NewEvent
from tests.helpers import event_count, new_pig_game


def test_update_delete_and_truncate_on_events_are_refused_by_the_database(client, pool):
    _, game, _ = new_pig_game(client)
    before = event_count(pool, game["id"])
    for sql in ("UPDATE events SET type = 'Forged'", "DELETE FROM events", "TRUNCATE events"):
        with pool.connection() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(sql)
    assert event_count(pool, game["id"]) == before
    with pool.connection() as conn:
        types = [r["type"] for r in conn.execute("SELECT type FROM events ORDER BY position")]
    assert "Forged" not in types


def test_sessions_cannot_stall_everyone(pool):
    with pool.connection() as conn:
        assert conn.execute("SHOW lock_timeout").fetchone()["lock_timeout"] == "5s"
        assert (
            conn.execute("SHOW idle_in_transaction_session_timeout").fetchone()[
                "idle_in_transaction_session_timeout"
            ]
            == "30s"
        )


def _new_stream(pool) -> uuid.UUID:
    """A bare game row to append to directly."""
    game_id, club_id = uuid.uuid4(), uuid.uuid4()
    with pool.connection() as conn, conn.transaction():
        conn.execute("INSERT INTO clubs (id, name) VALUES (%s, 'c')", (club_id,))
        conn.execute(
            "INSERT INTO games (id, club_id, engine, seats, options, dealer, seed)"
            " VALUES (%s, %s, 'pig', '[]', '{}', 'server', 's')",
            (game_id, club_id),
        )
    return game_id


def _append_one(conn, game_id, label):
    version = conn.execute("SELECT version FROM games WHERE id = %s FOR UPDATE", (game_id,)).fetchone()[
        "version"
    ]
    stored = store.append(conn, game_id, version, [NewEvent("Noted", {"label": label})])
    conn.execute("UPDATE games SET version = %s WHERE id = %s", (version + 1, game_id))
    return stored[0]


def test_a_slow_transaction_that_commits_late_is_not_skipped_by_a_reader(pool):
    slow_game, fast_game = _new_stream(pool), _new_stream(pool)
    seen: list[int] = []
    checkpoint = 0

    def poll():
        nonlocal checkpoint
        with pool.connection() as conn:
            for event in store.read_all(conn, checkpoint):
                seen.append(event.position)
                checkpoint = event.position

    slow = pool.getconn()
    try:
        slow.execute("BEGIN")
        slow_event = _append_one(slow, slow_game, "slow")
        fast_done = threading.Event()

        def fast_writer():
            with pool.connection() as conn, conn.transaction():
                _append_one(conn, fast_game, "fast")
            fast_done.set()

        writer = threading.Thread(target=fast_writer)
        writer.start()
        time.sleep(0.3)
        poll()  # the fast writer waits behind the slow one: nothing visible yet
        assert seen == []
        assert not fast_done.is_set()
        slow.execute("COMMIT")
        writer.join(10)
        assert fast_done.is_set()
    finally:
        pool.putconn(slow)
    poll()
    assert seen[0] == slow_event.position
    assert len(seen) == 2 and seen == sorted(seen)


def test_a_rolled_back_append_leaves_a_gap_that_readers_pass(pool):
    game = _new_stream(pool)
    with pool.connection() as conn:
        conn.execute("BEGIN")
        lost = _append_one(conn, game, "lost")
        conn.execute("ROLLBACK")
    with pool.connection() as conn, conn.transaction():
        kept = _append_one(conn, game, "kept")
    assert kept.position > lost.position + 0
    with pool.connection() as conn:
        positions = [e.position for e in store.read_all(conn, 0)]
        assert lost.position not in positions
        assert positions == [kept.position]
        assert [e.version for e in store.read_stream(conn, game)] == [1]


def test_a_version_can_be_appended_only_once(pool):
    game = _new_stream(pool)
    with pool.connection() as conn, conn.transaction():
        store.append(conn, game, 0, [NewEvent("Noted", {})])
    with pool.connection() as conn, pytest.raises(psycopg.errors.UniqueViolation), conn.transaction():
        store.append(conn, game, 0, [NewEvent("Noted", {})])


def test_a_stuck_session_holding_a_game_makes_its_writers_retry_not_wait_for_ever(settings, database_url):
    """lock_timeout: a writer behind a stuck transaction gives up with a 503
    (nothing stored) instead of queueing; other games are not held up."""
    from service.app import create_app
    from service.records.db import make_pool
    from tests.factories import ClubFactory, GameFactory
    from tests.helpers import event_count

    impatient = make_pool(database_url, max_size=5, lock_timeout="300ms")
    try:
        client = create_app(settings, pool=impatient).test_client()
        club = ClubFactory(client=client)
        stuck_game, other_game = GameFactory(client=client, club=club), GameFactory(client=client, club=club)
        auth = {"Authorization": f"Bearer {club['admin_token']}"}
        roll = {"seat": 0, "command": {"type": "Roll"}}
        with psycopg.connect(database_url) as stuck:
            stuck.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (stuck_game["id"],))
            before = event_count(impatient, stuck_game["id"])
            r = client.post(f"/games/{stuck_game['id']}/actions", json=roll, headers=auth)
            assert r.status_code == 503 and r.get_json()["code"] == "busy" and r.headers["Retry-After"] == "1"
            assert event_count(impatient, stuck_game["id"]) == before
            assert (
                client.post(f"/games/{other_game['id']}/actions", json=roll, headers=auth).status_code == 201
            )
        assert client.post(f"/games/{stuck_game['id']}/actions", json=roll, headers=auth).status_code == 201
    finally:
        impatient.close()
