"""History imports and club restores asked for as jobs (`Prefer:
respond-async`): answered 202 at once, followed by their progress, done with
the answer the request would have had or failed with nothing stored, read only
by the token that started them; run by the Celery worker."""

from __future__ import annotations

import io
import threading

import psycopg
import pytest

from service.records.history import jobs
from tests.api.test_app_tokens import make_app
from tests.factories import Api, ClubFactory, PlayerFactory
from tests.workers.helpers import wait_for
from tests.workers.test_worker import ready

ASYNC = {"Prefer": "respond-async"}


def _plays(n: int, refused_at: int | None = None) -> bytes:
    """``n`` plays of Pig by Ann, Ben and Cleo; the play ``refused_at`` names Ann twice."""
    rows = ["date,game,player,score,place,play"]
    for i in range(n):
        day = f"2024-01-{1 + i % 28:02d}"
        third = "Ann" if i == refused_at else "Cleo"
        rows += [
            f"{day},Pig,Ann,{30 + i % 5},,{i}",
            f"{day},Pig,Ben,{i % 20},,{i}",
            f"{day},Pig,{third},{i % 7},,{i}",
        ]
    return ("\n".join(rows) + "\n").encode()


def _post(client, club, token: str, content: bytes, headers=ASYNC):
    return client.post(
        f"/clubs/{club['id']}/history",
        data={"file": (io.BytesIO(content), "pig.csv")},
        headers={"Authorization": f"Bearer {token}", **headers},
        content_type="multipart/form-data",
    )


def _records(app):
    return app.extensions["tablerecord.records"]


def _games(pool, club_id) -> int:
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM games WHERE club_id = %s", (club_id,)).fetchone()["n"]


