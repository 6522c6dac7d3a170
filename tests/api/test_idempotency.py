"""Idempotency-Key: a retry returns the first answer and appends nothing."""

from concurrent.futures import ThreadPoolExecutor
from uuid import UUID

from service.records.access import Principal
from service.records.log.context import Records
from service.records.recording import acting, idempotency
from tests.helpers import event_count, new_pig_game

ROLL = {"seat": 0, "command": {"type": "Roll"}}


def test_a_retry_with_the_same_key_returns_the_first_answer(client, pool):
    _, game, api = new_pig_game(client)
    first = api.post(f"/games/{game['id']}/actions", ROLL, **{"Idempotency-Key": "k1"})
    count = event_count(pool, game["id"])
    again = api.post(f"/games/{game['id']}/actions", ROLL, **{"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert event_count(pool, game["id"]) == count


def test_ten_copies_at_once_append_once(app, client, pool):
    club, game, _ = new_pig_game(client)
    before = event_count(pool, game["id"])

    def post(_):
        with app.test_client() as c:
            r = c.post(
                f"/games/{game['id']}/actions",
                json=ROLL,
                headers={"Authorization": f"Bearer {club['admin_token']}", "Idempotency-Key": "same"},
            )
            return r.status_code, r.get_json()

    with ThreadPoolExecutor(10) as ex:
        results = list(ex.map(post, range(10)))
    assert {s for s, _ in results} == {201}
    assert len({str(b) for _, b in results}) == 1
    appended = len(results[0][1]["events"])
    assert event_count(pool, game["id"]) == before + appended


def test_a_retry_after_the_first_connection_died_after_its_commit(client, pool):
    """The first request committed but its caller never saw the answer."""
    club, game, api = new_pig_game(client)
    principal = Principal(UUID(club["id"]), "admin")
    committed = acting.act(
        Records(pool, 10),
        UUID(game["id"]),
        principal,
        0,
        {"type": "Roll"},
        idempotency_key="lost-answer",
        body_hash=idempotency.request_hash(ROLL),
        request_id="r1",
    )
    count = event_count(pool, game["id"])
    retry = api.post(f"/games/{game['id']}/actions", ROLL, **{"Idempotency-Key": "lost-answer"})
    assert retry.status_code == 201
    assert retry.get_json() == committed.body
    assert event_count(pool, game["id"]) == count


def test_the_same_key_with_another_body_is_refused(client, pool):
    _, game, api = new_pig_game(client)
    api.post(f"/games/{game['id']}/actions", ROLL, **{"Idempotency-Key": "k2"})
    count = event_count(pool, game["id"])
    other = api.post(
        f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Hold"}}, **{"Idempotency-Key": "k2"}
    )
    assert other.status_code == 422
    assert other.get_json()["code"] == "idempotency-key-reused"
    assert event_count(pool, game["id"]) == count


def test_a_rejected_action_does_not_burn_its_key(client, pool):
    _, game, api = new_pig_game(client)
    rejected = api.post(
        f"/games/{game['id']}/actions", {"seat": 1, "command": {"type": "Roll"}}, **{"Idempotency-Key": "k3"}
    )
    assert rejected.status_code == 422
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM idempotency_keys").fetchone()["n"] == 0
