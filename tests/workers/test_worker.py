"""A real Celery worker (with its beat) on the embedded Redis and the test's
Postgres schema: delivery, SIGKILL before and after a projection commit, a
task that keeps killing its worker, and a broker outage."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from psycopg.rows import dict_row

from tests.conftest import OPERATOR_TOKEN
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.workers.helpers import checkpoints, head, play_pig, snapshot, wait_for
from workers.projections.rebuild import rebuild_all


def ready(worker, timeout=30):
    wait_for(lambda: "ready." in worker.log() or not worker.alive(), timeout, what="the worker to start")
    assert worker.alive(), worker.log()[-3000:]


def caught_up(url, timeout, worker=None):
    target = head(url)
    try:
        wait_for(
            lambda: min(checkpoints(url).values()) >= target, timeout, what=f"every projection at {target}"
        )
    except AssertionError:
        if worker is not None:
            print(worker.log()[-5000:])
        raise


class Sampler:
    """Reads the checkpoints in the background; they must never go backwards."""

    def __init__(self, url):
        self.url, self.samples, self.stopped = url, [], threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        with psycopg.connect(self.url, autocommit=True, row_factory=dict_row) as conn:
            while not self.stopped.is_set():
                rows = conn.execute("SELECT projection, position FROM projection_checkpoints").fetchall()
                self.samples.append({r["projection"]: r["position"] for r in rows})
                time.sleep(0.05)

    def stop(self):
        self.stopped.set()
        self.thread.join(5)
        for name in self.samples[0]:
            series = [s[name] for s in self.samples]
            assert series == sorted(series), f"{name} checkpoint went backwards: {series}"
        return self.samples


def league_game(client, club, league, players, target=12):
    game = GameFactory(
        client=client, club=club, players=players, league=league["id"], options={"target": target}
    )
    return play_pig(client, game)


def test_a_recorded_game_shows_up_in_the_standings_within_seconds(worker, broker_client, database_url):
    worker.start()
    ready(worker)
    club = ClubFactory(client=broker_client)
    league = LeagueFactory(client=broker_client, club=club, public=True)
    players = [PlayerFactory(client=broker_client, club=club) for _ in range(2)]
    league_game(broker_client, club, league, players)
    ended = time.monotonic()
    last = head(database_url)
    response = wait_for(
        lambda: (
            (
                r := broker_client.get(
                    f"/leagues/{league['id']}/standings?min_position={last}",
                    headers={"Authorization": f"Bearer {club['admin_token']}"},
                )
            ).status_code
            == 200
            and r
        ),
        10,
        interval=0.05,
        what="the standings to include the game",
    )
    delay = time.monotonic() - ended
    assert sum(row["games"] for row in response.get_json()["standings"]) == 2
    assert delay < 5, f"{delay:.2f}s from the last event to the standings"
    caught_up(database_url, 10, worker)


@pytest.mark.parametrize("point", ["before-commit", "after-commit"])
def test_a_worker_killed_around_a_projection_commit_converges_to_the_rebuild(
    point, worker, broker_client, database_url, tmp_path
):
    marker = tmp_path / "fault-fired"
    sampler = Sampler(database_url)
    worker.start(TABLERECORD_FAULT=f"standings:{point}:group", TABLERECORD_FAULT_ONCE=str(marker))
    club = ClubFactory(client=broker_client)
    league = LeagueFactory(client=broker_client, club=club, min_games=1)
    players = [PlayerFactory(client=broker_client, club=club) for _ in range(3)]
    league_game(broker_client, club, league, players)
    wait_for(lambda: not worker.alive(), 30, what="the fault to kill the worker")
    assert marker.exists()
    at_death = checkpoints(database_url)["standings"]
    assert (at_death == 0) if point == "before-commit" else (at_death > 0)
    league_game(broker_client, club, league, players[:2])  # recorded while no worker runs
    worker.start()
    caught_up(database_url, 30, worker)
    sampler.stop()
    standings = Api(broker_client, club["admin_token"]).get(f"/leagues/{league['id']}/standings").get_json()
    assert sum(r["games"] for r in standings["standings"]) == 5
    before = snapshot(database_url)
    rebuild_all(database_url)
    assert snapshot(database_url) == before


@pytest.mark.slow
def test_a_task_that_keeps_killing_its_worker_is_set_aside_and_the_others_go_on(
    worker, broker_client, database_url, monkeypatch
):
    worker.start(TABLERECORD_FAULT="standings:before-commit:child", TABLERECORD_MAX_DELIVERIES="2")
    club = ClubFactory(client=broker_client)
    league = LeagueFactory(client=broker_client, club=club, min_games=1)
    players = [PlayerFactory(client=broker_client, club=club) for _ in range(2)]
    league_game(broker_client, club, league, players)
    target = head(database_url)

    def set_aside():
        body = Api(broker_client, OPERATOR_TOKEN).get("/projections").get_json()
        return [t for t in body["set_aside_tasks"] if t["args"]["args"] == ["standings"]]

    aside = wait_for(set_aside, 40, interval=0.5, what="the poison task to be set aside")
    assert aside[0]["task_name"] == "tablerecord.run_projection" and aside[0]["deliveries"] == 3
    wait_for(
        lambda: (
            checkpoints(database_url)["replays"] >= target
            and checkpoints(database_url)["statistics"] >= target
        ),
        20,
        what="the other projections",
    )
    assert checkpoints(database_url)["standings"] == 0
    assert worker.alive()  # only pool processes died; the worker replaced them

    worker.stop()
    worker.start()  # the fault is fixed
    caught_up(database_url, 30, worker)


BROKER_OUTAGE_SECONDS = 30


@pytest.mark.slow
def test_after_a_broker_outage_everything_recorded_meanwhile_catches_up(
    worker, broker, broker_client, database_url
):
    worker.start()
    ready(worker)
    club = ClubFactory(client=broker_client)
    league = LeagueFactory(client=broker_client, club=club, min_games=1)
    players = [PlayerFactory(client=broker_client, club=club) for _ in range(3)]
    league_game(broker_client, club, league, players)
    caught_up(database_url, 15, worker)

    broker.stop()
    down = time.monotonic()
    slowest = 0.0
    for seats in (players, players[:2], players[1:]):
        game = GameFactory(
            client=broker_client, club=club, players=seats, league=league["id"], options={"target": 12}
        )
        gid, seat_api = game["id"], [Api(broker_client, t["token"]) for t in game["seat_tokens"]]
        while (view := seat_api[0].get(f"/games/{gid}").get_json())["status"] == "active":
            seat = view["state"]["turn"]
            kind = "Hold" if view["state"]["turn_total"] >= 5 else "Roll"
            started = time.monotonic()
            response = seat_api[seat].post(f"/games/{gid}/actions", {"seat": seat, "command": {"type": kind}})
            slowest = max(slowest, time.monotonic() - started)
            assert response.status_code == 201
    assert slowest < 1.0, f"a write took {slowest:.2f}s with the broker down"
    time.sleep(max(0.0, BROKER_OUTAGE_SECONDS - (time.monotonic() - down)))
    broker.start()
    caught_up(database_url, 40, worker)
    standings = Api(broker_client, club["admin_token"]).get(f"/leagues/{league['id']}/standings").get_json()
    assert sum(r["games"] for r in standings["standings"]) == 3 + 3 + 2 + 2
    before = snapshot(database_url)
    rebuild_all(database_url)
    assert snapshot(database_url) == before
