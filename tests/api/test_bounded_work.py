"""One request's work is bounded, on the server `make run` starts: a streamed
import stops when its client hangs up, a restore killed midway leaves
nothing, and the largest imports and restores allowed, running together,
keep /health and another club's actions answering."""

from __future__ import annotations

import http.client
import json
import statistics
import threading
import time

import pytest

from service.records.history import backup
from service.records.history import formats as history_formats
from service.run import API_THREADS
from tests.factories import Api, ClubFactory, PlayerFactory
from tests.servers import ApiServer, multipart
from tests.workers.helpers import league_with_games


def pig_plays(count: int, year: int = 2024) -> bytes:
    """A CSV of ``count`` plays of Pig (three players each), all of ``year``."""
    rows = ["date,game,player,score,place,play"]
    for i in range(count):
        day = f"{year}-{1 + i % 12:02d}-{1 + i % 28:02d}"
        rows += [
            f"{day},Pig,Ann,{30 + i % 5},,{i}",
            f"{day},Pig,Ben,{i % 20},,{i}",
            f"{day},Pig,Cleo,{i % 7},,{i}",
        ]
    return ("\n".join(rows) + "\n").encode()


def result_count(pool, club_id: str) -> int:
    with pool.connection() as conn:
        return conn.execute(
            "SELECT count(*) AS n FROM result_games WHERE club_id = %s", (club_id,)
        ).fetchone()["n"]


def club_count(pool) -> int:
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM clubs").fetchone()["n"]


def open_streamed_import(server: ApiServer, club: dict, content: bytes) -> http.client.HTTPResponse | int:
    """A streamed import that has sent its first progress line (its answer,
    left open), or the status it was refused with."""
    body, content_type = multipart(content, filename="plays.csv")
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request(
        "POST",
        f"/clubs/{club['id']}/history",
        body=body,
        headers={
            "Content-Type": content_type,
            "Authorization": f"Bearer {club['admin_token']}",
            "Accept": "application/x-ndjson",
        },
    )
    response = connection.getresponse()
    if response.status != 200:
        response.read()
        connection.close()
        return response.status
    assert "judged" in json.loads(response.readline())
    return response


@pytest.mark.slow
def test_a_streamed_import_stops_and_lets_go_of_its_connection_when_its_client_hangs_up(
    database_url, pool, client, tmp_path
):
    club = ClubFactory(client=client)
    # Two connections: imports that kept running after their clients left would hold them both.
    server = ApiServer(database_url, tmp_path / "api.log", DB_POOL_SIZE="2", DB_POOL_TIMEOUT="3")
    try:
        for attempt in range(6):
            content = pig_plays(history_formats.MAX_PLAYS, year=2000 + attempt)
            deadline = time.monotonic() + 10
            while isinstance(opened := open_streamed_import(server, club, content), int):
                # the import before is stopping: its place is free within moments
                assert opened == 429 and time.monotonic() < deadline, opened
                time.sleep(0.2)
            opened.close()  # hang up, the import half judged
        for _ in range(5):
            status, _, _, seconds = server.request("GET", "/health")
            assert status == 200 and seconds < 1.0, (status, seconds)
            time.sleep(0.3)
        status, _, report, _ = server.upload(
            f"/clubs/{club['id']}/history",
            pig_plays(3, year=1999),
            token=club["admin_token"],
            filename="p.csv",
        )
        assert status == 201 and report["imported"] == 3, report
        time.sleep(3)
        assert result_count(pool, club["id"]) == 3  # the abandoned imports stored nothing
    finally:
        server.stop()


def played_backup(client, size: int) -> bytes:
    """A club's backup with about ``size`` bytes of played games of Pig."""
    club = ClubFactory(client=client)
    league_with_games(client, club, 2, players=3)
    lines = Api(client, club["admin_token"]).get(f"/clubs/{club['id']}/backup.ndjson").get_data().splitlines()
    games = [line for line in lines[1:] if line.startswith(b'{"game"')]
    out, total = [lines[0]], len(lines[0])
    while total + len(games[len(out) % len(games)]) + 1 < size:
        out.append(games[len(out) % len(games)])
        total += len(out[-1]) + 1
    return b"\n".join(out) + b"\n"


@pytest.mark.slow
def test_a_restore_killed_midway_leaves_no_club(database_url, pool, client, tmp_path):
    content = played_backup(client, backup.MAX_BYTES - 1024)  # the largest allowed: several seconds
    clubs_before = club_count(pool)
    server = ApiServer(database_url, tmp_path / "api.log")
    answer: list = []

    def restore() -> None:
        try:
            answer.append(server.upload("/clubs/restore", content, filename="club.ndjson", timeout=120))
        except OSError as error:
            answer.append(error)

    sending = threading.Thread(target=restore)
    try:
        sending.start()
        time.sleep(3)
        server.proc.kill()  # kill -9, the restore half done
        server.proc.wait(10)
        sending.join(10)
    finally:
        server.stop()
    assert len(answer) == 1 and isinstance(answer[0], OSError), answer  # it was still running
    assert club_count(pool) == clubs_before


def timed(server: ApiServer, method: str, path: str, body=None, token=None) -> float:
    status, _, answer, seconds = server.request(method, path, body, token=token)
    assert status in (200, 201), (path, status, answer)
    return seconds


@pytest.mark.slow
def test_health_and_another_clubs_actions_answer_while_the_largest_imports_and_restores_run(
    database_url, client, tmp_path
):
    importing = ClubFactory(client=client)
    other = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=other)["id"] for _ in range(2)]
    restoring = played_backup(client, backup.MAX_BYTES - 1024)
    plays = pig_plays(history_formats.MAX_PLAYS)
    assert len(plays) < history_formats.MAX_BYTES
    # Every request comes from 127.0.0.1 here: let it run as many as the whole process takes.
    server = ApiServer(database_url, tmp_path / "api.log", threads=API_THREADS, IMPORTS_PER_ADDRESS="2")
    answers: dict[str, tuple] = {}

    def send(name: str, path: str, content: bytes, token: str | None) -> None:
        answers[name] = server.upload(path, content, token=token, filename="file", timeout=300)

    heavy = [
        threading.Thread(
            target=send,
            args=("import", f"/clubs/{importing['id']}/history", plays, importing["admin_token"]),
        ),
        threading.Thread(target=send, args=("restore", "/clubs/restore", restoring, None)),
    ]
    seconds: list[float] = []
    result = {"engine": "pig", "options": {"target": 12}, "players": []}
    try:
        for thread in heavy:
            thread.start()
        time.sleep(0.5)
        started = time.monotonic()
        while any(t.is_alive() for t in heavy) and time.monotonic() - started < 240:
            seconds.append(timed(server, "GET", "/health"))
            seconds.append(timed(server, "GET", f"/clubs/{other['id']}/players", token=other["admin_token"]))
            result["players"] = [{"player": players[0], "score": 12}, {"player": players[1], "score": 5}]
            seconds.append(
                timed(server, "POST", f"/clubs/{other['id']}/results", result, other["admin_token"])
            )
            time.sleep(0.1)
        for thread in heavy:
            thread.join(60)
    finally:
        server.stop()
    assert answers["import"][0] == 201, answers["import"][2]
    assert answers["import"][2]["imported"] == history_formats.MAX_PLAYS
    assert answers["restore"][0] == 201, answers["restore"][2]
    assert len(seconds) >= 30, "the heavy work ended before it could be measured"
    p95 = statistics.quantiles(seconds, n=20)[-1]
    print(f"{len(seconds)} requests beside the heavy work: p95 {p95:.3f}s, max {max(seconds):.3f}s")
    assert p95 < 1.0
