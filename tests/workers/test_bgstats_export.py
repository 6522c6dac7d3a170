"""Plays taken out in BG Stats' own format: the file BG Stats opens
(``players``, ``locations``, ``games``, ``plays``), the club's for its admin
token and a player's own for their member sign-in; imported into a new club it
gives the same standings."""

from __future__ import annotations

import json

from tests.factories import Api, ClubFactory, LeagueFactory
from tests.workers.helpers import drain, league_with_games
from tests.workers.test_history_import import upload

STANDING_FIELDS = "p.name, s.games, s.wins, s.placements, s.points, s.average_score, s.mu, s.sigma, s.rank"


def standings(pool, league_id) -> list[tuple]:
    with pool.connection() as conn:
        return sorted(
            tuple(r.values())
            for r in conn.execute(
                f"SELECT {STANDING_FIELDS} FROM standings s JOIN players p ON p.id = s.player_id"
                " WHERE s.league_id = %s",
                (league_id,),
            )
        )


def a_league_with_results(client):
    """A Pig league of four played games and three logged results: with
    scores, with places only, and with a tie."""
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    league, members, _ = league_with_games(client, club, 4, players=3)
    a, b, c = (m["id"] for m in members)
    for players in (
        [{"player": a, "place": 2, "score": 7}, {"player": c, "place": 1, "score": 12}],
        [{"player": b, "place": 1}, {"player": a, "place": 2}, {"player": c, "place": 2}],
        [{"player": c, "place": 1}, {"player": b, "place": 2}],
    ):
        body = {"engine": "pig", "league": league["id"], "options": {"target": 12}, "players": players}
        assert api.post(f"/clubs/{club['id']}/results", body).status_code == 201
    return club, api, league, members


def test_the_club_s_plays_as_a_bg_stats_file_import_into_a_new_club_with_the_same_standings(
    client, pool, database_url
):
    club, api, league, members = a_league_with_results(client)
    answer = api.get(f"/clubs/{club['id']}/plays.bgsplay?league={league['id']}")
    assert answer.status_code == 200, answer.get_json()
    assert 'filename="plays.bgsplay"' in answer.headers["Content-Disposition"]
    exported = json.loads(answer.get_data())
    assert {"players", "locations", "games", "plays"} <= set(exported)
    assert sorted(p["name"] for p in exported["players"]) == sorted(m["name"] for m in members)
    assert [g["name"] for g in exported["games"]] == ["Pig (reference dice game)"]
    assert len(exported["plays"]) == 7
    players = {p["id"] for p in exported["players"]}
    for play in exported["plays"]:
        assert play["gameRefId"] == exported["games"][0]["id"]
        assert play["locationRefId"] == exported["locations"][0]["id"]
        assert {s["playerRefId"] for s in play["playerScores"]} <= players
    no_scores = [p for p in exported["plays"] if all(s["score"] is None for s in p["playerScores"])]
    assert len(no_scores) == 2  # a result without scores keeps none

    other = ClubFactory(client=client)
    copy = LeagueFactory(client=client, club=other, engine="pig")
    r = upload(
        Api(client, other["admin_token"]), other, "plays.bgsplay", answer.get_data(), league=copy["id"]
    )
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["imported"] == 7
    drain(database_url)
    original = standings(pool, league["id"])
    assert standings(pool, copy["id"]) == original and len(original) == 3

    again = upload(
        Api(client, other["admin_token"]), other, "plays.bgsplay", answer.get_data(), league=copy["id"]
    )
    assert (again.get_json()["imported"], again.get_json()["already_imported"]) == (0, 7)


def test_a_player_takes_out_their_own_plays_and_no_one_else_s(client):
    club, api, league, members = a_league_with_results(client)
    me, other = members[0], members[1]
    member = api.post(f"/clubs/{club['id']}/players/{me['id']}/sign-in", {}).get_json()
    mine = Api(client, member["token"])
    answer = mine.get(f"/clubs/{club['id']}/plays.bgsplay?player={me['id']}")
    assert answer.status_code == 200
    exported = json.loads(answer.get_data())
    my_ref = next(p["id"] for p in exported["players"] if p["name"] == me["name"])
    assert exported["plays"] and all(
        my_ref in {s["playerRefId"] for s in play["playerScores"]} for play in exported["plays"]
    )
    everything = json.loads(api.get(f"/clubs/{club['id']}/plays.bgsplay").get_data())
    assert len(exported["plays"]) < len(everything["plays"])

    assert mine.get(f"/clubs/{club['id']}/plays.bgsplay?player={other['id']}").status_code == 403
    assert mine.get(f"/clubs/{club['id']}/plays.bgsplay").status_code == 403
    stranger = ClubFactory(client=client)
    assert Api(client, stranger["admin_token"]).get(f"/clubs/{club['id']}/plays.bgsplay").status_code == 404
