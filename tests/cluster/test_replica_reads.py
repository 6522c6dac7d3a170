"""Reads that may lag come from the replica; a reader's own write is never
missed (``min_position``), and a replica too far behind is skipped."""

from __future__ import annotations

import threading
import time

import pytest

from tests.cluster.checks import figure
from tests.cluster.client import call, ok
from tests.cluster.conftest import Cluster
from tests.cluster.load import percentile
from tests.cluster.servers import Service, wait_until
from tests.cluster.test_faults import new_club
from tests.streams import Reader

pytestmark = pytest.mark.cluster


def feed_positions(host: str, club: dict) -> set[int]:
    page = ok(host, "GET", f"/clubs/{club['id']}/events?limit=1000", token=club["admin_token"])
    return {event["position"] for event in page["events"]}


def one_action(host: str, club: dict, members: list[dict], league: dict) -> tuple[dict, int]:
    body = {
        "engine": "pig",
        "options": {"target": 10},
        "dealer": "server",
        "league": league["id"],
        "seats": [m["id"] for m in members[:2]],
    }
    game = ok(host, "POST", f"/clubs/{club['id']}/games", body, club["admin_token"])
    token = game["seat_tokens"][0]["token"]
    answer = ok(host, "POST", f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}}, token)
    return game, answer["events"][-1]["position"]


def paused(cluster: Cluster) -> None:
    cluster.replica.query("SELECT pg_wal_replay_pause()")
    wait_until(
        lambda: cluster.replica.query("SELECT pg_get_wal_replay_pause_state()")[0][0] == "paused",
        10,
        "the replica to pause",
    )


def move(host: str, game: dict, token: str) -> None:
    """The first move the game offers."""
    legal = ok(host, "GET", f"/games/{game['id']}/legal-actions", token=token)["seats"]
    ok(host, "POST", f"/games/{game['id']}/actions", next(a for seat in legal.values() for a in seat), token)


def test_reads_come_from_the_replica_but_never_miss_the_readers_own_write(cluster):
    one, two = cluster.api_hosts
    club, members, league = new_club(one, 2)
    try:
        paused(cluster)
        game, position = one_action(one, club, members, league)
        time.sleep(1.2)  # past a lag check: the replica is paused, a few bytes behind
        assert position not in feed_positions(two, club), (
            "the feed was read from the replica, which is paused"
        )
        # The same reader naming its write's position gets it: the primary answers.
        path = f"/games/{game['id']}/replay?min_position={position}"

        def replay():
            status, _, body = call(two, "GET", path, token=club["admin_token"])
            return body if status == 200 else None

        steps = wait_until(replay, 30, "the replay at the write")["steps"]
        assert position in {step["position"] for step in steps}
        # Past the bound (the primary moves to its next WAL segment), the replica is skipped.
        cluster.primary.query("SELECT pg_switch_wal()")
        time.sleep(1.2)
        assert position in feed_positions(two, club)
    finally:
        cluster.replica.query("SELECT pg_wal_replay_resume()")
    wait_until(lambda: position in feed_positions(two, club), 30, "the replica to catch up")


