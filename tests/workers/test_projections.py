"""The projections on real Postgres, run in-process: standings, ratings,
replays and statistics of games recorded through the API, retractions,
abandoned games, poison events, and the rebuild from zero."""

from __future__ import annotations

from collections import Counter, defaultdict

import psycopg
import pytest

from engines.base import Event, GameConfig, fold
from engines.pig import ENGINE as PIG
from service.records.log import store
from service.records.log.fold import SERVICE_EVENTS
from service.records.log.store import NewEvent
from service.records.reading.ratings import MODEL
from tests.conftest import OPERATOR_TOKEN
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.workers.helpers import checkpoints, drain, head, play_pig, snapshot
from workers.projections.rebuild import rebuild_all

POINTS = [5, 2, 1]


def record_league(client, club, min_games=3):
    """Four members; D plays only once. Returns the league, members and [(game, final view)]."""
    league = LeagueFactory(client=client, club=club, points_table=POINTS, min_games=min_games)
    a, b, c, d = (PlayerFactory(client=client, club=club, name=n) for n in ("Ada", "Bo", "Cy", "Di"))
    lineups = [[a, b], [b, c, a], [c, a], [a, b, c], [d, a, c], [b, c]]
    finals = []
    for i, seats in enumerate(lineups):
        game = GameFactory(
            client=client, club=club, players=seats, league=league["id"], options={"target": 12}
        )
        finals.append((game, play_pig(client, game, hold_at=3 + i % 4)))
    return league, (a, b, c, d), finals


def expected_standings(finals, points_table, min_games):
    model = MODEL
    ratings, acc = (
        {},
        defaultdict(lambda: {"games": 0, "wins": 0, "points": 0.0, "score": 0.0, "placements": Counter()}),
    )
    for _game, final in finals:
        players = [s["player"] for s in final["seats"]]
        places = final["outcome"]["places"]
        teams = [[ratings.get(p, model.rating())] for p in players]
        for p, team in zip(players, model.rate(teams, ranks=places), strict=True):
            ratings[p] = team[0]
        for seat, p in enumerate(players):
            a = acc[p]
            a["games"] += 1
            a["wins"] += places[seat] == 1
            a["points"] += points_table[places[seat] - 1] if places[seat] <= len(points_table) else 0
            a["score"] += final["outcome"]["scores"][seat]
            a["placements"][str(places[seat])] += 1
    return ratings, acc


