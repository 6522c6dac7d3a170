"""Sign-ins: the admin token's rotation, one member sign-in per player, and the
club's players and leagues edited through the API."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory, post_as_admin


@pytest.fixture
def club_of_four(client):
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club) for _ in range(4)]
    return club, players


def issue(client, club, player) -> dict:
    response = Api(client, club["admin_token"]).post(f"/clubs/{club['id']}/players/{player['id']}/sign-in")
    assert response.status_code == 201, response.get_json()
    return response.get_json()


# -- the admin token's rotation ----------------------------------------------------


def test_rotating_the_admin_token_stops_the_old_one_at_once_and_keeps_member_sign_ins(client, club_of_four):
    club, players = club_of_four
    member = issue(client, club, players[0])
    old = Api(client, club["admin_token"])
    assert old.get(f"/clubs/{club['id']}/players").status_code == 200  # known to this process
    rotated = old.post(f"/clubs/{club['id']}/admin-token")
    assert rotated.status_code == 201
    new_token = rotated.get_json()["admin_token"]
    assert new_token != club["admin_token"]
    refused = old.get(f"/clubs/{club['id']}/players")
    assert refused.status_code == 401 and refused.get_json()["code"] == "invalid-token"
    assert Api(client, new_token).get(f"/clubs/{club['id']}/players").status_code == 200
    assert Api(client, member["token"]).get(f"/clubs/{club['id']}").status_code == 200


def test_a_reissued_seat_token_stops_at_once_in_the_process_that_reissued_it(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    old = Api(client, game["seat_tokens"][0]["token"])
    assert old.get(f"/games/{game['id']}").status_code == 200  # known to this process
    reissued = Api(client, club["admin_token"]).post(f"/games/{game['id']}/seat-tokens")
    assert reissued.status_code == 201
    refused = old.get(f"/games/{game['id']}")
    assert refused.status_code == 401 and refused.get_json()["code"] == "invalid-token"
    assert (
        Api(client, reissued.get_json()["seat_tokens"][0]["token"]).get(f"/games/{game['id']}").status_code
        == 200
    )


def test_another_process_forgets_a_reissued_seat_token_within_two_seconds(client, pool, monkeypatch):
    """Another process's reissue is a deletion this process learns of only by
    asking the database again: it does within two seconds, as for sign-ins."""
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    old = Api(client, game["seat_tokens"][0]["token"])
    assert old.get(f"/games/{game['id']}").status_code == 200  # known to this process
    with pool.connection() as conn:
        conn.execute("DELETE FROM tokens WHERE game_id = %s AND kind = 'seat'", (game["id"],))
    monkeypatch.setattr("service.auth.time", SimpleNamespace(monotonic=lambda: time.monotonic() + 2.01))
    assert old.get(f"/games/{game['id']}").status_code == 401


def test_only_the_admin_rotates_the_admin_token(client, club_of_four):
    club, players = club_of_four
    member = issue(client, club, players[0])
    other = ClubFactory(client=client)
    assert Api(client, member["token"]).post(f"/clubs/{club['id']}/admin-token").status_code == 403
    assert Api(client, other["admin_token"]).post(f"/clubs/{club['id']}/admin-token").status_code == 404
    assert Api(client).post(f"/clubs/{club['id']}/admin-token").status_code == 401


# -- member sign-ins ---------------------------------------------------------------


def test_a_member_sign_in_is_a_link_whose_token_rides_in_the_fragment(client, club_of_four):
    club, players = club_of_four
    member = issue(client, club, players[0])
    assert member["player"] == players[0]["id"] and member["name"] == players[0]["name"]
    path, _, fragment = member["link"].partition("#")
    assert path.endswith("/welcome") and fragment == member["token"]
    assert "?" not in member["link"]


def test_a_member_sees_the_club_its_players_and_leagues_but_manages_nothing(client, club_of_four):
    club, players = club_of_four
    LeagueFactory(client=client, club=club, public=False)
    member = Api(client, issue(client, club, players[0])["token"])
    assert member.get(f"/clubs/{club['id']}").status_code == 200
    assert len(member.get(f"/clubs/{club['id']}/players").get_json()) == 4
    assert len(member.get(f"/clubs/{club['id']}/leagues").get_json()) == 1
    assert member.post(f"/clubs/{club['id']}/players", {"name": "Sneaky"}).status_code == 403
    assert member.post(f"/clubs/{club['id']}/leagues", {"name": "Mine"}).status_code == 403
    assert member.post(f"/clubs/{club['id']}/players/{players[1]['id']}/sign-in").status_code == 403
    game = {"engine": "pig", "seats": [p["id"] for p in players[:2]], "options": {"target": 20}}
    assert member.post(f"/clubs/{club['id']}/games", game).status_code == 403


def test_another_clubs_member_learns_nothing(client, club_of_four):
    club, players = club_of_four
    other = ClubFactory(client=client)
    stranger = Api(client, issue(client, other, PlayerFactory(client=client, club=other))["token"])
    assert stranger.get(f"/clubs/{club['id']}").status_code == 404
    assert stranger.get(f"/clubs/{club['id']}/players").status_code == 404
    game = GameFactory(client=client, club=club, players=players[:2])
    assert stranger.get(f"/games/{game['id']}").status_code == 404


def test_a_member_sees_their_own_seat_in_every_game_and_no_other(client, club_of_four):
    club, players = club_of_four
    game = GameFactory(
        client=client, club=club, players=players[:3], engine="house-of-cronies", options={}, dealer="server"
    )
    member = Api(client, issue(client, club, players[1])["token"])
    view = member.get(f"/games/{game['id']}")
    assert view.status_code == 200 and view.get_json()["viewer"] == 1
    assert member.get(f"/games/{game['id']}?seat=0").status_code == 403
    assert member.get(f"/games/{game['id']}/replay?seat=0").status_code == 403
    assert member.get(f"/games/{game['id']}/replay?seat=1").status_code in (200, 503)


def test_a_member_acts_for_their_own_seat_only_and_never_takes_back(client, club_of_four):
    club, players = club_of_four
    game = GameFactory(client=client, club=club, players=players[:2])  # pig, server-dealt
    first = Api(client, issue(client, club, players[0])["token"])
    second = Api(client, issue(client, club, players[1])["token"])
    assert list(first.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]) == ["0"]
    refused = second.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    assert refused.status_code == 403 and refused.get_json()["code"] == "not-your-seat"
    acted = first.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    assert acted.status_code == 201, acted.get_json()
    undo = first.post(f"/games/{game['id']}/retract", {"to_version": 1, "reason": "oops"})
    assert undo.status_code == 403 and undo.get_json()["code"] == "recorder-only"


def test_a_member_sees_public_games_and_not_the_clubs_private_games_they_sit_out(client, club_of_four):
    club, players = club_of_four
    private = GameFactory(client=client, club=club, players=players[1:3])
    public = GameFactory(client=client, club=club, players=players[1:3], public=True)
    member = Api(client, issue(client, club, players[0])["token"])
    assert member.get(f"/games/{private['id']}").status_code == 404
    view = member.get(f"/games/{public['id']}")
    assert view.status_code == 200 and view.get_json()["viewer"] is None
    assert member.post(
        f"/games/{public['id']}/actions", {"seat": 0, "command": {"type": "Roll"}}
    ).status_code in (
        403,
        404,
    )


def test_replacing_a_member_sign_in_ends_the_old_one_and_revoking_ends_it(client, club_of_four):
    club, players = club_of_four
    first = issue(client, club, players[0])
    second = issue(client, club, players[0])
    assert Api(client, first["token"]).get(f"/clubs/{club['id']}").status_code == 401
    assert Api(client, second["token"]).get(f"/clubs/{club['id']}").status_code == 200
    admin = Api(client, club["admin_token"])
    revoked = client.delete(
        f"/clubs/{club['id']}/players/{players[0]['id']}/sign-in", headers=admin.headers()
    )
    assert revoked.status_code == 204
    assert Api(client, second["token"]).get(f"/clubs/{club['id']}").status_code == 401


def test_a_sign_in_for_another_clubs_player_is_not_found(client, club_of_four):
    club, _ = club_of_four
    other = ClubFactory(client=client)
    stranger = PlayerFactory(client=client, club=other)
    response = Api(client, club["admin_token"]).post(f"/clubs/{club['id']}/players/{stranger['id']}/sign-in")
    assert response.status_code == 404


# -- players ------------------------------------------------------------------------


def patch(client, token, path, body):
    return client.patch(path, json=body, headers={"Authorization": f"Bearer {token}"})


def test_a_player_is_renamed_and_a_taken_name_is_a_conflict(client, club_of_four):
    club, players = club_of_four
    path = f"/clubs/{club['id']}/players/{players[0]['id']}"
    renamed = patch(client, club["admin_token"], path, {"name": "Ada"})
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "Ada"
    clash = patch(client, club["admin_token"], path, {"name": players[1]["name"]})
    assert clash.status_code == 409 and clash.get_json()["code"] == "player-exists"


def test_a_retired_player_keeps_their_games_but_takes_no_seat_in_new_ones(client, club_of_four):
    club, players = club_of_four
    old = GameFactory(client=client, club=club, players=players[:2])
    path = f"/clubs/{club['id']}/players/{players[0]['id']}"
    retired = patch(client, club["admin_token"], path, {"retired": True})
    assert retired.status_code == 200 and retired.get_json()["retired"] is True
    admin = Api(client, club["admin_token"])
    assert admin.get(f"/games/{old['id']}").status_code == 200
    spec = {"engine": "pig", "seats": [p["id"] for p in players[:2]], "options": {"target": 20}}
    refused = admin.post(f"/clubs/{club['id']}/games", spec)
    assert refused.status_code == 422 and refused.get_json()["code"] == "retired-player"
    assert patch(client, club["admin_token"], path, {"retired": False}).get_json()["retired"] is False
    assert admin.post(f"/clubs/{club['id']}/games", spec).status_code == 201


def test_only_the_admin_edits_players(client, club_of_four):
    club, players = club_of_four
    member = issue(client, club, players[0])
    path = f"/clubs/{club['id']}/players/{players[0]['id']}"
    assert patch(client, member["token"], path, {"name": "Me"}).status_code == 403
    assert (
        patch(client, club["admin_token"], f"/clubs/{club['id']}/players/{club['id']}", {}).status_code == 404
    )


# -- leagues ------------------------------------------------------------------------


def test_a_league_is_edited_and_a_closed_season_takes_no_new_games(client, club_of_four):
    club, players = club_of_four
    league = LeagueFactory(client=client, club=club, engine="pig")
    path = f"/clubs/{club['id']}/leagues/{league['id']}"
    edited = patch(client, club["admin_token"], path, {"name": "Pig Cup", "season": "2027", "public": True})
    assert edited.status_code == 200
    assert {k: edited.get_json()[k] for k in ("name", "season", "public", "closed")} == {
        "name": "Pig Cup",
        "season": "2027",
        "public": True,
        "closed": False,
    }
    spec = {"engine": "pig", "seats": [p["id"] for p in players[:2]], "options": {"target": 20}}
    post_as_admin(client, club, "games", {**spec, "league": league["id"]})
    assert patch(client, club["admin_token"], path, {"closed": True}).get_json()["closed"] is True
    refused = Api(client, club["admin_token"]).post(
        f"/clubs/{club['id']}/games", {**spec, "league": league["id"]}
    )
    assert refused.status_code == 422 and refused.get_json()["code"] == "league-closed"
    assert Api(client).get(f"/leagues/{league['id']}/standings").status_code in (200, 503)


def test_a_leagues_ranking_settings_change_only_before_its_first_game(client, club_of_four):
    club, players = club_of_four
    league = LeagueFactory(client=client, club=club, engine="pig")
    path = f"/clubs/{club['id']}/leagues/{league['id']}"
    assert patch(client, club["admin_token"], path, {"points_table": [5, 1]}).get_json()["points_table"] == [
        5,
        1,
    ]
    spec = {"engine": "pig", "seats": [p["id"] for p in players[:2]], "options": {"target": 20}}
    post_as_admin(client, club, "games", {**spec, "league": league["id"]})
    refused = patch(client, club["admin_token"], path, {"min_games": 5})
    assert refused.status_code == 409 and refused.get_json()["code"] == "league-has-games"


def test_only_the_admin_edits_leagues(client, club_of_four):
    club, players = club_of_four
    league = LeagueFactory(client=client, club=club)
    member = issue(client, club, players[0])
    path = f"/clubs/{club['id']}/leagues/{league['id']}"
    assert patch(client, member["token"], path, {"closed": True}).status_code == 403
    other = ClubFactory(client=client)
    assert patch(client, other["admin_token"], path, {"closed": True}).status_code == 404
