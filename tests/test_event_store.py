"""The event log: append-only in the database itself, gap-free versions,
readers that never skip a late commit."""

import random
import threading
import time
import uuid

import psycopg
import pytest

from service.records.errors import GameMoved
from service.records.log import store
from service.records.log.store import NewEvent
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


def _new_stream(pool, club_id: uuid.UUID | None = None) -> tuple[uuid.UUID, uuid.UUID]:
    """A bare game row (and its club) to append to directly: (club, game)."""
    game_id = uuid.uuid4()
    with pool.connection() as conn, conn.transaction():
        if club_id is None:
            club_id = uuid.uuid4()
            conn.execute("INSERT INTO clubs (id, name) VALUES (%s, 'c')", (club_id,))
        conn.execute(
            "INSERT INTO games (id, club_id, engine, seats, options, dealer, seed)"
            " VALUES (%s, %s, 'pig', '[]', '{}', 'server', 's')",
            (game_id, club_id),
        )
    return club_id, game_id


def _append_one(conn, stream, label):
    club_id, game_id = stream
    version = conn.execute("SELECT version FROM games WHERE id = %s FOR UPDATE", (game_id,)).fetchone()[
        "version"
    ]
    return store.append(conn, club_id, game_id, version, [NewEvent("Noted", {"label": label})])[0]


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
        with pool.connection() as conn, conn.transaction():  # commits while the slow one is open
            fast_event = _append_one(conn, fast_game, "fast")
        poll()  # the fast event is committed but above the slow one's horizon: not read yet
        assert seen == []
        slow.execute("COMMIT")
    finally:
        pool.putconn(slow)
    poll()
    assert seen == [slow_event.position, fast_event.position]


def test_a_rolled_back_append_leaves_a_gap_that_readers_pass(pool):
    stream = _new_stream(pool)
    with pool.connection() as conn:
        conn.execute("BEGIN")
        lost = _append_one(conn, stream, "lost")
        conn.execute("ROLLBACK")
    with pool.connection() as conn, conn.transaction():
        kept = _append_one(conn, stream, "kept")
    assert kept.position > lost.position
    with pool.connection() as conn:
        positions = [e.position for e in store.read_all(conn, 0)]
        assert lost.position not in positions
        assert positions == [kept.position]
        assert [e.version for e in store.read_stream(conn, stream[1])] == [1]


def test_many_writers_across_games_commit_in_parallel_and_a_follower_reads_each_event_once_in_order(pool):
    """Writers of 12 games in 3 clubs append at once, some holding their
    transaction open a while and some rolling back, while a follower of the
    log and a follower of each club poll from their last position. Each sees
    every committed event of its own exactly once, in position order; none
    sees a rolled-back one; and writers did overlap (appends were not
    serialised)."""
    clubs = [_new_stream(pool)[0] for _ in range(3)]
    streams = [_new_stream(pool, clubs[i % 3]) for i in range(12)]
    committed: list[tuple[uuid.UUID, int]] = []
    rolled_back: list[int] = []
    record = threading.Lock()
    open_at_once, now_open = [0], [0]
    writing = threading.Event()

    def writer(i: int) -> None:
        rng = random.Random(i)
        for n in range(15):
            with pool.connection() as conn:
                conn.execute("BEGIN")
                event = _append_one(conn, streams[i], f"{i}-{n}")
                with record:
                    now_open[0] += 1
                    open_at_once[0] = max(open_at_once[0], now_open[0])
                time.sleep(rng.choice((0, 0, 0.002, 0.02)))
                with record:
                    now_open[0] -= 1
                if rng.random() < 0.15:
                    conn.execute("ROLLBACK")
                    with record:
                        rolled_back.append(event.position)
                else:
                    conn.execute("COMMIT")
                    with record:
                        committed.append((streams[i][0], event.position))

    def follow(read, seen: list[int]) -> None:
        checkpoint = 0
        while True:
            done = not writing.is_set()
            with pool.connection() as conn:
                for event in read(conn, checkpoint):
                    assert event.position > checkpoint
                    seen.append(event.position)
                    checkpoint = event.position
            if done:
                return

    log: list[int] = []
    by_club: dict[uuid.UUID, list[int]] = {club: [] for club in clubs}
    writing.set()
    followers = [threading.Thread(target=follow, args=(store.read_all, log))] + [
        threading.Thread(
            target=follow, args=(lambda conn, after, c=club: store.read_club(conn, c, after), seen)
        )
        for club, seen in by_club.items()
    ]
    writers = [threading.Thread(target=writer, args=(i,)) for i in range(len(streams))]
    for t in followers + writers:
        t.start()
    for t in writers:
        t.join(60)
    writing.clear()
    for t in followers:
        t.join(60)

    assert open_at_once[0] > 1
    assert rolled_back and not set(rolled_back) & set(log)
    assert log == sorted(position for _, position in committed)
    for club, seen in by_club.items():
        assert seen == sorted(position for c, position in committed if c == club)