def test_full_games_give_the_right_standings_ratings_replays_and_statistics_and_a_rebuild_equals_them(
    client, database_url
):
    club = ClubFactory(client=client)
    league, members, finals = record_league(client, club)
    api = Api(client, club["admin_token"])
    drain(database_url)

    # standings
    body = api.get(f"/leagues/{league['id']}/standings").get_json()
    ratings, acc = expected_standings(finals, POINTS, 3)
    rows = {r["player"]: r for r in body["standings"]}
    assert set(rows) == {m["id"] for m in members}
    for player, a in acc.items():
        row = rows[player]
        assert (row["games"], row["wins"], row["points"]) == (a["games"], a["wins"], a["points"])
        assert row["placements"] == dict(a["placements"])
        assert row["average_score"] == pytest.approx(a["score"] / a["games"])
        assert row["mu"] == pytest.approx(ratings[player].mu, abs=1e-9)
        assert row["sigma"] == pytest.approx(ratings[player].sigma, abs=1e-9)
        assert row["ranked"] == (a["games"] >= 3)
    assert rows[members[3]["id"]]["rank"] is None  # Di played once: unranked, listed last
    assert body["standings"][-1]["player"] == members[3]["id"]
    ranked = [r for r in body["standings"] if r["ranked"]]
    assert ranked[0]["rank"] == 1
    keys = [(-r["points"], -r["wins"], -r["rating"], -r["average_score"], r["games"]) for r in ranked]
    assert keys == sorted(keys)
    for previous, row in zip(ranked, ranked[1:], strict=False):
        assert row["rank"] == (
            previous["rank"]
            if keys[ranked.index(row)] == keys[ranked.index(previous)]
            else ranked.index(row) + 1
        )

    # rating history: every game, every player's change, in the order games ended
    history = api.get(f"/leagues/{league['id']}/rating-history").get_json()["games"]
    assert [g["game"] for g in history] == [game["id"] for game, _ in finals]
    replayed = {}
    for entry in history:
        for change in entry["changes"]:
            if change["player"] in replayed:
                assert change["mu_before"] == replayed[change["player"]]
            replayed[change["player"]] = change["mu_after"]
            assert change["change"] == pytest.approx(change["rating_after"] - change["rating_before"])
    ada = api.get(f"/leagues/{league['id']}/rating-history?player={members[0]['id']}").get_json()["games"]
    assert len(ada) == acc[members[0]["id"]]["games"]

    # replays: every step's state is the fold of the events up to it
    for game, final in finals:
        export = api.get(f"/games/{game['id']}/replay/export").get_json()
        events = api.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
        assert export["game"]["step_count"] == len(events) == final["version"]
        assert export["game"]["seed"] == final["seed"] and export["game"]["viewer"] == "all"
        config = GameConfig(seats=len(final["seats"]), options={"target": 12})
        names = [s["name"] for s in final["seats"]]
        for n, step in enumerate(export["steps"], start=1):
            moves = [Event(e["type"], e["data"]) for e in events[:n] if e["type"] not in SERVICE_EVENTS]
            assert step["step"] == n and step["type"] == events[n - 1]["type"]
            assert step["state"] == PIG.dump_state(fold(PIG, config, moves))
            if step["type"] not in SERVICE_EVENTS:
                assert step["description"] == PIG.describe(Event(step["type"], step["data"]), names)
        assert export["steps"][-1]["state"] == final["state"]
        middle = len(events) // 2
        one = api.get(f"/games/{game['id']}/replay/steps/{middle}").get_json()["step"]
        assert one == export["steps"][middle - 1]
        page = api.get(f"/games/{game['id']}/replay?from_step=2&limit=3").get_json()
        assert [s["step"] for s in page["steps"]] == [2, 3, 4] and page["next_step"] == 5
    ndjson = api.get(f"/games/{finals[0][0]['id']}/replay/export", Accept="application/x-ndjson")
    lines = ndjson.data.decode().splitlines()
    assert ndjson.mimetype == "application/x-ndjson" and len(lines) == finals[0][1]["version"] + 1

    # statistics, against figures counted here from the log
    stats = api.get(f"/leagues/{league['id']}/statistics").get_json()["statistics"]
    assert stats["games"] == len(finals)
    for seat in range(3):
        played = [f for _, f in finals if seat < len(f["seats"])]
        wins = sum(f["outcome"]["places"][seat] == 1 for f in played)
        assert stats["win_rate_by_seat"][seat]["games"] == len(played)
        assert stats["win_rate_by_seat"][seat]["wins"] == wins
    assert stats["first_player"]["wins"] == sum(f["outcome"]["places"][0] == 1 for _, f in finals)
    assert stats["ended_by"] == {"target-score": len(finals)}
    assert stats["scores"]["winners"]["count"] == len(finals)
    assert stats["by_engine"]["pig"]["games"] == len(finals)
    assert stats["engine"]["target"]["mean"] == 12
    luck: dict[str, list[float]] = defaultdict(list)
    for game, final in finals:
        for e in api.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]:
            if e["type"] == "DieRolled":
                luck[final["seats"][e["data"]["seat"]]["player"]].append((e["data"]["value"] - 0.5) / 6)
    for row in stats["players"]:
        assert row["luck"]["chance_events"] == len(luck[row["player"]])
        assert row["luck"]["average_percentile"] == pytest.approx(
            sum(luck[row["player"]]) / len(luck[row["player"]])
        )
        assert row["games"] == acc[row["player"]]["games"] and row["wins"] == acc[row["player"]]["wins"]
    ab = next(
        h
        for h in stats["head_to_head"]
        if {h["player"], h["opponent"]} == {members[0]["id"], members[1]["id"]}
    )
    assert ab["games"] == 3  # Ada and Bo met in games 1, 2 and 4

    # rebuild from zero: the same rows, the same answers
    before = snapshot(database_url)
    answers = [
        api.get(p).get_json()
        for p in (
            f"/leagues/{league['id']}/standings",
            f"/leagues/{league['id']}/statistics",
            f"/leagues/{league['id']}/rating-history",
            f"/games/{finals[2][0]['id']}/replay/export",
        )
    ]
    rebuild_all(database_url)
    assert snapshot(database_url) == before
    assert [
        api.get(p).get_json()
        for p in (
            f"/leagues/{league['id']}/standings",
            f"/leagues/{league['id']}/statistics",
            f"/leagues/{league['id']}/rating-history",
            f"/games/{finals[2][0]['id']}/replay/export",
        )
    ] == answers
    assert min(checkpoints(database_url).values()) == head(database_url)


