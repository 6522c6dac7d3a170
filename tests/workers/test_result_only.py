"""Result-only games: recorded by their result alone, judged by the engine's
outcome rule, and counted in standings, ratings and statistics exactly as a
played game of the same outcome."""

from __future__ import annotations

import random
import re

import pytest

from engines import registry
from tests.api.test_full_games import play_through_api
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.helpers import event_count
from tests.web.helpers import sign_in
from tests.workers.helpers import drain

STANDING_FIELDS = (
    "games",
    "wins",
    "placements",
    "points",
    "score_total",
    "average_score",
    "mu",
    "sigma",
    "rank",
)


def standings(pool, league_id) -> dict[str, tuple]:
    with pool.connection() as conn:
        rows = conn.execute(
            f"SELECT player_id, {', '.join(STANDING_FIELDS)} FROM standings WHERE league_id = %s",
            (league_id,),
        ).fetchall()
    return {str(r["player_id"]): tuple(r[f] for f in STANDING_FIELDS) for r in rows}


def league_figures(pool, league_id) -> list[tuple]:
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT seats, places, scores, ended_by, status FROM stats_games WHERE league_id = %s AND status = 'finished' ORDER BY end_position",
            (league_id,),
        ).fetchall()
    return [tuple(r.values()) for r in rows]


@pytest.fixture
def club(client):
    return ClubFactory(client=client)


def test_a_result_is_stored_as_created_recorded_and_ended_and_marked_result_only(client, pool, club):
    api = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club) for _ in range(3)]
    body = {
        "engine": "house-of-cronies",
        "played_on": "2025-03-14",
        "minutes": 95,
        "note": "Rematch",
        "players": [{"player": p["id"], "score": s} for p, s in zip(players, [7, 9, 9], strict=True)],
    }
    r = api.post(f"/clubs/{club['id']}/results", body)
    assert r.status_code == 201, r.get_json()
    result = r.get_json()
    # The write says where in the log it is; the result read back is the same result.
    assert result.pop("log_position") == int(r.headers["Log-Position"])
    assert result["result_only"] is True and result["status"] == "recorded"
    assert [p["place"] for p in result["players"]] == [3, 1, 1]
    assert [p["name"] for p in result["players"]] == [p["name"] for p in players]
    assert (result["played_on"], result["minutes"], result["ended_by"]) == ("2025-03-14", 95, "election")
    events = api.get(f"/games/{result['id']}/events").get_json()["events"]
    assert [e["type"] for e in events] == ["GameCreated", "ResultRecorded", "GameEnded"]
    assert events[0]["data"]["result_only"] is True
    assert api.get(f"/games/{result['id']}/result").get_json() == result
    assert api.get(f"/clubs/{club['id']}/results").get_json() == [result]
    view = api.get(f"/games/{result['id']}").get_json()
    assert view["result_only"] is True and view["status"] == "finished"
    assert view["outcome"] == {
        "finished": True,
        "places": [3, 1, 1],
        "scores": [7, 9, 9],
        "ended_by": "election",
    }
    # A result-only game has no replay and takes no action.
    r = api.get(f"/games/{result['id']}/replay")
    assert r.status_code == 422 and r.get_json()["code"] == "result-only-no-replay"
    r = api.post(f"/games/{result['id']}/actions", {"seat": 0, "command": {"type": "Pass"}})
    assert r.status_code in (409, 422)


def test_a_refused_result_stores_nothing_and_names_the_rule(client, pool, club):
    api = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club) for _ in range(3)]
    body = {
        "engine": "chancellors",
        "players": [
            {"player": p["id"], "score": s, "place": pl}
            for p, s, pl in zip(players, [40, 12, 25], [2, 1, 3], strict=True)
        ],
    }
    r = api.post(f"/clubs/{club['id']}/results", body)
    assert r.status_code == 422
    problem = r.get_json()
    assert r.content_type == "application/problem+json"
    assert problem["code"] == problem["rule"] == "result-places-contradict-scores"
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == 0
        assert conn.execute("SELECT count(*) AS n FROM events").fetchone()["n"] == 0
    r = api.post(f"/clubs/{club['id']}/results", {**body, "players": body["players"][:1]})
    assert r.get_json()["code"] == "result-seat-count"
    some = [{"player": p["id"], "score": s} for p, s in zip(players, [40, None, 25], strict=True)]
    assert api.post(f"/clubs/{club['id']}/results", {**body, "players": some}).get_json()["code"] == (
        "result-one-per-player"
    )


