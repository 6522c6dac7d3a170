"""Whole games of Final Decrees recorded through the REST API (needs the test database)."""

import copy
import random
from uuid import UUID

import pytest

from service.records.club.catalogs import default_catalog
from service.records.recording import games, states
from tests.factories import Api, ClubFactory, GameFactory


def all_events(api, gid):
    events, after = [], 0
    while after is not None:
        page = api.get(f"/games/{gid}/events?limit=1000&after_version={after}").get_json()
        events.extend(page["events"])
        after = page["next_after_version"]
    return events


def new_game(client, seats, dealer, **extra):
    club = ClubFactory(client=client)
    game = GameFactory(
        client=client, club=club, engine="final-decrees", options={}, seats=seats, dealer=dealer, **extra
    )
    return club, game


@pytest.mark.parametrize("seats", [4, 5])
@pytest.mark.parametrize("dealer", ["server", "table"])
def test_a_club_records_a_whole_game_of_final_decrees(client, pool, seats, dealer):
    rng = random.Random(seats)
    club, game = new_game(client, seats, dealer)
    assert game["catalog"] == {
        "kind": "final-decrees",
        "id": "final-decrees-default",
        "version": 1,
        "club": None,
    }
    recorder = Api(client, club["admin_token"])
    tokens = [Api(client, t["token"]) for t in game["seat_tokens"]]
    gid = game["id"]
    for _ in range(3000):
        legal = recorder.get(f"/games/{gid}/legal-actions").get_json()
        if not legal["seats"]:
            break
        choices = [a for actions in legal["seats"].values() for a in actions]
        # Trades are offered by every seat at every moment; keep them to a fifth of the choices.
        quiet = [a for a in choices if not a["command"]["type"].endswith("Trade")]
        action = rng.choice(quiet if quiet and rng.random() < 0.8 else choices)
        seat = action["seat"]
        api = recorder if seat is None else tokens[seat]
        r = api.post(f"/games/{gid}/actions", {**action, "expected_version": legal["version"]})
        assert r.status_code == 201, (action, r.get_json())
    final = recorder.get(f"/games/{gid}").get_json()
    assert final["status"] == "finished"
    assert final["outcome"]["ended_by"] in ("deck-exhausted", "all-decrees-enacted")
    assert 1 in final["outcome"]["places"]
    kinds = {e["type"] for e in all_events(recorder, gid)}
    assert {"BidsRevealed", "DepartmentsAssigned", "HandsDealt", "TurnStarted", "GameDecided"} <= kinds
    with pool.connection() as conn:
        g = games.get_game(conn, UUID(gid))
        assert states.load_state(conn, g, use_snapshots=False) == states.load_state(conn, g)


def test_a_seat_sees_its_own_card_and_bid_and_nobody_elses(client):
    club, game = new_game(client, 5, "server")
    gid = game["id"]
    seat0 = Api(client, game["seat_tokens"][0]["token"])
    seat1 = Api(client, game["seat_tokens"][1]["token"])
    r = seat0.post(f"/games/{gid}/actions", {"seat": 0, "command": {"type": "PlaceBid", "amount": 6}})
    assert r.status_code == 201, r.get_json()
    bids = [e for e in all_events(seat1, gid) if e["type"] == "BidPlaced"]
    assert bids and "amount" not in bids[-1]["data"]
    assert seat1.get(f"/games/{gid}").get_json()["state"]["bid_made"][0] is True
    r = seat0.post(f"/games/{gid}/actions", {"seat": 1, "command": {"type": "PlaceBid", "amount": 2}})
    assert r.status_code == 403


def test_a_bad_command_is_a_problem_naming_the_rule(client):
    club, game = new_game(client, 4, "server")
    seat0 = Api(client, game["seat_tokens"][0]["token"])
    posts = ["human-resources", "executive", "treasury", "admiralty"]
    r = seat0.post(
        f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "AssignDepartments", "posts": posts}}
    )
    assert r.status_code == 422 and r.get_json()["code"] == "not-assigning-now"
    assert seat0.get(f"/games/{game['id']}").get_json()["version"] == game["version"]


def test_a_club_registers_a_catalog_and_an_effect_the_engine_cannot_run_is_refused(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    catalog = copy.deepcopy(default_catalog("final-decrees"))
    catalog.update(id="printed", version=1, reconstruction=False)
    catalog["cards"][0]["effect"] = [{"op": "unstamp-step"}]
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": "final-decrees", "content": catalog})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid-catalog"
    catalog["cards"][0]["effect"] = [{"op": "gain-actions", "amount": 3}]
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": "final-decrees", "content": catalog})
    assert r.status_code == 201, r.get_json()