def table_game(api, club, league, players, target=5):
    body = {
        "engine": "pig",
        "seats": [p["id"] for p in players],
        "dealer": "table",
        "league": league["id"],
        "options": {"target": target},
    }
    response = api.post(f"/clubs/{club['id']}/games", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def act(api, gid, seat, kind, **fields):
    response = api.post(f"/games/{gid}/actions", {"seat": seat, "command": {"type": kind, **fields}})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def win_with_a_six(api, gid, seat):
    act(api, gid, seat, "Roll")
    act(api, gid, None, "ResolveRoll", dice=[6])
    return act(api, gid, seat, "Hold")


def test_a_retraction_that_changes_a_result_recomputes_every_later_rating(client, database_url):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, min_games=1)
    p, q = PlayerFactory(client=client, club=club), PlayerFactory(client=client, club=club)
    first = table_game(api, club, league, [p, q])
    assert win_with_a_six(api, first, 0)["status"] == "finished"  # P wins
    second = table_game(api, club, league, [p, q])
    win_with_a_six(api, second, 0)  # P wins again
    abandoned = table_game(api, club, league, [q, p])
    act(api, abandoned, 0, "Roll")
    assert api.post(f"/games/{abandoned}/abandon", {"reason": "rain"}).status_code == 201
    drain(database_url)
    old = api.get(f"/leagues/{league['id']}/rating-history").get_json()["games"]
    assert [g["game"] for g in old] == [first, second]

    # The first game is taken back to just after P's six, and Q wins it instead.
    assert api.post(f"/games/{first}/retract", {"to_version": 3, "reason": "misread die"}).status_code == 201
    drain(database_url)
    mid = api.get(f"/leagues/{league['id']}/standings").get_json()["standings"]
    assert {r["player"]: r["games"] for r in mid} == {
        p["id"]: 1,
        q["id"]: 1,
    }  # only the second game counts now
    act(api, first, 0, "Hold")  # P banks 6: P has 6 >= 5 and wins?  no: target 5 -> P wins again
    drain(database_url)
    again = api.get(f"/leagues/{league['id']}/rating-history").get_json()["games"]
    assert [g["game"] for g in again] == [first, second]  # the corrected game keeps its place

    # Take it back once more and let Q win this time: P busts, Q rolls a six and holds.
    events = api.get(f"/games/{first}/events?limit=100").get_json()["events"]
    live = [e["version"] for e in events if e["type"] == "RollStarted"]
    assert api.post(f"/games/{first}/retract", {"to_version": live[0] - 1}).status_code == 201
    act(api, first, 0, "Roll")
    act(api, first, None, "ResolveRoll", dice=[1])
    assert win_with_a_six(api, first, 1)["status"] == "finished"
    drain(database_url)

    history = api.get(f"/leagues/{league['id']}/rating-history").get_json()["games"]
    assert [g["game"] for g in history] == [first, second]
    model = MODEL
    a, b = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])  # Q won the first game
    a2, b2 = model.rate([a, b], ranks=[1, 2])  # P won the second
    by_player = {c["player"]: c for c in history[1]["changes"]}
    assert by_player[p["id"]]["mu_before"] == pytest.approx(a[0].mu)
    assert by_player[p["id"]]["mu_after"] == pytest.approx(a2[0].mu)
    assert by_player[q["id"]]["mu_after"] == pytest.approx(b2[0].mu)
    assert history[1]["changes"] != old[1]["changes"]  # the later game's ratings moved
    standings = {
        r["player"]: r for r in api.get(f"/leagues/{league['id']}/standings").get_json()["standings"]
    }
    assert (standings[p["id"]]["games"], standings[p["id"]]["wins"]) == (2, 1)
    assert (standings[q["id"]]["games"], standings[q["id"]]["wins"]) == (2, 1)
    stats = api.get(f"/leagues/{league['id']}/statistics").get_json()["statistics"]
    assert stats["games"] == 2  # the abandoned game counts nowhere

    # the replay marks what was taken back, and its last state is the game's
    export = api.get(f"/games/{first}/replay/export").get_json()
    retracted = [s for s in export["steps"] if s["retracted_by"] is not None]
    assert retracted and all(s["retracted_by"] > s["step"] for s in retracted)
    assert export["steps"][-1]["state"] == api.get(f"/games/{first}").get_json()["state"]

    before = snapshot(database_url)
    rebuild_all(database_url)
    assert snapshot(database_url) == before