def test_a_retracted_result_counts_nowhere_and_the_log_keeps_it(client, pool, club, database_url):
    api = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, engine="pig")
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    body = {
        "engine": "pig",
        "league": league["id"],
        "players": [{"player": p["id"], "place": i + 1} for i, p in enumerate(players)],
    }
    kept = api.post(f"/clubs/{club['id']}/results", body).get_json()
    dropped = api.post(f"/clubs/{club['id']}/results", body).get_json()
    drain(database_url)
    assert {s[0] for s in standings(pool, league["id"]).values()} == {2}
    r = api.post(f"/games/{dropped['id']}/result/retract", {"reason": "entered twice"})
    assert r.status_code == 200 and r.get_json()["status"] == "retracted"
    assert api.post(f"/games/{dropped['id']}/result/retract", {}).status_code == 409
    assert event_count(pool, dropped["id"]) == 5
    drain(database_url)
    assert {s[0] for s in standings(pool, league["id"]).values()} == {1}
    assert len(league_figures(pool, league["id"])) == 1
    assert api.get(f"/games/{kept['id']}/result").get_json()["status"] == "recorded"


@pytest.mark.parametrize("engine_id", registry.available())
def test_a_result_counts_as_the_same_outcome_reached_by_play(client, pool, club, database_url, engine_id):
    """Standings, ratings and the statistics' results of a league with a played
    game equal those of a league with that game's outcome recorded by result."""
    api = Api(client, club["admin_token"])
    trial = registry.game(engine_id).trial
    players = [PlayerFactory(client=client, club=club) for _ in range(trial.seats)]
    played_league = LeagueFactory(client=client, club=club, engine=engine_id)
    result_league = LeagueFactory(client=client, club=club, engine=engine_id)
    game = GameFactory(
        client=client,
        club=club,
        engine=engine_id,
        options=dict(trial.options),
        players=players,
        league=played_league["id"],
    )
    play_through_api(api, game["id"], random.Random(3))
    outcome = api.get(f"/games/{game['id']}").get_json()["outcome"]
    body = {
        "engine": engine_id,
        "league": result_league["id"],
        "options": dict(trial.options),
        "ended_by": outcome["ended_by"],
        "players": [
            {"player": p["id"], "score": s, "place": pl}
            for p, s, pl in zip(players, outcome["scores"], outcome["places"], strict=True)
        ],
    }
    r = api.post(f"/clubs/{club['id']}/results", body)
    assert r.status_code == 201, r.get_json()
    drain(database_url)
    played, recorded = standings(pool, played_league["id"]), standings(pool, result_league["id"])
    assert played and played == recorded
    assert league_figures(pool, played_league["id"]) == league_figures(pool, result_league["id"])


