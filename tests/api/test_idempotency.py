"""Idempotency-Key: a retry returns the first answer and appends nothing."""

from concurrent.futures import ThreadPoolExecutor
from uuid import UUID

from service.records.access import Principal
from service.records.log.context import Records
from service.records.recording import acting, idempotency
from tests.factories import Api
from tests.helpers import event_count, new_pig_game
from tests.web.helpers import table_game

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
    answered = retry.get_json()
    assert answered.pop("log_position") == int(retry.headers["Log-Position"])
    assert answered == committed.body
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


def _dealt_to_another(client):
    """A table game of Chancellors waiting for the cards dealt to a seat, the
    recorder's API, that draw's entry and a member sign-in of another seat."""
    club, players, _, game = table_game(client, seats=3, league=False, target=10)
    recorder = Api(client, club["admin_token"])
    for _ in range(30):
        view = recorder.get(f"/games/{game['id']}").get_json()
        legal = recorder.get(f"/games/{game['id']}/legal-actions").get_json()
        entry = legal["seats"]["dealer"][0]
        if view["waiting_for_chance"]["dealt_to"] is not None:
            other = (view["waiting_for_chance"]["dealt_to"] + 1) % len(players)
            member = recorder.post(f"/clubs/{club['id']}/players/{players[other]['id']}/sign-in")
            return game, recorder, entry, Api(client, member.get_json()["token"])
        assert recorder.post(f"/games/{game['id']}/actions", entry).status_code == 201
    raise AssertionError("no seat's cards were awaited")


def test_a_key_belongs_to_the_token_that_used_it_and_confirms_nothing_to_another(client, pool):
    """The recorder enters a seat's cards under a key; another seat's member
    sending the same key, with those cards or a guess, is judged as a first
    request (refused alike), never answered from the recorder's."""
    game, recorder, entry, member = _dealt_to_another(client)
    assert (
        recorder.post(f"/games/{game['id']}/actions", entry, **{"Idempotency-Key": "deal-1"}).status_code
        == 201
    )
    count = event_count(pool, game["id"])
    guess = {
        **entry,
        "command": {**entry["command"], "cards": ["nonexistent"] * len(entry["command"]["cards"])},
    }
    answers = []
    for body in (entry, guess):
        answer = member.post(f"/games/{game['id']}/actions", body, **{"Idempotency-Key": "deal-1"})
        assert answer.status_code in (403, 422), answer.get_json()
        assert "Idempotent-Replayed" not in answer.headers
        answers.append((answer.status_code, answer.get_json()["code"]))
    assert answers[0] == answers[1] and answers[0][1] != "idempotency-key-reused"
    assert event_count(pool, game["id"]) == count
    again = recorder.post(f"/games/{game['id']}/actions", entry, **{"Idempotency-Key": "deal-1"})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
