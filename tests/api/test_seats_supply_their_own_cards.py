"""At a table, a player may enter the cards dealt into their own hand on their
own phone (their seat token); never another seat's, never a public chance.
A refused entry stores nothing. Walked through a table game of every engine."""

from __future__ import annotations

import pytest

from engines import registry
from tests.factories import Api
from tests.helpers import event_count
from tests.web.helpers import table_game

HANDS = {"chancellors", "house-of-cronies", "political-divide-and-conquer", "final-decrees"}


def _refused(api, gid, entry, pool) -> str:
    before = event_count(pool, gid)
    response = api.post(f"/games/{gid}/actions", entry)
    assert response.status_code == 403, response.get_json()
    assert event_count(pool, gid) == before
    return response.get_json()["code"]


@pytest.mark.parametrize("engine_id", registry.available())
def test_a_seat_enters_its_own_cards_and_nobody_else_s(client, pool, engine_id):
    trial = registry.game(engine_id).trial
    options, seats = dict(trial.options), trial.seats
    club, _, _, game = table_game(client, engine=engine_id, seats=seats, league=False, **options)
    gid = game["id"]
    recorder = Api(client, club["admin_token"])
    token = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    own = public = 0
    for k in range(400):
        view = recorder.get(f"/games/{gid}").get_json()
        if view["status"] != "active" or (own and public):
            break
        legal = recorder.get(f"/games/{gid}/legal-actions").get_json()
        chance = view["waiting_for_chance"]
        if chance is not None:
            entry = {**legal["seats"]["dealer"][0], "expected_version": legal["version"]}
            dealt_to = chance["dealt_to"]
            others = [s for s in range(seats) if s != dealt_to]
            refused = _refused(Api(client, token[others[0]]), gid, entry, pool)
            assert refused == ("recorder-only" if dealt_to is None else "not-your-cards")
            if dealt_to is None:
                public += 1
            else:
                own += 1
                response = Api(client, token[dealt_to]).post(f"/games/{gid}/actions", entry)
                assert response.status_code == 201, response.get_json()
                continue
        options_now = [c for commands in legal["seats"].values() for c in commands]
        option = options_now[k % len(options_now)]
        assert (
            recorder.post(
                f"/games/{gid}/actions", {**option, "expected_version": legal["version"]}
            ).status_code
            == 201
        )
    assert public, "a public chance was met"
    assert bool(own) == (engine_id in HANDS)


def test_a_recorder_who_sees_only_public_information_may_not_enter_a_player_s_cards(client, pool):
    club, _, _, game = table_game(client, seats=3, league=False, target=10)
    gid = game["id"]
    club_game = Api(client, club["admin_token"])
    response = club_game.post(
        f"/clubs/{club['id']}/games",
        {
            "engine": "chancellors",
            "seats": [s["player"] for s in game["seats"]],
            "dealer": "table",
            "options": {"target": 10},
            "admin_spectator": True,
        },
    )
    assert response.status_code == 201, response.get_json()
    sealed = response.get_json()
    gid = sealed["id"]
    for _ in range(50):
        view = club_game.get(f"/games/{gid}").get_json()
        assert view["viewer"] is None, "the recorder sees what a spectator sees"
        chance = view["waiting_for_chance"]
        legal = club_game.get(f"/games/{gid}/legal-actions").get_json()
        entry = {**legal["seats"]["dealer"][0], "expected_version": legal["version"]}
        if chance["dealt_to"] is not None:
            assert _refused(club_game, gid, entry, pool) == "sealed-from-recorder"
            return
        assert club_game.post(f"/games/{gid}/actions", entry).status_code == 201
    raise AssertionError("no player's cards were dealt")