def test_the_clubs_results_are_paged_by_their_link_header_most_recently_played_first(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    days = ["2025-01-03", "2025-01-01", "2025-01-03", "2025-01-02", "2025-01-05"]
    made = []
    for day in days:
        body = {
            "engine": "pig",
            "played_on": day,
            "players": [{"player": p["id"], "score": s} for p, s in zip(players, [30, 12], strict=True)],
        }
        r = api.post(f"/clubs/{club['id']}/results", body)
        assert r.status_code == 201, r.get_json()
        made.append((day, r.get_json()["id"]))
    seen, path, pages = [], f"/clubs/{club['id']}/results?limit=2", 0
    while path:
        response = api.get(path)
        assert response.status_code == 200, response.get_json()
        seen += [(r["played_on"], r["id"]) for r in response.get_json()]
        pages += 1
        link = re.search(r'<([^>]+)>; rel="next"', response.headers.get("Link", ""))
        path = link.group(1) if link else None
    assert pages == 3 and sorted(seen) == sorted(made) and len({i for _, i in seen}) == len(made)
    assert [day for day, _ in seen] == sorted(days, reverse=True)
    assert "Link" not in api.get(f"/clubs/{club['id']}/results").headers


def _statistics_page_summary(client, league_id) -> str:
    page = client.get(f"/league/{league_id}/statistics").get_data(as_text=True)
    summary = re.search(r'<p id="summary">(.*?)</p>', page, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", "", summary).split())


def test_a_result_only_game_counts_in_the_players_figures_and_not_in_those_of_play(
    client, pool, club, database_url
):
    """Wins and places count every finished game; the length, the first
    player, the wins by seat and how games ended count only the game played
    move by move, on the API and on the page alike."""
    api = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, engine="pig", public=True)
    ann, bob = (PlayerFactory(client=client, club=club) for _ in range(2))
    game = GameFactory(client=client, club=club, players=[ann, bob], league=league["id"])
    play_through_api(api, game["id"], random.Random(7))
    played = api.get(f"/games/{game['id']}").get_json()["outcome"]
    for scores in ([40, 12], None):  # Ann wins both, one logged without scores
        players = [{"player": ann["id"], "place": 1}, {"player": bob["id"], "place": 2}]
        if scores:
            players = [{**p, "score": s} for p, s in zip(players, scores, strict=True)]
        r = api.post(
            f"/clubs/{club['id']}/results", {"engine": "pig", "league": league["id"], "players": players}
        )
        assert r.status_code == 201, r.get_json()
    drain(database_url)
    figures = api.get(f"/leagues/{league['id']}/statistics").get_json()["statistics"]
    assert (figures["games"], figures["result_only_games"]) == (3, 2)
    assert figures["first_player"]["games"] == 1
    assert figures["ended_by"] == {played["ended_by"]: 1}
    assert [(s["seat"], s["games"]) for s in figures["win_rate_by_seat"]] == [(0, 1), (1, 1)]
    wins = {p["player"]: (p["games"], p["wins"]) for p in figures["players"]}
    assert wins == {
        ann["id"]: (3, 2 + (played["places"][0] == 1)),
        bob["id"]: (3, played["places"][1] == 1),
    }
    # Scores: the played game's and the one result's with scores.
    assert figures["scores"]["all"]["count"] == 4
    page = _statistics_page_summary(client, league["id"])
    assert page.startswith("3 finished games. On average a game lasted")
    assert (
        "2 of the 3 were logged by their result alone: they count in the players' wins and places,"
        " but have no moves, so the length, the first player, the wins by seat, how games ended and"
        " the game's own figures are over the other 1 game, played move by move."
    ) in page
    html = client.get(f"/league/{league['id']}/statistics").get_data(as_text=True)
    ended = re.findall(r"<li>(.*?)</li>", re.search(r'<ul id="ended-by">(.*?)</ul>', html, re.S).group(1))
    assert len(ended) == 1 and ended[0].endswith(": 1 game")


def test_a_league_of_results_alone_shows_no_figures_of_play(client, pool, club, database_url):
    api = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, engine="house-of-cronies", public=True)
    players = [PlayerFactory(client=client, club=club) for _ in range(3)]
    body = {
        "engine": "house-of-cronies",
        "league": league["id"],
        "players": [{"player": p["id"], "place": n} for n, p in enumerate(players, start=1)],
    }
    assert api.post(f"/clubs/{club['id']}/results", body).status_code == 201
    drain(database_url)
    figures = api.get(f"/leagues/{league['id']}/statistics").get_json()["statistics"]
    assert (figures["games"], figures["result_only_games"], figures["ended_by"]) == (1, 1, {})
    assert figures["first_player"] == {"games": 0, "wins": 0, "win_rate": None}
    assert figures["average_length"] == {"events": None, "turns": None, "minutes": None}
    assert figures["win_rate_by_seat"] == [] and figures["engine"] == {}
    assert sorted((p["games"], p["wins"]) for p in figures["players"]) == [(1, 0), (1, 0), (1, 1)]
    page = _statistics_page_summary(client, league["id"])
    assert page == (
        "1 finished game. It was logged by its result alone: it counts in the players' wins and places,"
        " but has no moves, so there is no length, first player, wins by seat or way of ending to show."
    )