def test_the_streams_read_the_replica_and_miss_nothing_while_it_is_paused(cluster):
    """A stream host with the replica: its readers get every event in order, with
    no gap, while the replica's replay is paused (the primary serves what the
    replica lacks) and after it resumes."""
    one, _ = cluster.api_hosts
    env = {**cluster.apis[0].env, **cluster.apis[0].replica_env}
    streams = Service(cluster.network.host("astr"), "streams", env, cluster.network.root)
    club, members, league = new_club(one, 2)
    token = club["admin_token"]
    game, _ = one_action(one, club, members, league)
    address = streams.host.address
    of_game = Reader(Service.API_PORT, f"/streams/games/{game['id']}?after_version=0", token, {}, address)
    of_club = Reader(Service.API_PORT, f"/streams/clubs/{club['id']}?after_position=0", token, {}, address)
    assert of_game.status == of_club.status == 200
    got_game, got_club = [], []

    def logged() -> tuple[list[int], list[int]]:
        """The game's versions and the club's positions, in order, as the primary holds them."""
        versions = cluster.primary.query(
            f"SELECT version FROM events WHERE game_id = '{game['id']}' ORDER BY version"
        )
        positions = cluster.primary.query(
            f"SELECT position FROM events WHERE club_id = '{club['id']}' ORDER BY position"
        )
        return [v for (v,) in versions], [p for (p,) in positions]

    def follow() -> float:
        """Seconds until the readers have every event logged (in order, none missing)."""
        started = time.monotonic()
        versions, positions = logged()
        got_game.extend(m.id for m in of_game.take(len(versions) - len(got_game)))
        got_club.extend(m.id for m in of_club.take(len(positions) - len(got_club)))
        assert (got_game, got_club) == (versions, positions)
        return time.monotonic() - started

    def read_on_the_replica() -> int:
        """Reads of the games table the replica has served (a stream's read reads its game's row)."""
        scans = "coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0)"
        return cluster.replica.query(f"SELECT {scans} FROM pg_stat_user_tables WHERE relname = 'games'")[0][0]

    try:
        paused(cluster)
        try:
            for _ in range(3):
                move(one, game, token)
            while_paused = follow()  # the replica lacks them: the primary answered
            assert (
                cluster.replica.query(f"SELECT count(*) FROM events WHERE position = {got_club[-1]}")[0][0]
                == 0
            ), "the replica was paused"
        finally:
            cluster.replica.query("SELECT pg_wal_replay_resume()")
        for _ in range(3):
            move(one, game, token)
        resumed = follow()
        # Replaying again, the replica serves the reads of what it holds (the primary
        # those it has not replayed yet: a move or two may pass before one it has).
        # (The server counts a read some moments later: a few tries, half a second apart.)
        before, tries = read_on_the_replica(), 0
        while read_on_the_replica() == before:
            tries += 1
            assert tries <= 40, "no stream's read was served by the replica"
            move(one, game, token)
            follow()
            time.sleep(0.5)
        figure(
            "seconds from three acknowledged moves to both streams holding them, the replica paused",
            f"{while_paused:.2f} s",
            f"{resumed:.2f} s with the replica replaying",
        )
    finally:
        of_game.close()
        of_club.close()
        streams.kill()


def reads_per_second(hosts: list[str], paths: list[str], token: str, seconds: float = 6, threads: int = 8):
    done, latencies, stop = [], [], threading.Event()

    def reader(i: int) -> None:
        while not stop.is_set():
            started = time.monotonic()
            status, _, _ = call(hosts[i % len(hosts)], "GET", paths[i % len(paths)], token=token)
            assert status == 200
            latencies.append(time.monotonic() - started)
            done.append(1)

    workers = [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(threads)]
    for w in workers:
        w.start()
    time.sleep(seconds)
    stop.set()
    for w in workers:
        w.join(30)
    return len(done) / seconds, percentile(latencies, 99)


def test_figures_reads_from_the_primary_alone_and_with_the_replica_and_the_replicas_lag(cluster):
    one, two = cluster.api_hosts
    club, members, league = new_club(one, 2)
    game, position = one_action(one, club, members, league)
    paths = [f"/leagues/{league['id']}/standings", f"/games/{game['id']}/replay"]
    wait_until(
        lambda: call(one, "GET", f"{paths[0]}?min_position={position}", token=club["admin_token"])[0] == 200,
        30,
        "the standings",
    )
    runs = {}
    for name, replica in (("the primary alone", False), ("primary and replica", True)):
        for api in cluster.apis:
            api.restart(without_replica=not replica)
        runs[name] = reads_per_second(cluster.api_hosts, paths, club["admin_token"])
    for name, (rate, p99) in runs.items():
        figure(
            f"reads/s of standings and replays, {name}",
            f"{rate:.0f}/s, p99 {p99 * 1000:.0f} ms",
            "the primary alone" if name != "the primary alone" else "",
        )
