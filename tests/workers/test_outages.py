"""Outages of Redis while clubs record games: the API keeps answering, every
action is stored, and the projections catch up once Redis is back.

Redis is both the broker and the rate limiter's shared storage here, as in
`make run`. It is stopped for 15 s, then frozen (SIGSTOP) for 15 s: long
enough for the limiter to find it down, fall back and probe it again several
times (its probes back off from 1 s).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest

from service.app import create_app
from tests.conftest import ROOT
from tests.factories import Api, ClubFactory, LeagueFactory, PlayerFactory
from tests.servers import free_port
from tests.workers.helpers import checkpoints, head, wait_for

OUTAGE_SECONDS = 15
#: The slowest answer accepted during an outage: a stalled storage call costs 0.5 s,
#: the rest is slack for a loaded machine (without the fallback, requests hung 5-10 s).
SLOWEST_ANSWER = 3.0


class Table:
    """Plays server-dealt Pig games of one club through the API, one action at a time."""

    def __init__(self, client, club, league, players):
        self.client, self.club, self.league, self.players = client, club, league, players
        self.statuses: list[int] = []
        self.slowest = 0.0
        self.appended = 0
        self.game = None

    def _timed(self, call):
        started = time.monotonic()
        response = call()
        self.slowest = max(self.slowest, time.monotonic() - started)
        self.statuses.append(response.status_code)
        return response

    def step(self) -> None:
        if self.game is None:
            created = self._timed(lambda: _create_game(self.client, self.club, self.league, self.players))
            self.game = created.get_json() if created.status_code == 201 else None
            self.appended += self.game["version"] if self.game else 0
            return
        gid = self.game["id"]
        seats = [Api(self.client, t["token"]) for t in self.game["seat_tokens"]]
        view = self._timed(lambda: seats[0].get(f"/games/{gid}"))
        if view.status_code != 200:
            return
        state = view.get_json()
        if state["status"] != "active":
            self.game = None
            return
        seat = state["state"]["turn"]
        kind = "Hold" if (state["state"]["turn_total"] or 0) >= 5 else "Roll"
        response = self._timed(
            lambda: seats[seat].post(f"/games/{gid}/actions", {"seat": seat, "command": {"type": kind}})
        )
        if response.status_code == 201:
            self.appended += len(response.get_json()["events"])

    def play_for(self, seconds: float) -> None:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            self.step()


def _create_game(client, club, league, players):
    return client.post(
        f"/clubs/{club['id']}/games",
        json={
            "engine": "pig",
            "seats": [p["id"] for p in players],
            "league": league["id"],
            "options": {"target": 12},
        },
        headers={"Authorization": f"Bearer {club['admin_token']}"},
    )


def _events(url) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(*) FROM events").fetchone()[0]


@pytest.mark.slow
def test_a_stopped_then_frozen_redis_fails_no_request_and_loses_no_action(
    worker, broker, settings, pool, database_url
):
    app = create_app(
        replace(settings, broker_url=broker.url, rate_limit_storage=f"redis+unix://{broker.socket}"),
        pool=pool,
    )
    client = app.test_client()
    worker.start()
    club = ClubFactory(client=client)
    league = LeagueFactory(client=client, club=club, min_games=1)
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    table = Table(client, club, league, players)
    table.play_for(2)
    assert broker.client().keys("LIMITS*"), "the limiter counts in Redis while it is up"
    before = _events(database_url) - table.appended

    broker.stop()
    table.play_for(OUTAGE_SECONDS)
    broker.start()

    pid = broker.server.pid
    os.kill(pid, signal.SIGSTOP)
    try:
        table.play_for(OUTAGE_SECONDS)
    finally:
        os.kill(pid, signal.SIGCONT)

    assert table.statuses and all(s < 500 for s in table.statuses), sorted(set(table.statuses))
    assert table.slowest < SLOWEST_ANSWER, f"an answer took {table.slowest:.2f}s"
    assert _events(database_url) == before + table.appended

    broker.client().flushall()  # the limiter writes to Redis again once it answers
    wait_for(
        lambda: table.step() or broker.client().keys("LIMITS*"),
        45,
        interval=0.5,
        what="the limiter to use Redis",
    )
    target = head(database_url)
    wait_for(
        lambda: min(checkpoints(database_url).values()) >= target, 60, what="the projections to catch up"
    )
    standings = Api(client, club["admin_token"]).get(f"/leagues/{league['id']}/standings").get_json()
    assert standings["standings"], standings


def _children(pid: int) -> dict[int, str]:
    """The processes ``pid`` started, by pid, with their command lines."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            if ppid == pid:
                found[int(stat.parent.name)] = (
                    (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                )
        except (OSError, ValueError, IndexError):
            continue
    return found


def _alive(pids) -> list[int]:
    """Those of ``pids`` still running (a zombie has ended)."""
    alive = []
    for pid in pids:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                alive.append(pid)
        except (OSError, IndexError):
            continue
    return alive


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


@pytest.mark.slow
def test_make_run_starts_a_killed_api_stream_process_or_worker_again_and_keeps_the_rest_running(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "TABLERECORD_VAR": str(tmp_path / "var"),
        "PORT": str(port),
        "WORKER_CONCURRENCY": "1",
    }
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "RATE_LIMIT_STORAGE_URI"):
        env.pop(name, None)
    log = open(tmp_path / "run.log", "wb")  # noqa: SIM115 - closed below
    run = subprocess.Popen([sys.executable, "-m", "service.run"], env=env, cwd=ROOT, stdout=log, stderr=log)
    try:
        wait_for(lambda: _healthy(port), timeout=120, what="make run to serve")
        api = next(pid for pid, cmd in _children(run.pid).items() if "service.http_server" in cmd)
        worker = next(pid for pid, cmd in _children(run.pid).items() if "celery" in cmd)
        os.kill(api, signal.SIGKILL)
        wait_for(
            lambda: not _healthy(port) or api not in _children(run.pid), timeout=10, what="the API to die"
        )
        wait_for(lambda: _healthy(port), timeout=30, what="the API to be started again")
        assert run.poll() is None
        wait_for(lambda: _children(worker), timeout=60, what="the worker's pool to start")
        pool = list(_children(worker))
        os.kill(worker, signal.SIGKILL)
        wait_for(
            lambda: any("celery" in cmd and pid != worker for pid, cmd in _children(run.pid).items()),
            timeout=30,
            what="the worker to be started again",
        )
        wait_for(
            lambda: not _alive(pool), timeout=10, what="the killed worker's pool processes to end with it"
        )
        streams = next(pid for pid, cmd in _children(run.pid).items() if "service.streams" in cmd)
        os.kill(streams, signal.SIGKILL)
        wait_for(
            lambda: any(
                "service.streams" in cmd and pid != streams for pid, cmd in _children(run.pid).items()
            ),
            timeout=30,
            what="the stream process to be started again",
        )
        wait_for(
            lambda: _healthy(port), timeout=30, what="the API to answer through the stream process again"
        )
        assert run.poll() is None and _healthy(port)  # the database stayed up throughout
        started = [p for child in _children(run.pid) for p in (child, *_children(child))]
    except AssertionError as failure:
        # What make run said (restarts, back-offs, tracebacks) says why it did not recover.
        log.flush()
        failure.add_note("make run said:\n" + (tmp_path / "run.log").read_text(errors="replace")[-4000:])
        raise
    finally:
        run.send_signal(signal.SIGINT)
        try:
            run.wait(60)
        except subprocess.TimeoutExpired:
            run.kill()
        log.close()
    wait_for(lambda: not _alive(started), timeout=10, what="Ctrl-C to leave no process behind")
    said = (tmp_path / "run.log").read_text(errors="replace")
    assert "API exited with -9; starting it again" in said and "worker exited with -9" in said, said[-2000:]
    assert "streams exited with -9" in said, said[-2000:]


