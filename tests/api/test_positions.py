"""Log positions count every club's events: they are shown to the tokens of
the club (for ``min_position`` and the club feed), never to anonymous viewers
of public games and leagues."""

from __future__ import annotations

import json

from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.workers.helpers import drain, play_pig


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
