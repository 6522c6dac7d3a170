"""The standings, a player's profile and the game search as members read
them: names link to profiles, unranked players are told what they need,
places are columns, ratings are on the 1500 scale, and no id shows."""

from __future__ import annotations

import json
import re

import pytest

from tests.factories import ClubFactory, GameFactory
from tests.web.helpers import sign_in
from tests.workers.helpers import drain, league_with_games, play_pig

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _text(html: str) -> str:
    """What a reader sees: the page without its tags, attributes and scripts."""
    html = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.fixture
def league_pages(client, database_url):
    club = ClubFactory(client=client)
    league, members, _ = league_with_games(client, club, 4, players=4, min_games=3)
    game = GameFactory(client=client, club=club, players=members[:2], options={"target": 12})
    play_pig(client, game)
    drain(database_url)
    sign_in(client, club["admin_token"])
    return club, league, members


def test_the_standings_list_unranked_players_apart_with_what_they_need(client, league_pages):
    _, league, members = league_pages
    html = client.get(f"/league/{league['id']}").get_data(as_text=True)
    assert "more game" in html and "to be ranked" in html
    assert "a player is ranked after 3 games." in html
    assert '<th scope="col" class="n">1st</th>' in html and "2nd</th>" in html
    for member in members:
        assert f'href="/player/{member["id"]}"' in html
    assert not UUID.search(_text(html))
    assert "{" not in _text(html)


def test_the_rating_table_holds_the_chart_s_numbers(client, league_pages):
    _, league, _ = league_pages
    html = client.get(f"/league/{league['id']}").get_data(as_text=True)
    chart = json.loads(re.search(r'id="rating-data">(.*?)</script>', html, re.S).group(1))
    points = {(s["player"], p[0]): p[1] for s in chart["series"] for p in s["points"]}
    cells = re.findall(r'<tr data-game="(\d+)">(.*?)</tr>', html, re.S)
    assert len(cells) == 4
    for game, row in cells:
        for player, rating in re.findall(r'data-player="([^"]+)" data-rating="(-?\d+)"', row):
            assert points[(player, int(game))] == int(rating)
    assert all(isinstance(x, int) for s in chart["series"] for x, _ in s["points"])


def test_the_profile_page_shows_games_rates_and_opponents_by_name(client, league_pages):
    club, _, members = league_pages
    html = client.get(f"/player/{members[0]['id']}").get_data(as_text=True)
    assert members[0]["name"] in html
    for heading in ("Wins by game", "Wins by seat", "Against each opponent", "Rating", "Games played"):
        assert f"<h2>{heading}</h2>" in html
    assert "games finished" in html
    assert not UUID.search(_text(html))
    assert f'href="/club/{club["id"]}/games?player={members[0]["id"]}"' in html


def test_the_search_page_filters_and_links_names_and_games(client, league_pages):
    club, _, members = league_pages
    html = client.get(f"/club/{club['id']}/games?player={members[0]['id']}&status=finished").get_data(
        as_text=True
    )
    assert re.search(r"\d+ games? found", html)
    assert 'href="/player/' in html and 'href="/game/' in html
    assert not UUID.search(_text(html))
    bad = client.get(f"/club/{club['id']}/games?since=yesterday")
    assert bad.status_code == 422 and "2026-03-01" in bad.get_data(as_text=True)


def test_the_ratings_page_says_what_the_numbers_mean(client):
    html = client.get("/ratings").get_data(as_text=True)
    assert "starts at 1500" in html and "1500 + 42 × (μ − 3σ)" in html


def test_the_club_page_lists_live_and_latest_games_with_date_game_players_and_winner(client, league_pages):
    club, _, members = league_pages
    live = GameFactory(client=client, club=club, players=members[2:], options={"target": 12})
    html = client.get(f"/club/{club['id']}").get_data(as_text=True)
    live_part = html[html.index('id="live"') : html.index("</ul>", html.index('id="live"'))]
    assert f'href="/game/{live["id"]}"' in live_part and "live since" in live_part
    assert all(f'href="/player/{m["id"]}"' in live_part for m in members[2:])
    recent = html[html.index('id="recent"') : html.index("</ul>", html.index('id="recent"'))]
    assert recent.count('class="game-line"') == 5
    assert recent.count("won by") == 5 and recent.count("Pig") >= 5
    assert re.search(r"\d{2} [A-Z][a-z]{2} \d{4}", recent)
    assert not UUID.search(_text(html))
