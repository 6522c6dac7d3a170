"""PostgreSQL stopped for 20 s while clubs record games: every request is
answered within a few seconds (503 `database-unavailable` with Retry-After,
never a 500 or a hang), every acknowledged action is stored, and the API
recovers by itself when the database returns."""

from __future__ import annotations

import contextlib
import random
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from service.embedded import start_postgres
from service.records.log.migrate import migrate
from tests.conftest import ROOT
from tests.servers import ApiServer

OUTAGE_SECONDS = 20
WRITERS = 4
#: The pool gives up after 3 s; the rest is slack for a loaded 2-core machine.
SLOWEST_ANSWER = 6.0


class Postgres:
    """A server of the test's own, so stopping it disturbs no other test."""

    def __init__(self, directory):
        self.embedded = start_postgres(directory)
        self.url = self.embedded.url
        self.socket_dir = conninfo_to_dict(self.url)["host"]

    def _pg_ctl(self, *args: str) -> None:
        from pgserver._commands import pg_ctl

        server = self.embedded.server
        # A loaded machine sometimes refuses a start right after a stop; five
        # tries with a growing pause, then pg_ctl's and the server's own words.
        for attempt in range(5):
            try:
                pg_ctl(["-w", *args], pgdata=server.pgdata, user=server.system_user, timeout=60)
                return
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
                if attempt == 4:
                    said = f"{getattr(error, 'stdout', '') or ''}{getattr(error, 'stderr', '') or ''}"
                    raise AssertionError(
                        f"pg_ctl {args[-1]} failed: {said}\n{server.log.read_text()[-3000:]}"
                    ) from error
                time.sleep(1 + attempt)

    def stop(self) -> None:
        self._pg_ctl("-m", "fast", "stop")

    def start(self) -> None:
        server = self.embedded.server
        self._pg_ctl("-o", '-h ""', "-o", f"-k {self.socket_dir}", "-l", str(server.log), "start")


@pytest.fixture
def postgres():
    # Under the project's var/, not pytest's temporary folder: another pytest run
    # on the machine closes that folder to everyone but its owner, and the
    # server's own system user could then no longer reach its data to stop.
    (ROOT / "var").mkdir(exist_ok=True)
    directory = Path(tempfile.mkdtemp(prefix="outage-", dir=ROOT / "var"))
    pg = Postgres(directory / "pg")
    with psycopg.connect(pg.url, autocommit=True) as conn:
        migrate(conn)
    yield pg
    pg.embedded.stop()
    if (Path(pg.embedded.server.pgdata) / "postmaster.pid").exists():
        pg.stop()  # restarted by the test, so pgserver no longer counts it as its own
    shutil.rmtree(directory, ignore_errors=True)


class Writer(threading.Thread):
    """Records one Pig game as its recorder, as fast as the API answers."""

    def __init__(self, api: ApiServer, token: str, game_id: str):
        super().__init__(daemon=True)
        self.api, self.token, self.game_id = api, token, game_id
        self.answers: list[tuple[float, int, str | None, str | None, float]] = []
        self.positions: list[int] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        rng = random.Random(self.game_id)
        while not self.stopping.is_set():
            try:
                status, headers, body, seconds = self.api.request(
                    "GET", f"/games/{self.game_id}", token=self.token
                )
                self._note(status, headers, body, seconds)
                if status != 200:
                    continue
                seat = body["state"]["turn"]
                kind = "Roll" if rng.random() < 0.7 else "Hold"
                status, headers, body, seconds = self.api.request(
                    "POST",
                    f"/games/{self.game_id}/actions",
                    {"seat": seat, "command": {"type": kind}},
                    self.token,
                )
                self._note(status, headers, body, seconds)
                if status == 201:
                    self.positions.extend(e["position"] for e in body["events"])
            except OSError as error:  # a refused or dropped connection would be a failure too
                self.answers.append((time.monotonic(), 0, type(error).__name__, None, 0.0))

    def _note(self, status, headers, body, seconds) -> None:
        code = body.get("code") if isinstance(body, dict) else None
        self.answers.append((time.monotonic(), status, code, headers.get("Retry-After"), seconds))


def _new_game(api: ApiServer) -> tuple[str, str]:
    status, _, club, _ = api.request("POST", "/clubs", {"name": f"Club {random.random()}"})
    assert status == 201
    token = club["admin_token"]
    players = []
    for name in ("Ann", "Bob"):
        status, _, player, _ = api.request("POST", f"/clubs/{club['id']}/players", {"name": name}, token)
        players.append(player["id"])
    status, _, game, _ = api.request(
        "POST",
        f"/clubs/{club['id']}/games",
        {"engine": "pig", "seats": players, "options": {"target": 10_000}},
        token,
    )
    assert status == 201, game
    return token, game["id"]


