"""In the browser, on a 390-pixel phone: a name on the standings opens the
player's profile, whose head-to-head is the league's; the standings, profile,
search and statistics pages never scroll sideways; the rating chart's table
holds the chart's numbers."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.factories import ClubFactory
from tests.web.test_browser import click, sign_in
from tests.workers.helpers import drain, league_with_games


@pytest.fixture
def league(broker_client, database_url):
    club = ClubFactory(client=broker_client)
    league, members, _ = league_with_games(broker_client, club, 5, players=4, public=True)
    drain(database_url)
    return club, league, members


def _no_sideways_scroll(page: Page) -> None:
    page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], (page.url, width)


def _head_to_head(page: Page, selector: str) -> list[list[str]]:
    return page.locator(selector).evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))"
    )


def test_a_name_on_the_standings_opens_the_profile_whose_head_to_head_is_the_league_s(page, league):
    club, league_row, members = league
    sign_in(page, club["admin_token"])
    page.goto(f"/league/{league_row['id']}")
    _no_sideways_scroll(page)
    name = members[0]["name"]
    click(page, page.locator("#standings").get_by_role("link", name=name, exact=True))
    assert page.locator("h1").inner_text() == name
    _no_sideways_scroll(page)
    profile = {
        row[0]: row[2:5] for row in _head_to_head(page, "#head-to-head tbody tr")
    }  # opponent -> ahead, behind, level
    page.goto(f"/league/{league_row['id']}/statistics")
    _no_sideways_scroll(page)
    league_rows = _head_to_head(page, "section:has(h2:text('Head to head')) tr:has(td)")
    seen = 0
    for player, opponent, ahead, behind, level in league_rows:
        if player == name:
            assert profile[opponent] == [ahead, behind, level]
            seen += 1
        elif opponent == name:
            assert profile[player] == [behind, ahead, level]
            seen += 1
    assert seen == len(profile) >= 2, (league_rows, profile)
    page.goto(f"/club/{club['id']}/games?player={members[0]['id']}")
    _no_sideways_scroll(page)


def test_the_rating_chart_s_table_holds_the_chart_s_numbers(page, league):
    _, league_row, _ = league
    page.goto(f"/league/{league_row['id']}")
    page.wait_for_function("() => window.Chart && Chart.getChart(document.getElementById('rating-chart'))")
    lines = page.evaluate(
        "() => Chart.getChart(document.getElementById('rating-chart')).data.datasets"
        ".map(d => [d.label, d.data.map(p => [p.x, p.y])])"
    )
    charted = {(label, x): y for label, points in lines for x, y in points}
    page.locator("#rating-table summary").click()
    entries = page.locator("#rating-table tbody tr").evaluate_all(
        "rows => rows.flatMap(r => [...r.querySelectorAll('.entry')].map(e =>"
        " [e.textContent.split(' ').slice(0, -2).join(' '), +r.dataset.game, +e.dataset.rating]))"
    )
    assert len(entries) == sum(len(points) - 1 for _, points in lines)
    for name, game, rating in entries:
        assert charted[(name, game)] == rating
    assert all(float(x).is_integer() for _, x in charted)
