"""Who may read the projections, waiting for one's own write, and what a
replay shows to whom (with a hidden-information variant of Pig)."""

from __future__ import annotations

import pytest

from engines import registry
from tests.conftest import OPERATOR_TOKEN
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.workers import hidden_engine
from tests.workers.helpers import drain, head, play_pig


@pytest.fixture
def hidden_pig(monkeypatch):
    """Registered before the database fixtures set up (and so until after they tear down)."""
    monkeypatch.setitem(registry.GAMES, "hidden-pig", hidden_engine.GAME)


def test_league_projections_are_public_for_public_leagues_and_for_club_tokens_otherwise(client, database_url):
    club, other = ClubFactory(client=client), ClubFactory(client=client)
    private = LeagueFactory(client=client, club=club)
    public = LeagueFactory(client=client, club=club, public=True)
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    game = GameFactory(client=client, club=club, players=players, league=private["id"])
    play_pig(client, game)
    drain(database_url)
    for path in ("standings", "statistics", "rating-history"):
        assert Api(client).get(f"/leagues/{private['id']}/{path}").status_code == 404
        assert Api(client, other["admin_token"]).get(f"/leagues/{private['id']}/{path}").status_code == 404
        assert Api(client, club["admin_token"]).get(f"/leagues/{private['id']}/{path}").status_code == 200
        assert (
            Api(client, game["seat_tokens"][0]["token"]).get(f"/leagues/{private['id']}/{path}").status_code
            == 200
        )
        assert Api(client).get(f"/leagues/{public['id']}/{path}").status_code == 200
    assert Api(client, "nonsense").get(f"/leagues/{public['id']}/standings").status_code == 401


def test_a_client_waits_for_its_own_write_with_min_position(client, database_url):
    club = ClubFactory(client=client)
    league = LeagueFactory(client=client, club=club, public=True)
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    play_pig(client, GameFactory(client=client, club=club, players=players, league=league["id"]))
    mine = head(database_url)
    api = Api(client, club["admin_token"])
    for path in (f"/leagues/{league['id']}/standings", f"/leagues/{league['id']}/statistics", "/projections"):
        response = api.get(f"{path}?min_position={mine}")
        assert response.status_code == 503, path
        problem = response.get_json()
        assert response.mimetype == "application/problem+json"
        assert problem["code"] == "projection-behind" and problem["min_position"] == mine
        assert problem["retry_after"] >= 1 and response.headers["Retry-After"] == str(problem["retry_after"])
    drain(database_url)
    body = api.get(f"/leagues/{league['id']}/standings?min_position={mine}").get_json()
    assert body["position"] >= mine and sum(r["games"] for r in body["standings"]) == 2
    fresh = api.get(f"/projections?min_position={mine}", token=OPERATOR_TOKEN).get_json()
    assert fresh["head"] == mine and all(p["behind"] == 0 for p in fresh["projections"])


def test_replays_show_each_viewer_what_it_may_see_and_a_seats_eye_replay_what_that_seat_knew(
    hidden_pig, client, database_url
):
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    game = GameFactory(
        client=client, club=club, players=players, engine="hidden-pig", options={"target": 100}, public=True
    )
    gid = game["id"]
    seat0, seat1 = (Api(client, t["token"]) for t in game["seat_tokens"])
    admin, anyone = Api(client, club["admin_token"]), Api(client)
    # seat 0 rolls until a die other than a 1 shows (a 1 ends the turn); the target is far
    # enough that seat 1 never ends the game meanwhile (an ended game shows every die)
    for _ in range(50):
        seat0.post(f"/games/{gid}/actions", {"seat": 0, "command": {"type": "Roll"}})
        view = seat0.get(f"/games/{gid}").get_json()
        if view["state"]["turn"] == 0 and view["state"]["turn_total"]:
            break
        seat1.post(f"/games/{gid}/actions", {"seat": 1, "command": {"type": "Roll"}})
        if seat0.get(f"/games/{gid}").get_json()["state"]["turn"] == 1:
            seat1.post(f"/games/{gid}/actions", {"seat": 1, "command": {"type": "Hold"}})
    drain(database_url)
    steps = admin.get(f"/games/{gid}/replay/export").get_json()[
        "steps"
    ]  # server dealt: the recorder sees as a spectator
    rolls = [s for s in steps if s["type"] == "DieRolled"]
    mine = [s for s in rolls if s["data"]["seat"] == 0][-1]
    assert mine["data"]["value"] is None and "hidden die" in mine["description"]

    live = {
        name: api.get(f"/games/{gid}/replay/export").get_json()
        for name, api in (("spectator", anyone), ("seat0", seat0), ("seat1", seat1))
    }
    assert live["spectator"]["game"]["viewer"] is None and live["seat0"]["game"]["viewer"] == 0
    assert live["spectator"]["game"]["seed"] is None
    by_step = {name: {s["step"]: s for s in body["steps"]} for name, body in live.items()}
    n = mine["step"]
    assert by_step["seat0"][n]["data"]["value"] in range(2, 7)  # its own die
    assert by_step["seat1"][n]["data"]["value"] is None  # not the other seat's
    assert by_step["spectator"][n]["data"]["value"] is None
    assert (
        by_step["seat0"][n]["state"]["turn_total"] >= 2 and by_step["seat1"][n]["state"]["turn_total"] is None
    )

    # while the game is on, a seat's-eye replay is for that seat (or the recorder) only
    assert seat1.get(f"/games/{gid}/replay?seat=0").status_code == 403
    assert anyone.get(f"/games/{gid}/replay?seat=0").status_code == 403
    assert seat0.get(f"/games/{gid}/replay/steps/{n}?seat=0").get_json()["step"] == by_step["seat0"][n]
    assert admin.get(f"/games/{gid}/replay/steps/{n}?seat=1").get_json()["step"] == by_step["seat1"][n]
    assert admin.get(f"/games/{gid}/replay?seat=5").status_code == 422

    # once it is over: everything for everyone, and any seat's-eye replay
    final = play_pig(client, game)
    drain(database_url)
    full = anyone.get(f"/games/{gid}/replay/export").get_json()
    assert full["game"]["viewer"] == "all" and full["game"]["seed"] == final["seed"]
    assert all(s["data"]["value"] is not None for s in full["steps"] if s["type"] == "DieRolled")
    eyes = anyone.get(f"/games/{gid}/replay/export?seat=1").get_json()
    assert eyes["game"]["viewer"] == 1
    seen = {s["step"]: s for s in eyes["steps"]}[n]
    assert "position" not in seen  # a log position is the club's, not an anonymous viewer's
    assert seen == {k: v for k, v in by_step["seat1"][n].items() if k != "position"}  # what seat 1 knew then
    assert all(
        (s["data"]["value"] is None) == (s["data"]["seat"] != 1)
        for s in eyes["steps"]
        if s["type"] == "DieRolled"
    )


def test_a_private_game_replay_is_hidden_from_other_clubs(client, database_url):
    club, other = ClubFactory(client=client), ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    drain(database_url)
    assert Api(client, other["admin_token"]).get(f"/games/{game['id']}/replay").status_code == 404
    assert Api(client).get(f"/games/{game['id']}/replay").status_code == 404
    assert Api(client, club["admin_token"]).get(f"/games/{game['id']}/replay").status_code == 200
    assert Api(client, club["admin_token"]).get(f"/games/{game['id']}/replay/steps/999").status_code == 404
