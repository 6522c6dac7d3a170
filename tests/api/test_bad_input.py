"""Bad input gets a clear 4xx problem and stores nothing; never a 500."""

import pytest

from tests.factories import Api, ClubFactory
from tests.helpers import event_count, new_pig_game

PROBLEM = "application/problem+json"


@pytest.fixture
def pig(client, pool):
    club, game, api = new_pig_game(client)
    return api, game, event_count(pool, game["id"])


def _assert_problem(response, status, code=None):
    assert response.status_code == status, response.get_json()
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["status"] == status and body["code"]
    if code:
        assert body["code"] == code
    return body


def test_malformed_json_is_a_400(client, pig, pool):
    api, game, count = pig
    r = client.post(
        f"/games/{game['id']}/actions",
        data="{not json",
        content_type="application/json",
        headers=api.headers(),
    )
    _assert_problem(r, 400, "malformed-json")
    assert event_count(pool, game["id"]) == count


def test_wrong_types_are_a_422_with_field_errors(pig, pool):
    api, game, count = pig
    body = _assert_problem(
        api.post(f"/games/{game['id']}/actions", {"seat": "zero", "command": {"type": "Roll"}}), 422
    )
    assert "seat" in body["errors"]
    assert event_count(pool, game["id"]) == count


def test_unknown_fields_are_refused(pig, pool):
    api, game, count = pig
    body = _assert_problem(
        api.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}, "x": 1}), 422
    )
    assert "x" in body["errors"]
    cmd = _assert_problem(
        api.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll", "y": 2}}),
        422,
        "invalid-command",
    )
    assert "y" in cmd["errors"]
    assert event_count(pool, game["id"]) == count


def test_an_unknown_command_is_refused(pig, pool):
    api, game, count = pig
    _assert_problem(
        api.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Cheat"}}),
        422,
        "unknown-command",
    )
    _assert_problem(api.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {}}), 422)
    assert event_count(pool, game["id"]) == count


def test_a_rule_violation_names_the_rule_and_stores_nothing(pig, pool):
    api, game, count = pig
    body = _assert_problem(
        api.post(f"/games/{game['id']}/actions", {"seat": 1, "command": {"type": "Roll"}}),
        422,
        "not-your-turn",
    )
    assert body["rule"] == "not-your-turn" and "turn" in body["detail"]
    assert event_count(pool, game["id"]) == count


def test_unknown_engines_and_games_are_clear(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    player = api.post(f"/clubs/{club['id']}/players", {"name": "A"}).get_json()
    _assert_problem(
        api.post(f"/clubs/{club['id']}/games", {"engine": "chess", "seats": [player["id"]]}),
        422,
        "unknown-engine",
    )
    _assert_problem(api.get("/games/00000000-0000-0000-0000-000000000000"), 404)
    _assert_problem(api.get("/games/not-a-uuid"), 404)
    _assert_problem(api.get("/engines/chess"), 404)


def test_bad_options_and_seat_counts_are_refused(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    p = [api.post(f"/clubs/{club['id']}/players", {"name": n}).get_json()["id"] for n in "AB"]
    _assert_problem(
        api.post(f"/clubs/{club['id']}/games", {"engine": "pig", "seats": p, "options": {"target": 1}}),
        422,
        "invalid-options",
    )
    _assert_problem(
        api.post(f"/clubs/{club['id']}/games", {"engine": "pig", "seats": p[:1]}), 422, "seat-count"
    )


def test_a_huge_body_is_a_413(pig, client, pool):
    api, game, count = pig
    r = client.post(
        f"/games/{game['id']}/actions",
        data="[" + "1," * 300_000 + "1]",
        content_type="application/json",
        headers=api.headers(),
    )
    _assert_problem(r, 413)
    assert event_count(pool, game["id"]) == count


def test_chance_is_not_submitted_in_a_server_dealt_game(pig, pool):
    api, game, count = pig
    _assert_problem(
        api.post(
            f"/games/{game['id']}/actions", {"seat": None, "command": {"type": "ResolveRoll", "dice": [6]}}
        ),
        403,
        "server-deals",
    )
    assert event_count(pool, game["id"]) == count


def test_options_that_do_not_fit_the_seats_are_refused_and_create_nothing(client, pool):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    p = [api.post(f"/clubs/{club['id']}/players", {"name": n}).get_json()["id"] for n in "ABC"]
    body = {"engine": "house-of-cronies", "seats": p, "options": {"first_speaker": 3}}
    _assert_problem(api.post(f"/clubs/{club['id']}/games", body), 422, "first-speaker-not-a-seat")
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == 0


def test_text_with_a_nul_character_is_refused_not_a_500(client, pig, pool):
    api, game, count = pig
    club = ClubFactory(client=client)
    admin = Api(client, club["admin_token"])
    _assert_problem(admin.post(f"/clubs/{club['id']}/players", {"name": "Ann\x00"}), 422, "nul-character")
    _assert_problem(
        api.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}, "\x00": 1}),
        422,
        "nul-character",
    )
    assert event_count(pool, game["id"]) == count


def test_a_player_takes_one_seat_of_a_game(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    ann = api.post(f"/clubs/{club['id']}/players", {"name": "Ann"}).get_json()["id"]
    body = {"engine": "pig", "seats": [ann, ann]}
    _assert_problem(api.post(f"/clubs/{club['id']}/games", body), 422, "player-seated-twice")


@pytest.mark.parametrize(
    "path",
    [
        "/clubs/{club}/catalogs/a%00b/x/1",
        "/clubs/{club}/catalogs/house-of-cronies/a%00b/1",
        "/clubs/{club}/catalogs/house-of-cronies/%ED%A0%80/1",
        "/leagues/{league}/standings?player=%00",
    ],
)
def test_a_nul_or_surrogate_in_a_path_or_query_is_a_4xx(client, path):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    league = api.post(f"/clubs/{club['id']}/leagues", {"name": "L"}).get_json()
    response = api.get(path.format(club=club["id"], league=league["id"]))
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)[:300]
