"""Log positions count every club's events: they are shown to the tokens of
the club (for ``min_position`` and the club feed), never to anonymous viewers
of public games and leagues."""

from __future__ import annotations

import json

from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.workers.helpers import drain, head, play_pig


def _has_position(value) -> bool:
    return '"position"' in json.dumps(value)


def test_anonymous_viewers_of_public_games_and_leagues_see_no_log_position(client, database_url):
    club = ClubFactory(client=client)
    admin = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, public=True)
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    game = GameFactory(client=client, club=club, players=players, league=league["id"], public=True)
    play_pig(client, game)
    drain(database_url)
    anonymous = Api(client)
    paths = [
        f"/games/{game['id']}/events",
        f"/games/{game['id']}/replay",
        f"/games/{game['id']}/replay/steps/1",
        f"/games/{game['id']}/replay/export",
        f"/leagues/{league['id']}/standings",
        f"/leagues/{league['id']}/rating-history",
        f"/leagues/{league['id']}/statistics",
    ]
    for path in paths:
        seen = anonymous.get(path)
        assert seen.status_code == 200, (path, seen.get_json())
        assert not _has_position(seen.get_json()), path
        assert _has_position(admin.get(path).get_json()), path
    lines = anonymous.get(f"/games/{game['id']}/replay/export.ndjson").get_data(as_text=True)
    assert '"position"' not in lines
    other = Api(client, ClubFactory(client=client)["admin_token"])
    assert not _has_position(other.get(f"/games/{game['id']}/events").get_json())


def test_only_the_clubs_tokens_may_wait_for_a_log_position(client, database_url):
    club = ClubFactory(client=client)
    league = LeagueFactory(client=client, club=club, public=True)
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    game = GameFactory(client=client, club=club, players=players, league=league["id"], public=True)
    play_pig(client, game)
    mine = head(database_url)
    paths = [
        f"/leagues/{league['id']}/standings",
        f"/leagues/{league['id']}/rating-history",
        f"/leagues/{league['id']}/statistics",
        f"/games/{game['id']}/replay",
        f"/games/{game['id']}/replay/steps/1",
    ]
    other = ClubFactory(client=client)["admin_token"]
    for path in paths:
        for caller in (Api(client), Api(client, other)):
            refused = caller.get(f"{path}?min_position={mine}")
            assert refused.status_code == 403, (path, refused.get_json())
            assert refused.get_json()["code"] == "positions-are-the-clubs"
            assert not _has_position(refused.get_json())
        behind = Api(client, club["admin_token"]).get(f"{path}?min_position={mine}").get_json()
        assert behind["code"] == "projection-behind" and behind["position"] < mine, path
    refused = Api(client).get(f"/projections?min_position={mine}")
    assert refused.status_code == 403 and refused.get_json()["code"] == "positions-are-the-clubs"
    behind = Api(client, other).get(f"/projections?min_position={mine}").get_json()
    assert behind["code"] == "projection-behind" and behind["min_position"] == mine


def test_a_replay_not_yet_projected_names_no_position_to_an_anonymous_viewer(client):
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    game = GameFactory(client=client, club=club, players=players, public=True)
    play_pig(client, game)  # the replays projection has not run
    behind = Api(client).get(f"/games/{game['id']}/replay")
    assert behind.status_code == 503 and behind.get_json()["code"] == "projection-behind"
    assert not _has_position(behind.get_json()) and "min_position" not in behind.get_json()
    assert not any(ch.isdigit() for ch in behind.get_json()["detail"])
    assert "position" in Api(client, club["admin_token"]).get(f"/games/{game['id']}/replay").get_json()
