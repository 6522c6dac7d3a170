"""The statistics page's figures are the API's, summed by PostgreSQL, paged,
and read again whenever the league's finished games change."""

from __future__ import annotations

import html
import json
import random
import re
import uuid
from datetime import UTC, datetime, timedelta

from psycopg.types.json import Jsonb

from service.records.pages import league_figures_page
from service.records.pages.league_figures_page import PAIRS_PER_PAGE, statistics_page
from service.records.reading import league_figures
from tests.factories import ClubFactory, LeagueFactory, PlayerFactory


def _league(client, players: int):
    club = ClubFactory(client=client)
    people = [PlayerFactory(client=client, club=club)["id"] for _ in range(players)]
    league = LeagueFactory(client=client, club=club, public=True)
    return club, league, people


def _finished(conn, club, league, seats, places, position, status="finished", **extra):
    start = datetime(2026, 3, 1, tzinfo=UTC) + timedelta(minutes=position)
    conn.execute(
        "INSERT INTO stats_games (game_id, club_id, league_id, engine, seats, status, created_at, ended_at,"
        " end_version, end_position, events, turns, first_seat, places, scores, ended_by, engine_stats, luck)"
        " VALUES (%s, %s, %s, 'pig', %s, %s, %s, %s, 9, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (
            uuid.uuid4(),
            club["id"],
            league["id"],
            Jsonb(seats),
            status,
            start,
            start + timedelta(minutes=extra.get("minutes", 20)),
            position,
            extra.get("events", 30),
            extra.get("turns", 6),
            extra.get("first_seat"),
            Jsonb(places),
            Jsonb([float(10 * (len(places) - p)) for p in places]),
            extra.get("ended_by", "target-score"),
            Jsonb({"rolls": len(seats) * 3, "seats": [{"holds": s + 1} for s in range(len(seats))]}),
            Jsonb(extra.get("luck", {})),
        ),
    )


def _rounded(value):
    """Figures summed in another order agree to the last few bits."""
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def _random_league(client, pool, games: int = 60):
    club, league, people = _league(client, 12)
    rng = random.Random(5)
    with pool.connection() as conn:
        for n in range(games):
            seats = rng.sample(people, rng.choice((2, 3, 4)))
            places = [rng.randint(1, len(seats)) for _ in seats]
            places[rng.randrange(len(seats))] = 1
            luck = {
                str(s): {"sum": rng.random() * 3, "count": 3} for s in range(len(seats)) if rng.random() < 0.8
            }
            _finished(
                conn,
                club,
                league,
                seats,
                places,
                1000 + n,
                first_seat=rng.choice([None, 0, 1]),
                turns=rng.randint(3, 12),
                ended_by=rng.choice(["target-score", "catastrophe", None]),
                luck=luck,
            )
        _finished(conn, club, league, people[:2], [1, 2], 5000, status="abandoned")
    return club, league, people


def _as_the_api_shows_them(records, league_id: uuid.UUID) -> None:
    api = league_figures.statistics(records, league_id, None, None)["statistics"]
    pages = [statistics_page(records, league_id, None, page)["statistics"] for page in (1, 2, 3)]
    for key in ("games", "average_length", "first_player", "win_rate_by_seat", "ended_by", "players"):
        assert _rounded(pages[0][key]) == _rounded(api[key]), key
    assert [r for page in pages for r in page["head_to_head"]] == api["head_to_head"]


def test_the_statistics_page_shows_the_api_s_figures(client, pool, app):
    _, league, _ = _random_league(client, pool)
    records = app.extensions["tablerecord.records"]
    assert (
        len(
            league_figures.statistics(records, uuid.UUID(league["id"]), None, None)["statistics"][
                "head_to_head"
            ]
        )
        > PAIRS_PER_PAGE
    )
    _as_the_api_shows_them(records, uuid.UUID(league["id"]))


def test_the_game_s_own_figures_are_merged_over_a_window_of_games(client, pool, app, monkeypatch):
    _, league, _ = _random_league(client, pool)
    records = app.extensions["tablerecord.records"]
    monkeypatch.setattr(league_figures_page, "ENGINE_WINDOW", 25)
    latest = statistics_page(records, uuid.UUID(league["id"]), None)
    assert latest["engine_window"] == {"from": 36, "to": 60, "earlier": 35, "later": None}
    assert latest["statistics"]["engine"]["rolls"]["games"] == 25
    earlier = statistics_page(records, uuid.UUID(league["id"]), None, upto=35)
    assert earlier["engine_window"] == {"from": 11, "to": 35, "earlier": 10, "later": 60}
    for before_the_first in (0, -1):  # an address typed by hand: no game, not an error
        none = statistics_page(records, uuid.UUID(league["id"]), None, upto=before_the_first)
        assert none["statistics"]["engine"] == {}


