"""Whole games of MacCreedy's Mansion recorded through the REST API (needs the test database)."""

import copy
import random

import pytest

from service.records.club.catalogs import default_catalog
from tests.factories import Api, ClubFactory, GameFactory, PlayerFactory


def post(api, gid, action):
    response = api.post(f"/games/{gid}/actions", action)
    assert response.status_code == 201, (action, response.get_json())


def all_events(api, gid):
    events, after = [], 0
    while after is not None:
        page = api.get(f"/games/{gid}/events?limit=1000&after_version={after}").get_json()
        events.extend(page["events"])
        after = page["next_after_version"]
    return events


def play(client, seats, dealer, seed, options):
    rng = random.Random(seed)
    club = ClubFactory(client=client)
    game = GameFactory(
        client=client, club=club, engine="maccreedys-mansion", options=options, seats=seats, dealer=dealer
    )
    recorder = Api(client, club["admin_token"])
    players = [Api(client, t["token"]) for t in game["seat_tokens"]]
    gid = game["id"]
    for _ in range(3000):
        if recorder.get(f"/games/{gid}").get_json()["status"] != "active":
            break
        legal = recorder.get(f"/games/{gid}/legal-actions").get_json()["seats"]
        action = rng.choice([a for actions in legal.values() for a in actions])
        seat = action["seat"]
        post(recorder if seat is None else players[seat], gid, action)
    return recorder, gid


@pytest.mark.parametrize("dealer", ["server", "table"])
@pytest.mark.parametrize("seats", [2, 5])
def test_a_club_records_a_game_of_maccreedys_mansion_to_the_end(client, seats, dealer):
    # A whole game, kept short by the house rule: two rounds for two companies, one for five.
    recorder, gid = play(client, seats, dealer, seed=seats, options={"max_rounds": 2 if seats == 2 else 1})
    final = recorder.get(f"/games/{gid}").get_json()
    assert final["status"] == "finished"
    assert final["outcome"]["ended_by"] in ("round-limit", "mansion-restored", "last-company-standing")
    assert 1 in final["outcome"]["places"] and len(final["outcome"]["places"]) == seats
    kinds = [e["type"] for e in all_events(recorder, gid)]
    assert "GameDecided" in kinds and "EventRevealed" in kinds and "PhaseBegan" in kinds


def test_the_game_view_names_the_board_and_marks_it_as_a_reconstruction(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, engine="maccreedys-mansion", options={}, seats=2)
    view = Api(client, club["admin_token"]).get(f"/games/{game['id']}").get_json()
    board = default_catalog("maccreedys-mansion")
    assert view["state"]["catalog"] == {
        "id": board["id"],
        "version": board["version"],
        "reconstruction": True,
    }
    assert view["state"]["max_rounds"] == 20 and "job_deck" not in view["state"]


def test_a_club_registers_its_own_board_and_a_board_with_an_unknown_effect_is_refused(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    board = copy.deepcopy(default_catalog("maccreedys-mansion"))
    board.update(id="printed-mansion", version=1, reconstruction=False)
    board["workers"][4]["resource"] = "wiring"
    bad = copy.deepcopy(board)
    bad["events"][0]["effect"] = [{"op": "summon-ghost"}]
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": "maccreedys-mansion", "content": bad})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid-catalog"
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": "maccreedys-mansion", "content": board})
    assert r.status_code == 201, r.get_json()
    players = [PlayerFactory(client=client, club=club)["id"] for _ in range(2)]
    game = api.post(
        f"/clubs/{club['id']}/games",
        {
            "engine": "maccreedys-mansion",
            "seats": players,
            "options": {"covered_rooms": ["ballroom"]},
            "catalog": {"id": "printed-mansion", "version": 1},
        },
    ).get_json()
    assert game["catalog"]["id"] == "printed-mansion"
    view = api.get(f"/games/{game['id']}").get_json()["state"]
    assert view["catalog"]["reconstruction"] is False and view["covered"] == ["ballroom"]


def test_options_that_do_not_fit_the_board_are_refused(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club)["id"] for _ in range(2)]
    r = api.post(
        f"/clubs/{club['id']}/games",
        {"engine": "maccreedys-mansion", "seats": players, "options": {"covered_rooms": ["kitchen"]}},
    )
    assert r.status_code == 422 and r.get_json()["code"] == "room-not-coverable"


def test_the_default_board_is_served_and_marked_as_a_reconstruction(client):
    r = client.get("/engines/maccreedys-mansion/catalog")
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["kind"] == "maccreedys-mansion" and body["reconstruction"] is True and body["note"]
    assert body["content"]["rooms"] and body["content"]["jobs"] and body["content"]["haunts"]
    assert client.get("/engines/pig/catalog").status_code == 404


def test_the_legal_actions_give_the_numbers_a_seat_may_post_and_any_of_them_is_taken(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, engine="maccreedys-mansion", seats=2, options={})
    recorder = Api(client, club["admin_token"])
    legal = recorder.get(f"/games/{game['id']}/legal-actions").get_json()
    (seat, amounts), *others = legal["amounts"].items()
    assert not others, "only the seat whose turn it is"
    stone = next(a for a in amounts if a["command"] == {"type": "BuyResources", "resource": "stone"})
    assert (stone["field"], stone["low"], stone["high"], stone["step"]) == ("count", 1, 1000, 1)
    assert stone["words"] == "Buy how many stone?"
    waiting = Api(client, game["seat_tokens"][1 - int(seat)]["token"])
    assert waiting.get(f"/games/{game['id']}/legal-actions").get_json()["amounts"] == {}, (
        "a seat sees its own"
    )
    post(recorder, game["id"], {"seat": int(seat), "command": {**stone["command"], "count": 7}})
    bought = recorder.get(f"/games/{game['id']}/events?after_version={legal['version']}").get_json()[
        "events"
    ][0]
    assert bought["data"]["count"] == 7
