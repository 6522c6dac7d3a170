"""Faults on purpose, each a check with its figures: an API host killed under
load, a worker host killed, a worker host cut from the database and healed,
Redis killed. (The primary's loss is in test_failover.py: it ends a cluster.)"""

from __future__ import annotations

import time

import pytest

from tests.cluster.checks import figure, lost_and_duplicated
from tests.cluster.client import call, ok
from tests.cluster.load import Load, median, percentile
from tests.cluster.servers import wait_until
from tests.conftest import OPERATOR_TOKEN
from tests.workers.helpers import checkpoints, head, snapshot
from workers.projections.rebuild import rebuild_all

pytestmark = pytest.mark.cluster


def new_club(host: str, players: int) -> tuple[dict, list[dict], dict]:
    club = ok(host, "POST", "/clubs", {"name": "Cluster club"})
    token = club["admin_token"]
    members = [
        ok(host, "POST", f"/clubs/{club['id']}/players", {"name": f"Player {i}"}, token)
        for i in range(players)
    ]
    league = ok(
        host, "POST", f"/clubs/{club['id']}/leagues", {"name": "Cluster league", "min_games": 1}, token
    )
    return club, members, league


def caught_up(url: str, timeout: float) -> None:
    target = head(url)
    wait_until(lambda: min(checkpoints(url).values()) >= target, timeout, f"every projection at {target}")


def test_appends_with_one_and_with_two_api_hosts(cluster):
    one, two = cluster.api_hosts
    club, members, league = new_club(one, 16)
    runs, acknowledged = {}, []
    lags: list[float] = []
    for name, hosts in (("one API host", [one]), ("two API hosts", [one, two])):
        load = Load(hosts, club, members, tables=8, league=league["id"]).start()
        until = time.monotonic() + 10
        while time.monotonic() < until:
            lag = cluster.primary.query("SELECT extract(epoch FROM replay_lag) FROM pg_stat_replication")
            lags += [float(row[0]) for row in lag if row[0] is not None]
            time.sleep(0.25)
        seconds = load.stop()
        assert not load.errors and not load.refused, (load.errors, load.refused[:3])
        runs[name] = (len(load.acknowledged) / seconds, percentile(load.latencies, 99))
        acknowledged += load.acknowledged
    for name, (rate, p99) in runs.items():
        figure(
            f"appends/s, {name}, 8 tables",
            f"{rate:.0f}/s, p99 {p99 * 1000:.0f} ms",
            "one API host" if name != "one API host" else "",
        )
    figure("two hosts / one host", f"{runs['two API hosts'][0] / runs['one API host'][0]:.2f}")
    figure(
        "the replica's replay lag under the append load",
        f"p50 {median(lags) * 1000:.1f} ms, p99 {percentile(lags, 99) * 1000:.1f} ms ({len(lags)} samples)",
    )
    lost, duplicated = lost_and_duplicated(cluster.primary.url, acknowledged)
    assert (lost, duplicated) == (0, 0)


def test_an_api_host_killed_under_load_loses_and_duplicates_no_acknowledged_action(cluster):
    one, two = cluster.api_hosts
    club, members, league = new_club(two, 16)
    load = Load([one, two], club, members, tables=8, league=league["id"]).start()
    time.sleep(6)
    killed_at = time.monotonic()
    cluster.apis[0].kill()
    time.sleep(8)
    load.stop()
    try:
        assert not load.errors and not load.refused, (load.errors, load.refused[:3])
        after = [(at, without) for at, without in load.failovers if at >= killed_at]
        assert after, "no client was answered by the other host after the kill"
        lost, duplicated = lost_and_duplicated(cluster.primary.url, load.acknowledged)
        figure("acknowledged actions", f"{len(load.acknowledged)}: lost {lost}, duplicated {duplicated}")
        figure(
            "from the kill to the first answer from the other host",
            f"{(min(a for a, _ in after) - killed_at) * 1000:.0f} ms",
        )
        figure(
            "a client's longest wait for an answer across the kill",
            f"{max(w for _, w in after) * 1000:.0f} ms",
        )
        assert (lost, duplicated) == (0, 0)
    finally:
        cluster.apis[0].start()


def test_a_worker_host_killed_leaves_its_projections_to_the_other_and_they_equal_a_rebuild(cluster):
    one, two = cluster.api_hosts
    club, members, league = new_club(one, 8)
    load = Load([one, two], club, members, tables=4, league=league["id"]).start()
    time.sleep(4)
    cluster.workers[0].kill()
    time.sleep(6)
    load.stop()
    try:
        assert not load.errors and not load.refused
        started = time.monotonic()
        caught_up(cluster.primary.url, 60)
        figure(
            "projections at the head with one worker host left",
            f"{time.monotonic() - started:.1f} s after the load",
        )
        before = snapshot(cluster.primary.url)
        rebuild_all(cluster.primary.url)
        assert snapshot(cluster.primary.url) == before
    finally:
        cluster.workers[0].start()


def test_a_worker_host_cut_from_the_database_for_30_seconds_duplicates_nothing_and_loses_no_task(cluster):
    one, two = cluster.api_hosts
    club, members, league = new_club(one, 8)
    load = Load([one, two], club, members, tables=4, league=league["id"]).start()
    time.sleep(3)
    cluster.workers[1].host.cut()
    time.sleep(30)
    cluster.workers[1].host.heal()
    load.stop()
    assert not load.errors and not load.refused
    started = time.monotonic()
    caught_up(cluster.primary.url, 90)
    figure("projections at the head after the cut healed", f"{time.monotonic() - started:.1f} s")
    before = snapshot(cluster.primary.url)
    rebuild_all(cluster.primary.url)
    assert snapshot(cluster.primary.url) == before
    _, _, projections = call(one, "GET", "/projections", token=OPERATOR_TOKEN)
    figure("tasks set aside after the cut", str(len(projections["set_aside_tasks"])))
    assert cluster.workers[1].alive()


def test_with_redis_killed_rate_limits_count_per_process_and_nothing_answers_5xx(cluster):
    one, two = cluster.api_hosts
    club, members, league = new_club(one, 4)
    cluster.redis.kill()
    try:
        statuses = []
        for host in (one, two):
            for _ in range(40):  # 30 failed sign-ins a minute per address, counted per process now
                statuses.append((host, call(host, "GET", f"/clubs/{club['id']}", token="tr_wrong")[0]))
            statuses.append((host, call(host, "GET", f"/clubs/{club['id']}", token=club["admin_token"])[0]))
            added = call(
                host, "POST", f"/clubs/{club['id']}/players", {"name": f"Late {host}"}, club["admin_token"]
            )
            assert added[0] == 201, added  # a write goes on; only the workers' wake-up is not sent
        assert all(status < 500 for _, status in statuses), statuses
        for host in (one, two):  # each process counted its own 30, then refused
            mine = [s for h, s in statuses if h == host]
            assert mine[:30] == [401] * 30 and set(mine[30:40]) == {429}, mine
    finally:
        cluster.redis.start()
        for api in cluster.apis:  # forget the 429s each process now holds for the test's address
            api.restart()
