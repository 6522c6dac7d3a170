"""Reads that may lag come from the replica; a reader's own write is never
missed (``min_position``), and a replica too far behind is skipped."""

from __future__ import annotations

import threading
import time

import pytest

from tests.cluster.checks import figure
from tests.cluster.client import call, ok
from tests.cluster.load import percentile
from tests.cluster.servers import wait_until
from tests.cluster.test_faults import new_club

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


def test_reads_come_from_the_replica_but_never_miss_the_readers_own_write(cluster):
    one, two = cluster.api_hosts
    club, members, league = new_club(one, 2)
    cluster.replica.query("SELECT pg_wal_replay_pause()")
    try:
        wait_until(
            lambda: cluster.replica.query("SELECT pg_get_wal_replay_pause_state()")[0][0] == "paused",
            10,
            "the replica to pause",
        )
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
