"""Whole games out and in: an export imports as it is, into any club, and
gives the same events (apart from ids and times) and the same state; an
import stores all or nothing."""

import random

import pytest

from engines import registry
from tests.factories import Api, ClubFactory, GameFactory, PlayerFactory

STEPS = 150


def _play(api, game_id, rng, steps=STEPS):
    for _ in range(steps):
        legal = api.get(f"/games/{game_id}/legal-actions").get_json()
        choices = [action for actions in legal["seats"].values() for action in actions]
        if not choices:
            return
        r = api.post(f"/games/{game_id}/actions", rng.choice(choices))
        assert r.status_code == 201, r.get_json()


def _new_game(client, engine_id, dealer):
    club = ClubFactory(client=client)
    engine = registry.get(engine_id)
    game = GameFactory(
        client=client,
        club=club,
        engine=engine_id,
        options=dict(registry.game(engine_id).trial.options),
        dealer=dealer,
        seats=engine.min_seats,
    )
    return club, game, Api(client, club["admin_token"])


def _facts(api, game_id):
    """The game's live events as facts: type and data, ids and times aside."""
    events = api.get(f"/games/{game_id}/events?limit=1000").get_json()["events"]
    live = []
    for event in events:
        if event["type"] == "ActionsRetracted":
            live = [e for e in live if e["version"] <= event["data"]["to_version"]]
        else:
            live.append(event)
    facts = []
    for event in live:
        data = dict(event["data"])
        if event["type"] == "GameCreated":
            data.pop("club"), data.pop("league"), data.pop("seats")  # ids of this club
            data.pop("played_at", None)  # a time: a finished copy keeps the day the original was played
        facts.append((event["type"], data))
    return facts


def _round_trip(client, api, game_id):
    document = api.get(f"/games/{game_id}/export").get_json()
    other = ClubFactory(client=client)
    imported = Api(client, other["admin_token"]).post(f"/clubs/{other['id']}/games/import", document)
    assert imported.status_code == 201, imported.get_json()
    return document, other, imported.get_json()


@pytest.mark.parametrize("dealer", ["server", "table"])
@pytest.mark.parametrize("engine_id", registry.available())
def test_an_export_imports_as_the_same_game(client, engine_id, dealer):
    club, game, api = _new_game(client, engine_id, dealer)
    _play(api, game["id"], random.Random(11))
    document, other, copy = _round_trip(client, api, game["id"])
    theirs = Api(client, other["admin_token"])
    assert copy["engine"] == engine_id and copy["status"] == document["status"]
    assert [s["name"] for s in copy["seats"]] == [s["name"] for s in document["seats"]]
    assert _facts(theirs, copy["id"]) == _facts(api, game["id"])
    original = api.get(f"/games/{game['id']}").get_json()
    again = theirs.get(f"/games/{copy['id']}").get_json()
    assert again["state"] == original["state"] and again["outcome"] == original["outcome"]
    assert theirs.get(f"/games/{copy['id']}/export").get_json()["commands"] == document["commands"]


def test_retracted_actions_are_left_out_of_an_export(client):
    club, game, api = _new_game(client, "pig", "table")
    _play(api, game["id"], random.Random(3), steps=12)
    kept = api.get(f"/games/{game['id']}").get_json()["version"]
    _play(api, game["id"], random.Random(4), steps=6)
    assert api.post(f"/games/{game['id']}/retract", {"to_version": kept}).status_code == 201
    document, other, copy = _round_trip(client, api, game["id"])
    assert _facts(Api(client, other["admin_token"]), copy["id"]) == _facts(api, game["id"])
    assert copy["version"] < api.get(f"/games/{game['id']}").get_json()["version"]


def _counts(pool):
    with pool.connection() as conn:
        return conn.execute(
            "SELECT (SELECT count(*) FROM games) g, (SELECT count(*) FROM events) e"
        ).fetchone()


def test_an_import_with_a_refused_command_stores_nothing_and_names_it(client, pool):
    club, game, api = _new_game(client, "pig", "table")
    _play(api, game["id"], random.Random(5), steps=10)
    document = api.get(f"/games/{game['id']}/export").get_json()
    broken = {**document, "commands": [*document["commands"][:4], {"seat": 1, "command": {"type": "Hold"}}]}
    before = _counts(pool)
    r = api.post(f"/clubs/{club['id']}/games/import", broken)
    problem = r.get_json()
    assert r.status_code == 422 and problem["code"] == "command-refused", problem
    assert problem["index"] == 4 and problem["rule"]
    assert _counts(pool) == before


def test_an_import_whose_commands_miss_its_outcome_is_refused(client, pool):
    club, game, api = _new_game(client, "pig", "table")
    _play(api, game["id"], random.Random(6), steps=400)
    document = api.get(f"/games/{game['id']}/export").get_json()
    assert document["outcome"]["finished"]
    wrong = {**document, "outcome": {**document["outcome"], "places": document["outcome"]["places"][::-1]}}
    before = _counts(pool)
    r = api.post(f"/clubs/{club['id']}/games/import", wrong)
    assert r.status_code == 422 and r.get_json()["code"] == "outcome-mismatch"
    assert _counts(pool) == before