def test_a_game_that_ends_or_is_reopened_changes_the_page_at_once(client, pool, app):
    club, league, people = _random_league(client, pool, games=40)
    records = app.extensions["tablerecord.records"]
    league_id = uuid.UUID(league["id"])
    assert statistics_page(records, league_id, None)["statistics"]["games"] == 40
    with pool.connection() as conn:  # two games end: added to the kept figures
        _finished(
            conn,
            club,
            league,
            people[:3],
            [1, 2, 3],
            9000,
            first_seat=1,
            luck={"0": {"sum": 1.0, "count": 2}},
        )
        _finished(conn, club, league, people[2:4], [1, 1], 9001, ended_by="catastrophe")
    assert statistics_page(records, league_id, None)["statistics"]["games"] == 42
    _as_the_api_shows_them(records, league_id)
    with pool.connection() as conn:  # one is reopened: the league is summed again
        conn.execute("UPDATE stats_games SET status = 'active' WHERE end_position = 1002")
    assert statistics_page(records, league_id, None)["statistics"]["games"] == 41
    _as_the_api_shows_them(records, league_id)


def test_the_statistics_page_renders_its_pages(client, pool):
    _, league, _ = _random_league(client, pool)
    first = client.get(f"/league/{league['id']}/statistics").get_data(as_text=True)
    assert "page 1 of 2" in first and "Over games 1 to 60 of the 60 played move by move." in first
    second = client.get(f"/league/{league['id']}/statistics?page=2")
    assert second.status_code == 200 and "page 2 of 2" in second.get_data(as_text=True)


def test_the_page_says_how_long_play_took_where_a_result_only_game_noted_it(client, pool):
    club, league, people = _league(client, 3)
    with pool.connection() as conn:
        for n, minutes in enumerate((40, 80, None)):
            _finished(conn, club, league, people[:2], [1, 2], 100 + n)
            game = conn.execute(
                "SELECT game_id FROM stats_games WHERE end_position = %s", (100 + n,)
            ).fetchone()
            conn.execute(
                "INSERT INTO games (id, club_id, league_id, engine, seats, options, dealer, seed)"
                " VALUES (%s, %s, %s, 'pig', %s, '{}', 'table', 's')",
                (game["game_id"], club["id"], league["id"], Jsonb(people[:2])),
            )
            conn.execute(
                "INSERT INTO result_games (game_id, club_id, played_on, minutes) VALUES (%s, %s, '2026-03-01', %s)",
                (game["game_id"], club["id"], minutes),
            )
    html = client.get(f"/league/{league['id']}/statistics").get_data(as_text=True)
    assert "3 finished games." in html
    assert "Where the table noted how long it played (2 games), play took 1 h on average." in html
    assert "recording time" in html


def test_the_recording_time_leaves_out_result_only_games_which_have_no_recorded_action(client, pool, app):
    club, league, people = _league(client, 3)
    with pool.connection() as conn:
        _finished(conn, club, league, people[:2], [1, 2], 100, minutes=20)
        _finished(conn, club, league, people[:2], [2, 1], 101, minutes=40)
        _finished(conn, club, league, people[1:], [1, 2], 102, minutes=600, events=0, turns=0)
    records = app.extensions["tablerecord.records"]
    league_id = uuid.UUID(league["id"])
    page = statistics_page(records, league_id, None)["statistics"]
    assert page["games"] == 3
    assert page["average_length"]["minutes"] == 30
    assert (
        league_figures.statistics(records, league_id, None, None)["statistics"]["average_length"]["minutes"]
        == 30
    )
    with pool.connection() as conn:  # one more, added to the kept figures
        _finished(conn, club, league, people[:2], [1, 2], 103, minutes=900, events=0, turns=0)
    assert statistics_page(records, league_id, None)["statistics"]["average_length"]["minutes"] == 30


def _rows(page: str, table_id: str) -> list[list[str]]:
    """A table's body as the reader sees it: each row's cells, tags taken out."""
    body = re.search(rf'<table class="board" id="{table_id}">.*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_every_chart_is_also_readable_as_a_table_holding_its_figures(client, pool):
    _, league, _ = _random_league(client, pool)
    page = client.get(f"/league/{league['id']}/statistics").get_data(as_text=True)
    charts = json.loads(html.unescape(re.search(r'id="stats-data">(.*?)</script>', page, re.S).group(1)))
    assert charts["by_seat"] and charts["players"]
    by_seat = _rows(page, "by-seat")
    assert [(r[0], r[2]) for r in by_seat] == [(c["label"], _pct(c["win_rate"])) for c in charts["by_seat"]]
    players = _rows(page, "players")
    assert [(r[0], r[2], r[5]) for r in players] == [
        (c["name"], _pct(c["win_rate"]), _pct(c["luck"])) for c in charts["players"]
    ]
    for canvas in re.findall(r"<canvas [^>]*>", page):
        assert "the same figures are in the table below" in canvas


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"
