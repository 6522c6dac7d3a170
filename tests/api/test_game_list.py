"""The club's game list is paged: a page names the next one in its `Link`
header, and following them lists every game once, newest first."""

from __future__ import annotations

import re

from tests.factories import Api, ClubFactory, GameFactory, PlayerFactory

NEXT = re.compile(r'<([^>]+)>; rel="next"')


def test_following_the_link_header_lists_every_game_once_newest_first(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    made = [GameFactory(client=client, club=club, players=players)["id"] for _ in range(7)]
    seen, path, pages = [], f"/clubs/{club['id']}/games?limit=3", 0
    while path:
        response = api.get(path)
        assert response.status_code == 200, response.get_json()
        seen += [g["id"] for g in response.get_json()]
        pages += 1
        link = NEXT.search(response.headers.get("Link", ""))
        path = link.group(1) if link else None
    assert pages == 3 and sorted(seen) == sorted(made) and len(seen) == len(set(seen))
    assert seen == list(reversed(made))
    assert "Link" not in api.get(f"/clubs/{club['id']}/games").headers
    assert api.get(f"/clubs/{club['id']}/games?limit=0").status_code == 422
