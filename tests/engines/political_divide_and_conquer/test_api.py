"""Whole games of Political Divide & Conquer recorded through the REST API (needs the test database)."""

import copy
import random
from uuid import UUID

import pytest

from service.records.club.catalogs import default_catalog
from service.records.recording import games, states
from tests.factories import Api, ClubFactory, GameFactory, PlayerFactory

ENGINE_ID = "political-divide-and-conquer"


def all_events(api, gid):
    events, after = [], 0
    while after is not None:
        page = api.get(f"/games/{gid}/events?limit=1000&after_version={after}").get_json()
        events.extend(page["events"])
        after = page["next_after_version"]
    return events


@pytest.mark.parametrize("dealer", ["server", "table"])
@pytest.mark.parametrize("seats", [4, 8])
def test_a_club_records_a_whole_game_to_the_end(client, pool, seats, dealer):
    rng = random.Random(seats)
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, engine=ENGINE_ID, options={}, seats=seats, dealer=dealer)
    recorder = Api(client, club["admin_token"])
    players = [Api(client, t["token"]) for t in game["seat_tokens"]]
    gid = game["id"]
    for _ in range(5000):
        legal = recorder.get(f"/games/{gid}/legal-actions").get_json()
        choices = [a for actions in legal["seats"].values() for a in actions]
        if not choices:
            break
        action = rng.choice(choices)
        seat = action["seat"]
        r = (recorder if seat is None else players[seat]).post(
            f"/games/{gid}/actions", {**action, "expected_version": legal["version"]}
        )
        assert r.status_code == 201, (action, r.get_json())
    final = recorder.get(f"/games/{gid}").get_json()
    assert final["status"] == "finished" and final["outcome"]["ended_by"] == "deck-exhausted"
    assert 1 in final["outcome"]["places"] and len(final["outcome"]["places"]) == seats
    kinds = {e["type"] for e in all_events(recorder, gid)}
    assert {"AttackRolled", "WindowClosed", "CardKept", "GameDecided"} <= kinds
    with pool.connection() as conn:
        g = games.get_game(conn, UUID(gid))
        assert states.load_state(conn, g, use_snapshots=False) == states.load_state(conn, g)


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, engine=ENGINE_ID, options={}, seats=4)
    gid = game["id"]
    seat0 = Api(client, game["seat_tokens"][0]["token"])
    state = seat0.get(f"/games/{gid}").get_json()["state"]
    assert len(state["players"][0]["hand"]) == 6
    assert all("hand" not in p and p["hand_size"] == 6 for p in state["players"][1:])
    dealt = [e for e in all_events(seat0, gid) if e["type"] == "CardsDrawn" and e["data"]["reason"] == "deal"]
    assert [("cards" in e["data"]) for e in dealt] == [True, False, False, False]


def test_a_game_records_the_default_catalog_marked_as_a_reconstruction(client):
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club)["id"] for _ in range(4)]
    api = Api(client, club["admin_token"])
    game = api.post(f"/clubs/{club['id']}/games", {"engine": ENGINE_ID, "seats": players}).get_json()
    default = default_catalog(ENGINE_ID)
    assert game["catalog"] == {
        "kind": ENGINE_ID,
        "id": default["id"],
        "version": default["version"],
        "club": None,
    }
    assert default["reconstruction"] is True and "reconstruction" in default["note"]
    assert api.get(f"/engines/{ENGINE_ID}").get_json()["catalog_kind"] == ENGINE_ID


def test_a_club_catalog_with_an_operation_the_engine_cannot_run_is_refused_at_registration(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    catalog = copy.deepcopy(default_catalog(ENGINE_ID))
    catalog.update(id="printed", version=1, reconstruction=False)
    catalog["events"][0]["effect"] = [{"op": "swap-bases"}]
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": ENGINE_ID, "content": catalog})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid-catalog"
    catalog["events"][0]["effect"] = [{"op": "draw", "n": 3}]
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": ENGINE_ID, "content": catalog})
    assert r.status_code == 201, r.get_json()