def test_a_poison_event_stops_only_its_game_in_the_projections_it_breaks(client, database_url, pool):
    club = ClubFactory(client=client)
    league = LeagueFactory(client=client, club=club, min_games=1)
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    poisoned = GameFactory(client=client, club=club, players=players, league=league["id"])
    with pool.connection() as conn, conn.transaction():
        version = conn.execute(
            "SELECT max(version) AS v FROM events WHERE game_id = %s", (poisoned["id"],)
        ).fetchone()["v"]
        store.append(
            conn,
            club["id"],
            poisoned["id"],
            version,
            [
                NewEvent("MeteorStruck", {"seat": 0}),  # no engine knows this event
                NewEvent(
                    "GameEnded", {"places": [1, 2], "scores": [30, 0], "ended_by": "meteor", "seed": None}
                ),
            ],
        )
    healthy = GameFactory(
        client=client, club=club, players=players, league=league["id"], options={"target": 12}
    )
    final = play_pig(client, healthy)
    freshness = drain(database_url)
    assert set(freshness.values()) == {head(database_url)}

    api = Api(client, club["admin_token"])
    errors = Api(client, OPERATOR_TOKEN).get("/projections").get_json()
    assert {p["name"]: p["errors"] for p in errors["projections"]} == {
        "replays": 1,
        "standings": 0,
        "statistics": 1,
    }
    standings = api.get(f"/leagues/{league['id']}/standings").get_json()["standings"]
    assert sum(r["games"] for r in standings) == 4  # both games count: standings need no engine
    stats = api.get(f"/leagues/{league['id']}/statistics").get_json()["statistics"]
    assert stats["games"] == 1 and stats["ended_by"] == {"target-score": 1}
    broken = api.get(f"/games/{poisoned['id']}/replay").get_json()["game"]
    assert "MeteorStruck" in broken["error"] and broken["step_count"] < version + 2
    good = api.get(f"/games/{healthy['id']}/replay/export").get_json()
    assert good["game"]["error"] is None and len(good["steps"]) == final["version"]

    before = snapshot(database_url)
    rebuild_all(database_url)
    assert snapshot(database_url) == before


def test_the_rebuild_command_rebuilds_every_projection_in_place(client, database_url, monkeypatch, capsys):
    from workers import rebuild

    club = ClubFactory(client=client)
    league = LeagueFactory(client=client, club=club)
    play_pig(client, GameFactory(client=client, club=club, league=league["id"], options={"target": 12}))
    drain(database_url)
    before = snapshot(database_url)
    with psycopg.connect(database_url) as conn:  # a projection row gone astray is put right
        conn.execute("UPDATE standings SET wins = wins + 7")
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert rebuild.main([]) == 0
    out = capsys.readouterr().out
    assert all(f"{name}:" in out for name in ("standings", "replays", "statistics"))
    assert snapshot(database_url) == before
    with psycopg.connect(database_url) as conn:
        schemas = conn.execute(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE '%%_rebuild_%%'"
        ).fetchall()
    assert schemas == []  # the side schemas are gone


def test_a_rebuild_reports_its_progress_after_every_batch(client, database_url):
    from workers.projections.rebuild import rebuild

    club = ClubFactory(client=client)
    league = LeagueFactory(client=client, club=club)
    play_pig(client, GameFactory(client=client, club=club, league=league["id"], options={"target": 12}))
    reports = []
    rebuild(
        database_url,
        "replays",
        batch_size=5,
        on_progress=lambda position, head: reports.append((position, head)),
    )
    positions = [position for position, _ in reports]
    assert len(reports) > 2 and positions == sorted(set(positions))
    assert reports[-1] == (head(database_url), head(database_url))


def test_the_rebuild_command_shows_events_done_rate_and_time_left(client, database_url, monkeypatch, capsys):
    from workers import rebuild

    club = ClubFactory(client=client)
    play_pig(client, GameFactory(client=client, club=club, options={"target": 12}))
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert rebuild.main(["standings"]) == 0
    shown = capsys.readouterr().err
    assert "standings: 100%" in shown  # every log event there was read
    assert "events/s" in shown and "<00:00" in shown  # the rate and the time left
