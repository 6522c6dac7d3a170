"""Tournaments through the API: created, players entered, rounds seated at
tables of the game's sizes, swaps, each table's game logged or started, the
rounds closed by their games, the final table, withdrawals; and the
tournament a replay of its stream gives equals the one served."""

from __future__ import annotations

import itertools
import random
import uuid

import pytest

from engines import registry
from service.records.competitions import tournament_log, tournaments
from tests.api.test_full_games import play_through_api
from tests.factories import Api, ClubFactory, LeagueFactory, PlayerFactory
from tests.workers.helpers import drain


@pytest.fixture
def club(client):
    return ClubFactory(client=client)


@pytest.fixture
def api(client, club):
    return Api(client, club["admin_token"])


def new_tournament(api, club, **spec) -> dict:
    body = {"name": "Winter Cup", "engine": "chancellors", "rounds": 2, **spec}
    response = api.post(f"/clubs/{club['id']}/tournaments", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def enter(api, client, club, tournament, n) -> list[dict]:
    players = [PlayerFactory(client=client, club=club) for _ in range(n)]
    for p in players:
        answer = api.post(f"/tournaments/{tournament['id']}/players", {"player": p["id"]})
        assert answer.status_code == 200, answer.get_json()
    return players


def ok(response, status=200) -> dict:
    assert response.status_code == status, response.get_json()
    return response.get_json()


def tables(view, round_number=None) -> list[list[str]]:
    r = view["played"][-1] if round_number is None else view["played"][round_number - 1]
    return [[s["player"] for s in t["players"]] for t in r["tables"]]


def log_by_seat_order(api, tid, view):
    """Every table of the open round logged: its first seat first, and so on."""
    for t in view["played"][-1]["tables"]:
        body = {"players": [{"player": s["player"], "place": i} for i, s in enumerate(t["players"], start=1)]}
        view = ok(api.post(f"/tournaments/{tid}/tables/{t['table']}/result", body))
    return view


def served_equals_replay(api, pool, tid) -> dict:
    """The tournament as served, and as a fold of its stored events: the same."""
    served = ok(api.get(f"/tournaments/{tid}"))
    with pool.connection() as conn:
        events = tournament_log.read(conn, uuid.UUID(tid))
    replayed = tournaments.fold(tid, events, (2, 4))
    assert [tables(served, r.number) for r in replayed.played] == [
        [list(t.players) for t in r.tables] for r in replayed.played
    ]
    assert [p["player"] for p in served["players"]] == list(replayed.entered)
    assert served["version"] == replayed.version == len(events)
    return served


def test_nine_players_seated_three_tables_of_three_and_round_two_avoids_round_one(api, client, club, pool):
    t = new_tournament(api, club)
    assert t["status"] == "entering" and t["version"] == 1
    enter(api, client, club, t, 9)
    seated = ok(api.post(f"/tournaments/{t['id']}/rounds"))
    first = tables(seated)
    assert sorted(len(x) for x in first) == [3, 3, 3]
    assert sorted(p for x in first for p in x) == sorted(p["player"] for p in seated["players"])
    assert seated["status"] == "playing"
    # Round 1 by the order entered: the first three at table 1.
    assert first[0] == [p["player"] for p in seated["players"][:3]]

    # The round stays open until every table has ended; the next cannot be seated.
    refused = api.post(f"/tournaments/{t['id']}/rounds")
    assert refused.status_code == 409 and refused.get_json()["code"] == "round-open"

    after = log_by_seat_order(api, t["id"], seated)
    assert after["played"][0]["closed"] and after["status"] == "between-rounds"
    winners = {x[0] for x in first}
    assert {s["player"] for s in after["standings"] if s["points"] == 1.0} == winners
    assert all(s["games"] == 1 for s in after["standings"])

    answer = ok(api.post(f"/tournaments/{t['id']}/rounds"))
    assert answer == served_equals_replay(api, pool, t["id"])  # a write answers what a replay gives
    second = tables(answer)
    met_before = {frozenset(pair) for x in first for pair in itertools.combinations(x, 2)}
    met_again = [
        pair for x in second for pair in itertools.combinations(x, 2) if frozenset(pair) in met_before
    ]
    assert met_again == []  # nine players, three tables of three: a round without one repeat exists
    served_equals_replay(api, pool, t["id"])


def test_ten_players_of_house_of_cronies_sit_four_three_three(api, client, club):
    t = new_tournament(api, club, engine="house-of-cronies")
    enter(api, client, club, t, 10)
    assert sorted(len(x) for x in tables(ok(api.post(f"/tournaments/{t['id']}/rounds")))) == [3, 3, 4]


def test_a_swap_before_the_games_start_and_none_after(api, client, club, pool):
    t = new_tournament(api, club)
    enter(api, client, club, t, 6)
    first = tables(ok(api.post(f"/tournaments/{t['id']}/rounds")))
    a, b = first[0][0], first[1][0]
    swapped = tables(ok(api.post(f"/tournaments/{t['id']}/swap", {"players": [a, b]})))
    assert swapped[0] == [b, *first[0][1:]] and swapped[1] == [a, *first[1][1:]]

    same = api.post(f"/tournaments/{t['id']}/swap", {"players": [swapped[0][0], swapped[0][1]]})
    assert same.status_code == 422 and same.get_json()["code"] == "swap-same-table"
    ok(api.post(f"/tournaments/{t['id']}/tables/1/game", {"options": {}}))
    late = api.post(f"/tournaments/{t['id']}/swap", {"players": [swapped[0][0], swapped[1][0]]})
    assert late.status_code == 409 and late.get_json()["code"] == "table-started"
    served_equals_replay(api, pool, t["id"])


def test_a_table_played_on_the_scorepad_closes_the_round_when_its_game_ends(api, client, club):
    t = new_tournament(api, club, rounds=1)
    enter(api, client, club, t, 4)
    seated = ok(api.post(f"/tournaments/{t['id']}/rounds"))
    assert tables(seated) == [[p["player"] for p in seated["players"]]]
    started = ok(
        api.post(
            f"/tournaments/{t['id']}/tables/1/game",
            {"options": dict(registry.game("chancellors").trial.options)},
        )
    )
    table = started["played"][0]["tables"][0]
    assert table["game_status"] == "playing"
    game = ok(api.get(f"/games/{table['game']}"))
    assert [s["player"] for s in game["seats"]] == tables(seated)[0]
    again = api.post(f"/tournaments/{t['id']}/tables/1/result", {"players": []})
    assert again.status_code in (409, 422)

    play_through_api(api, table["game"], random.Random(7))
    done = ok(api.get(f"/tournaments/{t['id']}"))
    assert done["played"][0]["tables"][0]["game_status"] == "ended"
    assert done["status"] == "finished" and len(done["ranking"]) == 4
    over = api.post(f"/tournaments/{t['id']}/rounds")
    assert over.status_code == 409 and over.get_json()["code"] == "tournament-over"


def test_the_final_table_seats_the_top_of_the_standings(api, client, club):
    t = new_tournament(api, club, rounds=1, final_table=3)
    enter(api, client, club, t, 6)
    after = log_by_seat_order(api, t["id"], ok(api.post(f"/tournaments/{t['id']}/rounds")))
    top = [s["player"] for s in after["standings"][:3]]
    final = ok(api.post(f"/tournaments/{t['id']}/rounds"))
    assert final["played"][-1]["final"] and sorted(tables(final)[0]) == sorted(top)
    assert final["rounds_seated"] == 1 and final["status"] == "playing"
    body = {"players": [{"player": p, "place": i} for i, p in enumerate(reversed(tables(final)[0]), start=1)]}
    done = ok(api.post(f"/tournaments/{t['id']}/tables/1/result", body))
    assert done["status"] == "finished"
    assert [r["player"] for r in done["ranking"][:3]] == list(reversed(tables(final)[0]))
    # The standings stay those of the rounds: the final table is its own game.
    assert [s["player"] for s in done["standings"]] == [s["player"] for s in after["standings"]]


def test_late_arrivals_and_withdrawals_between_rounds(api, client, club, pool):
    t = new_tournament(api, club, rounds=3)
    players = enter(api, client, club, t, 6)
    log_by_seat_order(api, t["id"], ok(api.post(f"/tournaments/{t['id']}/rounds")))
    gone = players[0]["id"]
    ok(api.post(f"/tournaments/{t['id']}/players/{gone}/withdraw"))
    late = enter(api, client, club, t, 2)
    second = ok(api.post(f"/tournaments/{t['id']}/rounds"))
    seated = {p for x in tables(second) for p in x}
    assert gone not in seated and {p["id"] for p in late} <= seated and len(seated) == 7
    assert sorted(len(x) for x in tables(second)) == [3, 4]
    withdrawn = next(s for s in second["standings"] if s["player"] == gone)
    assert withdrawn["games"] == 1 and withdrawn["present"] is False
    again = api.post(f"/tournaments/{t['id']}/players/{gone}/withdraw")
    assert again.status_code == 422 and again.get_json()["code"] == "player-not-entered"
    served_equals_replay(api, pool, t["id"])


def test_a_field_that_cannot_be_seated_whole_sits_the_fewest_out(api, client, club):
    t = new_tournament(api, club, engine="political-divide-and-conquer")
    enter(api, client, club, t, 9)  # tables of 4 to 8: nine sit as 5 + 4
    assert sorted(len(x) for x in tables(ok(api.post(f"/tournaments/{t['id']}/rounds")))) == [4, 5]
    t = new_tournament(api, club, engine="final-decrees", name="Decrees")
    players = enter(api, client, club, t, 6)  # tables of 4 or 5: one of six sits out
    seated = ok(api.post(f"/tournaments/{t['id']}/rounds"))
    assert [len(x) for x in tables(seated)] == [5]
    assert [p["player"] for p in seated["played"][0]["sitting_out"]] == [players[-1]["id"]]


def test_the_rules_of_creation_and_entry(api, client, club):
    base = f"/clubs/{club['id']}/tournaments"
    too_big = api.post(base, {"name": "Cup", "engine": "chancellors", "rounds": 2, "final_table": 5})
    assert too_big.status_code == 422 and too_big.get_json()["code"] == "final-table-size"
    blank = api.post(base, {"name": "  ", "engine": "chancellors", "rounds": 2})
    assert blank.status_code == 422
    other = LeagueFactory(client=client, club=club, engine="pig")
    wrong = api.post(base, {"name": "Cup", "engine": "chancellors", "rounds": 2, "league": other["id"]})
    assert wrong.status_code == 422 and wrong.get_json()["code"] == "league-engine"
    t = new_tournament(api, club)
    (p,) = enter(api, client, club, t, 1)
    twice = api.post(f"/tournaments/{t['id']}/players", {"player": p["id"]})
    assert twice.status_code == 409 and twice.get_json()["code"] == "player-entered"
    stranger = api.post(f"/tournaments/{t['id']}/players", {"player": str(uuid.uuid4())})
    assert stranger.status_code == 422 and stranger.get_json()["code"] == "unknown-player"
    few = api.post(f"/tournaments/{t['id']}/rounds")
    assert few.status_code == 422 and few.get_json()["code"] == "too-few-players"


def test_members_read_and_only_the_organiser_runs_it(api, client, club):
    t = new_tournament(api, club)
    (p,) = enter(api, client, club, t, 1)
    member = ok(api.post(f"/clubs/{club['id']}/players/{p['id']}/sign-in"), 201)["token"]
    assert api.get(f"/tournaments/{t['id']}", token=member).status_code == 200
    assert api.get(f"/clubs/{club['id']}/tournaments", token=member).status_code == 200
    refused = api.post(f"/tournaments/{t['id']}/rounds", token=member)
    assert refused.status_code == 403
    stranger = ClubFactory(client=client)
    assert api.get(f"/tournaments/{t['id']}", token=stranger["admin_token"]).status_code == 404
    assert api.get(f"/tournaments/{t['id']}", token="nope").status_code == 401


def test_round_one_is_seeded_by_the_league_s_ratings_the_unrated_last(api, client, club, database_url):
    league = LeagueFactory(client=client, club=club, engine="chancellors", min_games=0)
    players = [PlayerFactory(client=client, club=club) for _ in range(7)]
    for table in (players[0:3], players[3:6]):  # the last of each table wins
        body = {
            "engine": "chancellors",
            "league": league["id"],
            "players": [{"player": p["id"], "place": 3 - i} for i, p in enumerate(table)],
        }
        ok(api.post(f"/clubs/{club['id']}/results", body), 201)
    drain(database_url, ["standings"])
    rating = {
        s["player"]: s["rating"] for s in ok(api.get(f"/leagues/{league['id']}/standings"))["standings"]
    }
    t = new_tournament(api, club, league=league["id"])
    entered = [players[6], *players[:6]]  # the unrated player entered first
    for p in entered:
        ok(api.post(f"/tournaments/{t['id']}/players", {"player": p["id"]}))
    seeds = sorted(
        (p["id"] for p in entered),
        key=lambda p: (p not in rating, -rating.get(p, 0), [e["id"] for e in entered].index(p)),
    )
    assert seeds[-1] == players[6]["id"] and seeds[0] in (players[2]["id"], players[5]["id"])
    first = tables(ok(api.post(f"/tournaments/{t['id']}/rounds")))
    assert first == [seeds[:4], seeds[4:]]


def test_a_table_whose_logged_result_is_retracted_is_open_again_and_logged_anew(api, client, club, pool):
    t = new_tournament(api, club, rounds=1)
    enter(api, client, club, t, 3)
    seated = ok(api.post(f"/tournaments/{t['id']}/rounds"))
    done = log_by_seat_order(api, t["id"], seated)
    assert done["status"] == "finished"
    game = done["played"][0]["tables"][0]["game"]
    ok(api.post(f"/games/{game}/result/retract", {"reason": "wrong places"}))
    reopened = ok(api.get(f"/tournaments/{t['id']}"))
    assert reopened["played"][0]["tables"][0]["game_status"] == "abandoned"
    assert reopened["status"] == "playing" and reopened["ranking"] is None
    assert all(s["games"] == 0 for s in reopened["standings"])
    again = log_by_seat_order(api, t["id"], reopened)
    assert again["status"] == "finished" and again["played"][0]["tables"][0]["game"] != game
    served_equals_replay(api, pool, t["id"])
