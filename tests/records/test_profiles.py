"""A player's profile holds the figures a plain fold of the event log gives,
and the club's game search finds exactly the games its filters describe."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

import psycopg
import pytest

from engines.pig import ENGINE as PIG
from tests.factories import Api, ClubFactory, GameFactory, PlayerFactory
from tests.workers.helpers import drain, league_with_games, play_pig


def _results_from_the_log(url: str, club_id: str) -> list[tuple[str, list[str], list[int]]]:
    """(engine, seats, places) of each finished game of the club, in the order the games ended."""
    created, ended = {}, {}
    with psycopg.connect(url) as conn:
        for game_id, kind, data, position in conn.execute(
            "SELECT game_id, type, data, position FROM events WHERE type IN ('GameCreated', 'GameEnded')"
            " ORDER BY position"
        ):
            if kind == "GameCreated" and str(data["club"]) == club_id:
                created[game_id] = (data["engine"], [str(s) for s in data["seats"]])
            elif kind == "GameEnded" and game_id in created:
                ended[game_id] = (position, data["places"])
    return [(*created[g], places) for g, (_, places) in sorted(ended.items(), key=lambda kv: kv[1][0])]


def _fold(player: str, results) -> dict:
    games = wins = run = longest = 0
    seats, against = defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0, 0, 0])
    for _engine, players, places in results:
        if player not in players:
            continue
        mine = places[players.index(player)]
        games += 1
        wins += mine == 1
        seats[players.index(player) + 1][0] += 1
        seats[players.index(player) + 1][1] += mine == 1
        run = run + 1 if mine == 1 else 0
        longest = max(longest, run)
        for other, theirs in zip(players, places, strict=True):
            if other != player:
                row = against[other]
                row[0] += 1
                row[1 if mine < theirs else 2 if mine > theirs else 3] += 1
    return {
        "games": games,
        "wins": wins,
        "by_seat": {s: tuple(v) for s, v in seats.items()},
        "streaks": {"longest_winning": longest, "current_winning": run},
        "head_to_head": {o: tuple(v) for o, v in against.items()},
    }


@pytest.fixture
def club_history(client, database_url):
    club = ClubFactory(client=client)
    league, members, finals = league_with_games(client, club, 7, players=4)
    outsider = PlayerFactory(client=client, club=club)  # a game outside the league counts too
    lone = GameFactory(client=client, club=club, players=[members[0], outsider], options={"target": 12})
    play_pig(client, lone, hold_at=5)
    live = GameFactory(client=client, club=club, players=[members[1], outsider], options={"target": 12})
    drain(database_url)
    return club, league, members + [outsider], live


def test_the_profile_holds_what_a_plain_fold_of_the_events_gives(client, database_url, club_history):
    club, _, members, _ = club_history
    api = Api(client, club["admin_token"])
    results = _results_from_the_log(database_url, club["id"])
    assert len(results) == 8
    for member in members:
        body = api.get(f"/players/{member['id']}/profile").get_json()
        expected = _fold(member["id"], results)
        assert (body["games"], body["wins"], body["streaks"]) == (
            expected["games"],
            expected["wins"],
            expected["streaks"],
        )
        assert {r["seat"]: (r["games"], r["wins"]) for r in body["by_seat"]} == expected["by_seat"]
        assert {
            h["player"]: (h["games"], h["ahead"], h["behind"], h["level"]) for h in body["head_to_head"]
        } == expected["head_to_head"]
        assert sum(r["games"] for r in body["by_game"]) == expected["games"]
        assert [g["title"] for g in body["played"]["games"]] == [PIG.title] * expected["games"]
        assert all(h["name"] for h in body["head_to_head"])  # names, never ids


def test_the_profile_shows_each_league_rating_on_the_members_scale(client, club_history):
    club, league, members, _ = club_history
    api = Api(client, club["admin_token"])
    body = api.get(f"/players/{members[0]['id']}/profile").get_json()
    (line,) = body["ratings"]
    assert line["league"] == league["id"]
    history = api.get(f"/leagues/{league['id']}/rating-history?player={members[0]['id']}").get_json()["games"]
    assert [g["game"] for g in line["games"]] == [g["seq"] for g in history]
    previous = 1500
    for game in line["games"]:
        assert game["change"] == game["rating"] - previous
        previous = game["rating"]


def test_another_club_and_no_token_never_see_a_profile(client, club_history):
    _, _, members, _ = club_history
    stranger = ClubFactory(client=client)
    assert Api(client, stranger["admin_token"]).get(f"/players/{members[0]['id']}/profile").status_code == 404
    assert client.get(f"/api/players/{members[0]['id']}/profile").status_code in (401, 404)


def test_the_search_finds_games_by_player_winner_status_league_and_date(client, database_url, club_history):
    club, league, members, live = club_history
    api = Api(client, club["admin_token"])
    results = _results_from_the_log(database_url, club["id"])
    search = f"/clubs/{club['id']}/games/search"

    def found(query: str) -> int:
        body = api.get(f"{search}?{query}").get_json()
        assert body["total"] == len(body["games"]) or body["pages"] > 1, body
        return body["total"]

    everything = found("")
    assert everything == len(results) + 1  # the live game too
    assert found("status=live") == 1
    assert api.get(f"{search}?status=live").get_json()["games"][0]["game"] == live["id"]
    assert found("status=finished") == len(results)
    a, b = members[0]["id"], members[1]["id"]
    assert found(f"player={a}") == sum(a in p for _, p, _ in results)
    assert found(f"player={a}&player={b}&status=finished") == sum(a in p and b in p for _, p, _ in results)
    won = sum(places[players.index(a)] == 1 for _, players, places in results if a in players)
    assert found(f"winner={a}") == won
    assert all(
        any(w["player"] == a for w in g["winners"])
        for g in api.get(f"{search}?winner={a}").get_json()["games"]
    )
    assert found(f"league={league['id']}") == 7
    assert found("engine=pig") == everything
    assert found("engine=chancellors") == 0
    today = date.today().isoformat()
    assert found(f"since={today}&until={today}") == everything
    assert found("until=2000-01-01") == 0
    assert api.get(f"{search}?status=over").status_code == 422


def test_a_member_lists_the_club_s_public_games_and_their_own_and_the_recorder_every_game(
    client, club_history
):
    club, _, members, _ = club_history
    admin = Api(client, club["admin_token"])
    outsider = members[-1]
    sign_in = admin.post(f"/clubs/{club['id']}/players/{outsider['id']}/sign-in")
    assert sign_in.status_code == 201, sign_in.get_json()
    member = Api(client, sign_in.get_json()["token"])
    search = f"/clubs/{club['id']}/games/search"
    every = {g["game"] for g in admin.get(search).get_json()["games"]}
    seen = {g["game"] for g in member.get(search).get_json()["games"]}
    mine = {g["game"] for g in admin.get(f"{search}?player={outsider['id']}").get_json()["games"]}
    # none of these games is public: a member lists their own, the recorder every one
    assert len(mine) == 2 and seen == mine and len(every) == 9
    profile = member.get(f"/players/{members[0]['id']}/profile").get_json()
    assert profile["games"] == 1  # the one game members[0] played with the outsider
    assert admin.get(f"/players/{members[0]['id']}/profile").get_json()["games"] > 1