def test_a_result_logged_without_scores_shows_its_scores_as_missing(client, pool, club, database_url):
    """Not as zeros: the league's latest results, the profile, the standings'
    average score (over the games with scores) and standings.csv."""
    api = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, engine="pig", public=True)
    ann, bob, cy = (PlayerFactory(client=client, club=club) for _ in range(3))
    scored = [{"player": ann["id"], "score": 40, "place": 1}, {"player": bob["id"], "score": 12, "place": 2}]
    unscored = [{"player": cy["id"], "place": 1}, {"player": ann["id"], "place": 2}]
    for players in (scored, unscored):
        r = api.post(
            f"/clubs/{club['id']}/results", {"engine": "pig", "league": league["id"], "players": players}
        )
        assert r.status_code == 201, r.get_json()
    drain(database_url)
    rows = api.get(f"/leagues/{league['id']}/standings").get_json()["standings"]
    average = {r["player"]: (r["games"], r["average_score"]) for r in rows}
    assert average == {ann["id"]: (2, 40.0), bob["id"]: (1, 12.0), cy["id"]: (1, None)}
    csv_rows = api.get(f"/leagues/{league['id']}/standings.csv").get_data(as_text=True).splitlines()
    by_name = {line.split(",")[1]: line.split(",")[5] for line in csv_rows[1:]}
    assert by_name == {ann["name"]: "40", bob["name"]: "12", cy["name"]: ""}
    page = client.get(f"/league/{league['id']}").get_data(as_text=True)
    results = re.search(r'<ul class="games" id="results">(.*?)</ul>', page, re.S).group(1)
    lines = [
        " ".join(re.sub(r"<[^>]+>", "", li).split()) for li in re.findall(r"<li>(.*?)</li>", results, re.S)
    ]
    assert [line.split(": ", 1)[1] for line in lines] == [
        f"1st {cy['name']} (–), 2nd {ann['name']} (–)",
        f"1st {ann['name']} (40), 2nd {bob['name']} (12)",
    ]
    sign_in(client, club["admin_token"])
    profile = client.get(f"/player/{ann['id']}").get_data(as_text=True)
    played = re.search(r'<ul class="games" id="played">(.*?)</ul>', profile, re.S).group(1)
    lines = [
        " ".join(re.sub(r"<[^>]+>", "", li).split())
        for li in re.findall(r"<li[^>]*>(.*?)</li>", played, re.S)
    ]
    assert [re.search(r"\d\w\w of \d, [^·]*", line).group(0).strip() for line in lines] == [
        "2nd of 2, score –",
        "1st of 2, 40 points",
    ]


def _cells(page: str, table_id: str) -> list[list[str]]:
    body = re.search(rf'<table class="board" id="{table_id}">.*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    return [
        [
            " ".join(re.sub(r"<[^>]+>", "", cell).split())
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_a_result_only_game_s_page_is_its_result_and_it_offers_no_replay(client, pool, club, database_url):
    api = Api(client, club["admin_token"])
    ann, bob, cy = (PlayerFactory(client=client, club=club) for _ in range(3))
    body = {
        "engine": "house-of-cronies",
        "played_on": "2025-03-14",
        "minutes": 95,
        "note": "Rematch",
        "players": [{"player": p["id"], "score": s} for p, s in zip((ann, bob, cy), [7, 9, 9], strict=True)],
    }
    game = api.post(f"/clubs/{club['id']}/results", body).get_json()["id"]
    unscored = {
        "engine": "pig",
        "players": [{"player": ann["id"], "place": 2}, {"player": bob["id"], "place": 1}],
    }
    bare = api.post(f"/clubs/{club['id']}/results", unscored).get_json()["id"]
    drain(database_url)
    sign_in(client, club["admin_token"])
    page = client.get(f"/game/{game}").get_data(as_text=True)
    assert _cells(page, "result-places") == [
        ["1st", bob["name"], "9"],
        ["1st", cy["name"], "9"],
        ["3rd", ann["name"], "7"],
    ]
    said = " ".join(
        re.sub(r"<[^>]+>", "", re.search(r'<p id="result-said">(.*?)</p>', page, re.S).group(1)).split()
    )
    assert said == (
        "This game was played on 14 Mar 2025 and lasted 1 h 35 min, and logged by its result alone:"
        " no moves were recorded, so it has no replay."
    )
    assert "Rematch" in page
    assert 'class="table-view"' not in page and f"/game/{game}/replay" not in page and "votes" not in page
    bare_page = client.get(f"/game/{bare}").get_data(as_text=True)
    assert _cells(bare_page, "result-places") == [["1st", bob["name"], "–"], ["2nd", ann["name"], "–"]]
    assert client.get(f"/game/{game}/live?version=0").status_code == 204
    # Its replay says why it has none, with no step; the API's refuses it, as the README says.
    replay = client.get(f"/game/{game}/replay").get_data(as_text=True)
    assert re.search(r'<p id="result-only">This game was logged by its result alone', replay)
    assert (
        'id="stepper"' not in replay and "ResultRecorded" not in replay and 'class="log steps"' not in replay
    )
    steps = client.get(f"/game/{game}/replay/steps?from=1").get_json()
    assert (steps["last"], steps["steps"]) == (0, [])
    r = api.get(f"/games/{game}/replay/export")
    assert r.status_code == 422 and r.get_json()["code"] == "result-only-no-replay"
    # Lists and the profile do not offer one.
    for listing in (f"/player/{ann['id']}", f"/club/{club['id']}/games"):
        html = client.get(listing).get_data(as_text=True)
        assert f'href="/game/{game}"' in html and f"/game/{game}/replay" not in html, listing