def _read(client, location: str, token: str | None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.get(location, headers=headers)


@pytest.fixture
def club(client):
    club = ClubFactory(client=client)
    for name in ("Ann", "Ben", "Cleo"):
        PlayerFactory(client=client, club=club, name=name)
    return club


def test_an_import_as_a_job_shows_its_progress_then_the_answer_of_the_answered_import(
    app, client, pool, database_url, club
):
    content = _plays(300)
    queued = _post(client, club, club["admin_token"], content)
    assert queued.status_code == 202, queued.get_json()
    assert queued.headers["Preference-Applied"] == "respond-async"
    location = queued.headers["Location"]
    assert location == f"/jobs/{queued.get_json()['id']}"
    assert queued.get_json()["status"] == "queued" and _games(pool, club["id"]) == 0

    # Hold the import's writes back: it judges every play, then waits to store them.
    with psycopg.connect(database_url) as holder:
        holder.execute("LOCK TABLE games IN SHARE MODE")
        runner = threading.Thread(target=jobs.run, args=(_records(app), queued.get_json()["id"]))
        runner.start()
        try:
            wait_for(
                lambda: _read(client, location, club["admin_token"]).get_json()["done"] == 300,
                30,
                what="the job to have judged its plays",
            )
            running = _read(client, location, club["admin_token"]).get_json()
            assert (running["status"], running["done"], running["total"]) == ("running", 300, 300)
            assert running["result"] is None
        finally:
            holder.rollback()
    runner.join(30)
    finished = _read(client, location, club["admin_token"]).get_json()
    assert finished["status"] == "done" and finished["problem"] is None
    assert _games(pool, club["id"]) == 300

    # The same file answered at once, into another club: the same report.
    other = ClubFactory(client=client)
    for name in ("Ann", "Ben", "Cleo"):
        PlayerFactory(client=client, club=other, name=name)
    answered = _post(client, other, other["admin_token"], content, headers={})
    assert answered.status_code == 201
    with pool.connection() as conn:
        last = conn.execute(
            "SELECT max(position) AS p FROM events WHERE club_id = %s", (club["id"],)
        ).fetchone()
    assert finished["result"].pop("log_position") == last["p"]
    answer = answered.get_json()
    assert answer.pop("log_position") > last["p"] and finished["result"] == answer


def test_a_refused_import_job_fails_with_the_problem_and_stores_nothing(app, client, pool, club):
    queued = _post(client, club, club["admin_token"], _plays(120, refused_at=70))
    assert queued.status_code == 202
    assert jobs.run(_records(app), queued.get_json()["id"]) == "failed"
    failed = _read(client, queued.headers["Location"], club["admin_token"]).get_json()
    assert failed["status"] == "failed" and failed["result"] is None
    assert failed["problem"]["code"] == "history-refused"
    assert [line["rule"] for line in failed["problem"]["refused"]] == ["player-named-twice"]
    assert _games(pool, club["id"]) == 0
    with pool.connection() as conn:  # the file is let go
        row = conn.execute("SELECT content FROM jobs WHERE id = %s", (failed["id"],)).fetchone()
    assert row["content"] is None


def test_an_import_job_is_read_by_the_token_that_started_it_alone(app, client, club):
    queued = _post(client, club, club["admin_token"], _plays(3))
    location = queued.headers["Location"]
    assert jobs.run(_records(app), queued.get_json()["id"]) == "done"
    other = ClubFactory(client=client)
    app_token = make_app(client, club, ["results", "read"])["token"]
    assert _read(client, location, club["admin_token"]).status_code == 200
    for token in (other["admin_token"], app_token, None):
        refused = _read(client, location, token)
        assert (refused.status_code, refused.get_json()["code"]) == (404, "not-found")

    # An app's job is its own: the admin token does not read it either.
    app_job = _post(client, other, make_app(client, other, ["results"])["token"], _plays(3))
    assert app_job.status_code == 202, app_job.get_json()
    assert _read(client, app_job.headers["Location"], other["admin_token"]).status_code == 404


def test_one_unfinished_job_per_client_address(client, club):
    assert _post(client, club, club["admin_token"], _plays(3)).status_code == 202
    again = _post(client, club, club["admin_token"], _plays(3))
    assert (again.status_code, again.get_json()["code"]) == (429, "imports-running")
    assert "Retry-After" in again.headers


def test_a_restore_as_a_job_gives_the_new_clubs_token_once(app, client, club):
    admin = Api(client, club["admin_token"])
    assert _post(client, club, club["admin_token"], _plays(5), headers={}).status_code == 201
    backup = admin.get(f"/clubs/{club['id']}/backup.ndjson").get_data()
    queued = client.post(
        "/clubs/restore",
        data={"file": (io.BytesIO(backup), "club.ndjson")},
        headers=ASYNC,
        content_type="multipart/form-data",
    )
    assert queued.status_code == 202, queued.get_json()
    assert jobs.run(_records(app), queued.get_json()["id"]) == "done"
    first = _read(client, queued.headers["Location"], None).get_json()
    assert first["status"] == "done" and first["result"]["games"] == 5
    restored = Api(client, first["result"]["admin_token"])
    assert restored.get(f"/clubs/{first['result']['id']}/plays.csv").status_code == 200
    again = _read(client, queued.headers["Location"], None).get_json()
    assert "admin_token" not in again["result"] and again["result"]["games"] == 5


def test_the_worker_runs_a_queued_job(worker, broker_client, pool):
    club = ClubFactory(client=broker_client)
    for name in ("Ann", "Ben", "Cleo"):
        PlayerFactory(client=broker_client, club=club, name=name)
    queued = _post(broker_client, club, club["admin_token"], _plays(40))
    assert queued.status_code == 202
    ready(worker.start())
    location = queued.headers["Location"]
    wait_for(
        lambda: (
            _read(broker_client, location, club["admin_token"]).get_json()["status"] in ("done", "failed")
        ),
        60,
        what="the worker to run the job",
    )
    finished = _read(broker_client, location, club["admin_token"]).get_json()
    assert finished["status"] == "done", (finished, worker.log()[-3000:])
    assert finished["result"]["imported"] == 40 and _games(pool, club["id"]) == 40