def test_an_import_is_idempotent_under_its_key(client, pool):
    club, game, api = _new_game(client, "pig", "table")
    _play(api, game["id"], random.Random(8), steps=10)
    document = api.get(f"/games/{game['id']}/export").get_json()
    first = api.post(f"/clubs/{club['id']}/games/import", document, **{"Idempotency-Key": "paper-7"})
    before = _counts(pool)
    again = api.post(f"/clubs/{club['id']}/games/import", document, **{"Idempotency-Key": "paper-7"})
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()  # the same game, with the same seat tokens
    assert _counts(pool) == before
    other = api.post(
        f"/clubs/{club['id']}/games/import", {**document, "public": True}, **{"Idempotency-Key": "paper-7"}
    )
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency-key-reused"


def test_a_game_from_paper_seats_the_clubs_players_by_name(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    ann = PlayerFactory(client=client, club=club, name="Ann")
    document = {
        "engine": "pig",
        "seats": [{"name": "Ann"}, {"name": "Bob"}],
        "commands": [
            {"seat": 0, "command": {"type": "Roll"}},
            {"seat": None, "command": {"type": "ResolveRoll", "dice": [4]}},
            {"seat": 0, "command": {"type": "Hold"}},
        ],
    }
    r = api.post(f"/clubs/{club['id']}/games/import", document)
    assert r.status_code == 201, r.get_json()
    game = r.get_json()
    assert game["seats"][0]["player"] == ann["id"] and game["seats"][1]["name"] == "Bob"
    assert game["dealer"] == "table" and game["status"] == "active"
    assert api.get(f"/games/{game['id']}").get_json()["state"]["scores"] == [4, 0]


def test_a_live_games_export_is_for_its_recorder_only(client):
    club, game, api = _new_game(client, "pig", "table")
    seat = Api(client, game["seat_tokens"][0]["token"])
    assert seat.get(f"/games/{game['id']}/export").status_code == 403
    assert Api(client).get(f"/games/{game['id']}/export").status_code == 401


def _seed_of(pool, game_id):
    with pool.connection() as conn:
        return conn.execute("SELECT seed FROM games WHERE id = %s", (game_id,)).fetchone()["seed"]


@pytest.mark.parametrize("engine_id", registry.available())
def test_a_document_that_says_finished_must_replay_to_an_end(client, pool, engine_id):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    engine = registry.get(engine_id)
    document = {
        "engine": engine_id,
        "seats": [{"name": f"P{i}"} for i in range(engine.min_seats)],
        "dealer": "server",
        "seed": "chosen-by-the-importer",
        "status": "finished",
        "commands": [],
    }
    before = _counts(pool)
    r = api.post(f"/clubs/{club['id']}/games/import", document)
    assert r.status_code == 422 and r.get_json()["code"] == "status-mismatch", r.get_json()
    assert _counts(pool) == before


def test_a_live_imported_game_deals_from_a_seed_nobody_knows(client, pool):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    document = {
        "engine": "pig",
        "seats": [{"name": "Ann"}, {"name": "Bob"}],
        "dealer": "server",
        "seed": "chosen-by-the-importer",
        "commands": [],
    }
    for status in (None, "active"):
        r = api.post(f"/clubs/{club['id']}/games/import", {**document, "status": status})
        assert r.status_code == 201, r.get_json()
        assert r.get_json()["status"] == "active"
        assert _seed_of(pool, r.get_json()["id"]) != "chosen-by-the-importer"


def test_an_ended_games_document_keeps_its_seed(client, pool):
    club, game, api = _new_game(client, "pig", "server")
    _play(api, game["id"], random.Random(3), steps=400)
    document = api.get(f"/games/{game['id']}/export").get_json()
    assert document["status"] == "finished" and document["seed"]
    _, other, imported = _round_trip(client, api, game["id"])
    assert _seed_of(pool, imported["id"]) == document["seed"]


def test_a_retried_import_gets_its_seat_tokens_again_and_the_recorder_may_replace_them(client, pool):
    club, game, api = _new_game(client, "pig", "server")
    document = {"engine": "pig", "seats": [{"name": "Ann"}, {"name": "Bob"}], "dealer": "server"}
    first = api.post(f"/clubs/{club['id']}/games/import", document, **{"Idempotency-Key": "lost-answer"})
    again = api.post(f"/clubs/{club['id']}/games/import", document, **{"Idempotency-Key": "lost-answer"})
    assert again.get_json()["seat_tokens"] == first.get_json()["seat_tokens"]
    imported = again.get_json()["id"]
    lost = first.get_json()["seat_tokens"][0]["token"]
    assert Api(client, lost).post(f"/games/{imported}/seat-tokens").status_code == 403
    reissued = api.post(f"/games/{imported}/seat-tokens")
    assert reissued.status_code == 201, reissued.get_json()
    tokens = reissued.get_json()["seat_tokens"]
    assert [t["seat"] for t in tokens] == [0, 1] and all(t["token"] != lost for t in tokens)
    seat = Api(client, tokens[0]["token"])
    assert (
        seat.post(f"/games/{imported}/actions", {"seat": 0, "command": {"type": "Roll"}}).status_code == 201
    )
    assert (
        Api(client, first.get_json()["seat_tokens"][1]["token"]).get(f"/games/{imported}").status_code == 401
    )
    other = ClubFactory(client=client)
    assert Api(client, other["admin_token"]).post(f"/games/{imported}/seat-tokens").status_code == 404