@pytest.mark.slow
def test_requests_in_flight_when_the_rate_limit_storage_freezes_get_no_5xx(client, settings, pool, tmp_path):
    """A Redis that accepts connections and never answers (frozen): the
    requests that meet it at the same moment, before any of them has switched
    the limiter to memory, and the failed authentications counted after their
    answer, all get their usual answer."""
    path = str(tmp_path / "frozen.sock")
    frozen = socket.socket(socket.AF_UNIX)
    frozen.bind(path)
    frozen.listen(64)
    try:
        app = create_app(
            replace(settings, rate_limit_storage=f"redis+unix://{path}", rate_limit_storage_timeout=0.3),
            pool=pool,
        )
        club = ClubFactory(client=client)  # through an app counting in memory
        statuses: list[int] = []
        start = threading.Barrier(8)

        def ask(bad_token: bool) -> None:
            client = app.test_client()
            token = "tr_admin_made_up" if bad_token else club["admin_token"]
            start.wait()
            for _ in range(3):
                statuses.append(
                    client.get(
                        f"/clubs/{club['id']}", headers={"Authorization": f"Bearer {token}"}
                    ).status_code
                )

        threads = [threading.Thread(target=ask, args=(i % 2 == 0,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        frozen.close()
    assert statuses and all(s < 500 for s in statuses), statuses


#: Anonymous clients of one address asking at once while Redis is frozen.
CLIENTS = 4


@pytest.mark.slow
def test_the_per_address_limit_counts_in_memory_while_redis_is_frozen(broker, settings, pool):
    """Redis frozen (SIGSTOP) under a limiter counting in it: once a call has
    stalled, each process counts in its own memory, and requests past the
    per-address limit get 429 as they would with Redis answering."""
    app = create_app(
        replace(
            settings,
            rate_limit="8 per minute",
            rate_limit_storage=f"redis+unix://{broker.socket}",
            rate_limit_storage_timeout=0.3,
        ),
        pool=pool,
    )
    nowhere = "/games/00000000-0000-4000-8000-000000000000"  # a 404: no authentication fails
    anonymous = app.test_client()  # counted by its address
    assert anonymous.get(nowhere).status_code == 404
    assert broker.client().keys("LIMITS*"), "the limiter counts in Redis while it is up"
    pid = broker.server.pid
    answers: list = []

    def ask() -> None:  # several clients at once, as behind one proxy
        client = app.test_client()
        for _ in range(10):
            answers.append(client.get(nowhere))

    os.kill(pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        clients = [threading.Thread(target=ask) for _ in range(CLIENTS)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join(30)
        took = time.monotonic() - started
    finally:
        os.kill(pid, signal.SIGCONT)
    statuses = [a.status_code for a in answers]
    assert len(statuses) == 10 * CLIENTS and set(statuses) <= {404, 429}, statuses
    # The requests that meet the stall go on uncounted; the rest count in memory.
    assert statuses.count(404) <= 8 + CLIENTS, statuses
    assert all(a.headers["Retry-After"] for a in answers if a.status_code == 429)
    assert took < 15, f"{took:.1f}s for {len(statuses)} requests"
