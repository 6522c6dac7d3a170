"""A club's event feed: every event of its games by global position, for
followers that must never miss one."""

from tests.factories import Api, ClubFactory, GameFactory


def test_the_feed_interleaves_the_clubs_games_in_position_order_and_pages_without_gaps(client):
    club, other = ClubFactory(client=client), ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    first = GameFactory(client=client, club=club)
    GameFactory(client=client, club=other)
    second = GameFactory(client=client, club=club)
    for game in (first, second, first):
        api.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    seen, after = [], 0
    while True:
        page = api.get(f"/clubs/{club['id']}/events?after_position={after}&limit=2").get_json()
        if not page["events"]:
            break
        seen.extend(page["events"])
        after = page["next_after_position"]
    positions = [e["position"] for e in seen]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    assert {e["game"] for e in seen} == {first["id"], second["id"]}
    for game in (first, second):
        versions = [e["version"] for e in seen if e["game"] == game["id"]]
        assert versions == list(range(1, len(versions) + 1))
        log = api.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
        assert len(versions) == len(log)


def test_the_feed_streams_as_ndjson_and_is_for_the_clubs_admin_only(client):
    club, other = ClubFactory(client=client), ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    api = Api(client, club["admin_token"])
    lines = (
        api.get(f"/clubs/{club['id']}/events", Accept="application/x-ndjson")
        .get_data(as_text=True)
        .splitlines()
    )
    assert lines and all('"game": "' + game["id"] + '"' in line for line in lines)
    assert Api(client, other["admin_token"]).get(f"/clubs/{club['id']}/events").status_code == 404
    assert Api(client, game["seat_tokens"][0]["token"]).get(f"/clubs/{club['id']}/events").status_code == 403
