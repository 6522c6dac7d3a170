"""The statistics projection keeps each league's statistics summed
(``stats_tallies``): a new process reads them instead of summing the league,
they equal the league summed again, and a rebuild equals them."""

from __future__ import annotations

import uuid

import psycopg
import pytest

from service.records.pages import league_figures_page
from service.records.pages.league_figures_page import statistics_page
from service.records.reading import league_figures
from tests.factories import ClubFactory, GameFactory
from tests.workers.helpers import drain, league_with_games, play_pig, snapshot
from workers.projections.rebuild import rebuild


def _tally_row(url: str, league_id: str):
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT games, last, total FROM stats_tallies WHERE league_id = %s", (league_id,)
        ).fetchone()


def _page_in_a_new_process(records, league_id: uuid.UUID, monkeypatch) -> dict:
    """The page as a process that kept nothing reads it, summing nothing itself."""
    monkeypatch.setattr(league_figures_page, "TALLIES", {})
    monkeypatch.setattr(league_figures_page, "FIGURES", "SELECT 1 / 0")  # a sum would fail here
    return statistics_page(records, league_id, None)["statistics"]


def _as_the_api_sums_them(records, league_id: uuid.UUID, page: dict) -> None:
    api = league_figures.statistics(records, league_id, None, None)["statistics"]
    for key in ("games", "first_player", "win_rate_by_seat", "ended_by", "players"):
        assert page[key] == api[key], key
    for key, value in api["average_length"].items():
        assert page["average_length"][key] == (None if value is None else pytest.approx(value)), key
    assert page["head_to_head"] == api["head_to_head"][: league_figures_page.PAIRS_PER_PAGE]


def test_a_new_process_reads_the_kept_statistics_equal_to_the_league_summed_again(
    client, database_url, app, monkeypatch
):
    club = ClubFactory(client=client)
    league, members, _ = league_with_games(client, club, 5, players=4, public=True)
    drain(database_url)
    records = app.extensions["tablerecord.records"]
    league_id = uuid.UUID(league["id"])
    assert _tally_row(database_url, league["id"])[0] == 5
    _as_the_api_sums_them(records, league_id, _page_in_a_new_process(records, league_id, monkeypatch))

    game = GameFactory(
        client=client, club=club, players=members[:3], league=league["id"], options={"target": 12}
    )
    play_pig(client, game)
    drain(database_url)  # one more game ends: added to the kept sums
    assert _tally_row(database_url, league["id"])[0] == 6
    _as_the_api_sums_them(records, league_id, _page_in_a_new_process(records, league_id, monkeypatch))

    before = snapshot(database_url)["stats_tallies"]
    rebuild(database_url, "statistics", batch_size=7)
    assert snapshot(database_url)["stats_tallies"] == before
