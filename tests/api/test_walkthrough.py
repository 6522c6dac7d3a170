from tests.factories import Api, ClubFactory, GameFactory


def test_a_club_records_a_pig_game_to_the_end_and_replays_it(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    api = Api(client, club["admin_token"])
    seat_api = [Api(client, t["token"]) for t in game["seat_tokens"]]
    gid = game["id"]
    for _ in range(500):
        view = api.get(f"/games/{gid}").get_json()
        if view["status"] != "active":
            break
        seat = view["state"]["turn"]
        kind = "Hold" if view["state"]["turn_total"] >= 6 else "Roll"
        response = seat_api[seat].post(f"/games/{gid}/actions", {"seat": seat, "command": {"type": kind}})
        assert response.status_code == 201, response.get_json()
    final = api.get(f"/games/{gid}").get_json()
    assert final["status"] == "finished"
    assert final["outcome"]["finished"] and 1 in final["outcome"]["places"]
    assert final["seed"]
    events = api.get(f"/games/{gid}/events?limit=1000").get_json()["events"]
    assert events[0]["type"] == "GameCreated" and events[-1]["type"] == "GameEnded"
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
