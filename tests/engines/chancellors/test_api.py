"""A whole game of Chancellors recorded through the REST API (needs the test database)."""

import random

import pytest

from tests.factories import Api, ClubFactory, GameFactory


def post(api, gid, action):
    response = api.post(f"/games/{gid}/actions", action)
    assert response.status_code == 201, response.get_json()


def all_events(api, gid):
    events, after = [], 0
    while after is not None:
        page = api.get(f"/games/{gid}/events?limit=1000&after_version={after}").get_json()
        events.extend(page["events"])
        after = page["next_after_version"]
    return events


@pytest.mark.parametrize("dealer", ["server", "table"])
def test_a_club_records_a_game_of_chancellors_to_the_end(client, dealer):
    rng = random.Random(7)
    club = ClubFactory(client=client)
    game = GameFactory(
        client=client, club=club, engine="chancellors", options={"target": 40}, seats=3, dealer=dealer
    )
    recorder = Api(client, club["admin_token"])
    seats = [Api(client, t["token"]) for t in game["seat_tokens"]]
    gid = game["id"]
    for _ in range(3000):
        view = recorder.get(f"/games/{gid}").get_json()
        if view["status"] != "active":
            break
        legal = recorder.get(f"/games/{gid}/legal-actions").get_json()["seats"]
        action = rng.choice([a for actions in legal.values() for a in actions])
        seat = action["seat"]
        post(recorder if seat is None else seats[seat], gid, action)
    final = recorder.get(f"/games/{gid}").get_json()
    assert final["status"] == "finished"
    assert final["outcome"]["ended_by"] in ("target-score", "catastrophe")
    assert 1 in final["outcome"]["places"]
    kinds = [e["type"] for e in all_events(recorder, gid)]
    assert "GameDecided" in kinds and "CardsRevealed" in kinds


def test_a_seat_sees_its_own_hand_and_nobody_elses(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, engine="chancellors", options={}, seats=2)
    gid = game["id"]
    seat0 = Api(client, game["seat_tokens"][0]["token"])
    state = seat0.get(f"/games/{gid}").get_json()["state"]
    assert state["phase"] == "choose" and len(state["hand"]) == 3
    assert state["hand_sizes"] == [3, 3]
    assert "hands" not in state
    card = state["hand"][0]
    post(seat0, gid, {"seat": 0, "command": {"type": "ChooseCard", "card": card}})
    events = all_events(Api(client, game["seat_tokens"][1]["token"]), gid)
    chosen = [e for e in events if e["type"] == "CardChosen"]
    assert chosen and "card" not in chosen[-1]["data"]


def test_the_event_log_shows_a_seat_its_own_draws_only(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, engine="chancellors", options={}, seats=2, public=True)
    gid = game["id"]
    dealt_to = {}
    for seat in (0, 1):
        events = all_events(Api(client, game["seat_tokens"][seat]["token"]), gid)
        dealt_to[seat] = {e["data"]["player"]: e["data"] for e in events if e["type"] == "CardsDealt"}
    for seat in (0, 1):
        assert len(dealt_to[seat][seat]["cards"]) == 3
        assert "cards" not in dealt_to[seat][1 - seat]
    spectator = all_events(Api(client), gid)
    assert all("cards" not in e["data"] for e in spectator if e["type"] == "CardsDealt")


def test_the_recorder_sees_a_server_dealt_game_as_a_spectator_unless_it_names_a_seat(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, engine="chancellors", options={}, seats=2)
    gid = game["id"]
    recorder = Api(client, club["admin_token"])
    spectator_view = recorder.get(f"/games/{gid}").get_json()
    assert spectator_view["viewer"] is None and "hand" not in spectator_view["state"]
    as_seat = recorder.get(f"/games/{gid}?seat=1").get_json()
    assert as_seat["viewer"] == 1 and len(as_seat["state"]["hand"]) == 3
    assert recorder.get(f"/games/{gid}?seat=2").get_json()["code"] == "no-such-seat"
    seat0 = Api(client, game["seat_tokens"][0]["token"])
    assert seat0.get(f"/games/{gid}?seat=1").status_code == 403