def test_a_club_feed_from_the_head_reads_one_index_range_even_with_a_generic_plan(pool):
    """The feed a caught-up follower polls must cost the same at any log size:
    with other clubs' events after this club's (a walk of the log by position
    looks cheap to a generic plan), its plan is still one range of the
    (club_id, position) index, once prepared statements switch to the
    generic plan too."""
    club, game = _new_stream(pool)
    with pool.connection() as conn, conn.transaction():
        _append_one(conn, (club, game), "ours")
        for _ in range(3):
            other_club, other_game = _new_stream(pool)
            store.append(conn, other_club, other_game, 0, [NewEvent("Noted", {"n": i}) for i in range(5000)])
    with pool.connection() as conn:
        conn.execute("ANALYZE events")
        conn.execute("SET plan_cache_mode = force_generic_plan")
        for _ in range(6):  # as psycopg prepares it from the fifth execution on
            store.read_club(conn, club, 0, 100)
        name = conn.execute(
            "SELECT name FROM pg_prepared_statements WHERE statement LIKE %s",
            ("%FROM events WHERE club_id%",),
        ).fetchone()["name"]
        plan = "\n".join(
            r["QUERY PLAN"] for r in conn.execute(f"EXPLAIN EXECUTE {name}('{club}', 0, 100)").fetchall()
        )
    assert "Index Scan using events_club_position" in plan, plan
    assert "events_pkey" not in plan and "Seq Scan" not in plan, plan


def test_a_version_can_be_appended_only_once(pool):
    """An append moves the game only from the version it was decided at, and
    the (game, version) index backs that up for any other insert."""
    club, game = _new_stream(pool)
    with pool.connection() as conn, conn.transaction():
        store.append(conn, club, game, 0, [NewEvent("Noted", {})])
    with pytest.raises(GameMoved), pool.connection() as conn, conn.transaction():
        store.append(conn, club, game, 0, [NewEvent("Noted", {})])
    with pool.connection() as conn, pytest.raises(psycopg.errors.UniqueViolation), conn.transaction():
        conn.execute(
            "INSERT INTO events (position, club_id, game_id, version, type, data, metadata)"
            " VALUES (events_claim_positions(1), %s, %s, 1, 'Noted', '{}', '{}')",
            (club, game),
        )
    with pool.connection() as conn:
        assert [e.version for e in store.read_stream(conn, game)] == [1]


def test_an_event_names_its_games_club(pool):
    club, game = _new_stream(pool)
    other_club, _ = _new_stream(pool)
    with pool.connection() as conn, pytest.raises(psycopg.errors.ForeignKeyViolation), conn.transaction():
        store.append(conn, other_club, game, 0, [NewEvent("Noted", {})])


def test_a_stuck_session_holding_a_game_makes_its_writers_retry_not_wait_for_ever(settings, database_url):
    """lock_timeout: a writer behind a stuck transaction gives up with a 503
    (nothing stored) instead of queueing; other games are not held up."""
    from service.app import create_app
    from service.records.log.db import make_pool
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