@pytest.mark.slow
def test_a_database_outage_answers_503_quickly_and_the_api_recovers_by_itself(postgres, tmp_path):
    api = ApiServer(postgres.url, tmp_path / "api.log", threads=WRITERS + 2)
    writers = [Writer(api, *_new_game(api)) for _ in range(WRITERS)]
    try:
        for writer in writers:
            writer.start()
        time.sleep(3)
        postgres.stop()
        stopped = time.monotonic()
        time.sleep(OUTAGE_SECONDS)
        postgres.start()
        restarted = time.monotonic()
        time.sleep(15)
    finally:
        for writer in writers:
            writer.stopping.set()
        for writer in writers:
            writer.join(30)
        api.stop()

    answers = sorted(a for w in writers for a in w.answers)
    during = [a for a in answers if stopped < a[0] - a[4] and a[0] < restarted]  # sent and answered meanwhile
    assert during, "requests were made during the outage"
    kinds = Counter((status, code) for _, status, code, _, _ in answers)
    assert all(status in (200, 201, 422, 503) for status, _ in kinds), kinds
    assert all(code in ("database-unavailable", "busy") for status, code in kinds if status == 503), kinds
    assert all(retry for _, status, _, retry, _ in answers if status == 503)
    assert {status for _, status, _, _, _ in during} == {503}, Counter(s for _, s, _, _, _ in during)
    slowest = max(seconds for *_, seconds in answers)
    assert slowest < SLOWEST_ANSWER, f"an answer took {slowest:.2f}s"
    for writer in writers:
        recovered = [a for a in writer.answers if a[0] > restarted and a[1] == 201]
        assert recovered, f"no action recorded after the database returned: {writer.answers[-5:]}"

    acknowledged = sorted(p for w in writers for p in w.positions)
    with psycopg.connect(postgres.url) as conn:
        stored = {
            r[0]
            for r in conn.execute("SELECT position FROM events WHERE position = ANY(%s)", (acknowledged,))
        }
    assert stored == set(acknowledged)


def _postgres_processes(pg: Postgres) -> list[int]:
    """The postmaster and every process it started."""
    pgdata = Path(pg.embedded.server.pgdata)
    postmaster = int((pgdata / "postmaster.pid").read_text().split()[0])
    found = [postmaster]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == postmaster:
            found.append(int(stat.parent.name))
    return found


FROZEN_SECONDS = 15
#: The watchdog cuts a wait after DB_WAIT_LIMIT (3 s here); the rest is slack for a loaded machine.
SLOWEST_FROZEN_ANSWER = 8.0


@pytest.mark.slow
def test_a_frozen_database_answers_503_within_seconds_not_as_long_as_it_is_frozen(postgres, tmp_path):
    import os
    import signal

    api = ApiServer(postgres.url, tmp_path / "api.log", threads=WRITERS + 2, DB_WAIT_LIMIT="3")
    writers = [Writer(api, *_new_game(api)) for _ in range(WRITERS)]
    frozen: list[int] = []
    try:
        for writer in writers:
            writer.start()
        time.sleep(2)
        frozen = _postgres_processes(postgres)  # the backends serving the API's connections too
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        stopped = time.monotonic()
        time.sleep(FROZEN_SECONDS)
    finally:
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
    thawed = time.monotonic()
    try:
        time.sleep(8)
    finally:
        for writer in writers:
            writer.stopping.set()
        for writer in writers:
            writer.join(30)
        api.stop()

    answers = sorted(a for w in writers for a in w.answers)
    during = [a for a in answers if stopped < a[0] - a[4] and a[0] < thawed]
    assert during, "requests were made while the database was frozen"
    assert {status for _, status, _, _, _ in during} <= {503}, Counter((s, c) for _, s, c, _, _ in during)
    slowest = max(seconds for *_, seconds in answers)
    assert slowest < SLOWEST_FROZEN_ANSWER, f"an answer took {slowest:.2f}s"
    assert all(status in (200, 201, 422, 503) for _, status, *_ in answers), Counter(a[1] for a in answers)
    for writer in writers:
        assert [a for a in writer.answers if a[0] > thawed and a[1] == 201], writer.answers[-5:]
