"""A whole club as one NDJSON backup, restored into a new club with the same
standings, statistics and replays."""

from __future__ import annotations

import io
import json

from tests.factories import Api, ClubFactory
from tests.workers.helpers import drain, league_with_games


def without_clock(value):
    """The figures without the wall-clock lengths (``minutes``): a restore
    records every event anew, so only the times it was recorded differ."""
    if isinstance(value, dict):
        return {k: without_clock(v) for k, v in value.items() if k != "minutes"}
    if isinstance(value, (list, tuple)):
        return [without_clock(v) for v in value]
    return value


def by_name(rows: list[dict], keep: tuple[str, ...]) -> list[tuple]:
    return sorted(tuple(r[k] for k in keep) for r in rows)


def test_a_club_backup_restores_with_the_same_standings_statistics_and_replays(client, pool, database_url):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    league, members, finals = league_with_games(client, club, 3, players=3)
    body = {
        "engine": "pig",
        "league": league["id"],
        "options": {"target": 12},
        "players": [{"player": members[1]["id"], "score": 14}, {"player": members[2]["id"], "score": 3}],
    }
    assert api.post(f"/clubs/{club['id']}/results", body).status_code == 201
    dropped = api.post(f"/clubs/{club['id']}/results", body).get_json()
    assert api.post(f"/games/{dropped['id']}/result/retract", {}).status_code == 200

    r = api.get(f"/clubs/{club['id']}/backup.ndjson")
    assert r.status_code == 200 and r.content_type.startswith("application/x-ndjson")
    lines = [json.loads(line) for line in r.get_data(as_text=True).splitlines()]
    assert lines[0]["format"] == "tablerecord.club/1" and len(lines) == 1 + 3 + 2
    assert sum("result" in line for line in lines) == 2

    restored = client.post(
        "/clubs/restore",
        data={"file": (io.BytesIO(r.get_data()), "club.ndjson")},
        content_type="multipart/form-data",
    )
    assert restored.status_code == 201, restored.get_json()
    copy = restored.get_json()
    assert copy["name"] == club["name"] and copy["games"] == 5
    copy_api = Api(client, copy["admin_token"])
    (copy_league,) = copy_api.get(f"/clubs/{copy['id']}/leagues").get_json()
    drain(database_url)

    keep = ("name", "games", "wins", "placements", "points", "average_score", "mu", "sigma", "rating", "rank")
    original = api.get(f"/leagues/{league['id']}/standings").get_json()["standings"]
    again = copy_api.get(f"/leagues/{copy_league['id']}/standings").get_json()["standings"]
    assert by_name(original, keep) == by_name(again, keep)

    def figures(a, league_id):
        stats = a.get(f"/leagues/{league_id}/statistics").get_json()["statistics"]
        return {
            k: v for k, v in stats.items() if k not in ("players", "longest_winning_streaks", "head_to_head")
        }, sorted(
            ({k: v for k, v in p.items() if k != "player"} for p in stats["players"]), key=lambda p: p["name"]
        )

    assert without_clock(figures(api, league["id"])) == without_clock(figures(copy_api, copy_league["id"]))

    old_games = [g for g in api.get(f"/clubs/{club['id']}/games").get_json() if g["status"] == "finished"]
    new_games = [
        g for g in copy_api.get(f"/clubs/{copy['id']}/games").get_json() if g["status"] == "finished"
    ]
    assert len(old_games) == len(new_games)
    old_lines = sorted(
        tuple(s["description"] for s in api.get(f"/games/{f[0]['id']}/replay?limit=1000").get_json()["steps"])
        for f in finals
    )
    new_lines = sorted(
        tuple(
            s["description"] for s in copy_api.get(f"/games/{g['id']}/replay?limit=1000").get_json()["steps"]
        )
        for g in new_games
        if copy_api.get(f"/games/{g['id']}/replay").status_code == 200
    )
    assert old_lines == new_lines and len(new_lines) == 3


def restore(client, content: bytes):
    return client.post(
        "/clubs/restore",
        data={"file": (io.BytesIO(content), "club.ndjson")},
        content_type="multipart/form-data",
    )


def stored(pool) -> dict[str, int]:
    with pool.connection() as conn:
        return {
            table: conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()["n"]
            for table in (
                "clubs",
                "tokens",
                "players",
                "leagues",
                "games",
                "events",
                "result_games",
                "tournaments",
                "tournament_events",
                "game_nights",
            )
        }


def test_a_refused_restore_leaves_nothing_behind(client, pool):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    league, members, _ = league_with_games(client, club, 2, players=3)
    body = {
        "engine": "pig",
        "league": league["id"],
        "options": {"target": 12},
        "players": [{"player": members[1]["id"], "score": 14}, {"player": members[2]["id"], "score": 3}],
    }
    assert api.post(f"/clubs/{club['id']}/results", body).status_code == 201
    lines = api.get(f"/clubs/{club['id']}/backup.ndjson").get_data().splitlines()
    impossible = json.loads(lines[-1])
    impossible["result"]["players"][1]["score"] = 20  # a loser above the target: the engine refuses it
    before = stored(pool)
    r = restore(client, b"\n".join([*lines, json.dumps(impossible).encode()]) + b"\n")
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["code"] == "backup-refused" and r.get_json()["line"] == len(lines) + 1
    assert stored(pool) == before


def test_a_backup_past_the_restores_bounds_is_refused_whole(client, pool):
    from service.api.routes.history import FORM_ROOM
    from service.records.history import backup

    header = json.dumps({"format": backup.FORMAT, "club": {"name": "Big"}, "players": [], "leagues": []})
    before = stored(pool)
    too_long = header.encode() + b"\n" + b" " * backup.MAX_BYTES
    r = restore(client, too_long)
    assert (r.status_code, r.get_json()["code"]) == (422, "backup-too-large")
    assert restore(client, too_long + b" " * FORM_ROOM).status_code == 413
    too_many = header.encode() + b"\n{}" * (backup.MAX_GAMES + 1)
    r = restore(client, too_many)
    assert (r.status_code, r.get_json()["code"]) == (422, "backup-too-large")
    assert stored(pool) == before


def test_a_club_with_its_own_catalog_a_retired_player_and_a_closed_league_restores_as_it_was(client):
    from service.records.club.catalogs import default_catalog

    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    ours = {
        **default_catalog("house-of-cronies"),
        "id": "tuesday-printed",
        "version": 2,
        "reconstruction": False,
    }
    assert (
        api.post(f"/clubs/{club['id']}/catalogs", {"kind": "house-of-cronies", "content": ours}).status_code
        == 201
    )
    league, members, _ = league_with_games(client, club, 1, players=3)
    game = api.post(
        f"/clubs/{club['id']}/games",
        {
            "engine": "house-of-cronies",
            "seats": [m["id"] for m in members],
            "dealer": "table",
            "catalog": {"id": "tuesday-printed", "version": 2},
        },
    )
    assert game.status_code == 201, game.get_json()
    assert (
        api.client.patch(
            f"/clubs/{club['id']}/players/{members[2]['id']}", json={"retired": True}, headers=api.headers()
        ).status_code
        == 200
    )
    assert (
        api.client.patch(
            f"/clubs/{club['id']}/leagues/{league['id']}", json={"closed": True}, headers=api.headers()
        ).status_code
        == 200
    )

    r = restore(client, api.get(f"/clubs/{club['id']}/backup.ndjson").get_data())
    assert r.status_code == 201, r.get_json()
    copy = Api(client, r.get_json()["admin_token"])
    base = f"/clubs/{r.get_json()['id']}"
    assert {(c["id"], c["version"], c["shipped"]) for c in copy.get(f"{base}/catalogs").get_json()} >= {
        ("tuesday-printed", 2, False)
    }
    (restored,) = [g for g in copy.get(f"{base}/games").get_json() if g["status"] == "active"]
    assert (
        restored["catalog"]["id"] == "tuesday-printed" and restored["catalog"]["club"] == r.get_json()["id"]
    )
    players = api.get(f"/clubs/{club['id']}/players").get_json()
    assert [(p["name"], p["retired"]) for p in copy.get(f"{base}/players").get_json()] == [
        (p["name"], p["retired"]) for p in players
    ]
    (closed,) = copy.get(f"{base}/leagues").get_json()
    assert closed["closed"] is True and closed["name"] == league["name"]


def test_a_tournament_restored_names_the_new_clubs_games_and_one_naming_another_game_is_refused(client, pool):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    _, members, _ = league_with_games(client, club, 1, players=3)
    cup = api.post(
        f"/clubs/{club['id']}/tournaments", {"name": "Cup", "engine": "house-of-cronies", "rounds": 1}
    )
    cup = cup.get_json()
    for m in members:
        assert api.post(f"/tournaments/{cup['id']}/players", {"player": m["id"]}).status_code == 200
    (table,) = api.post(f"/tournaments/{cup['id']}/rounds").get_json()["played"][0]["tables"]
    body = {"players": [{"player": s["player"], "place": i} for i, s in enumerate(table["players"], start=1)]}
    assert api.post(f"/tournaments/{cup['id']}/tables/1/result", body).status_code == 200
    lines = api.get(f"/clubs/{club['id']}/backup.ndjson").get_data().splitlines()

    r = restore(client, b"\n".join(lines))
    assert r.status_code == 201, r.get_json()
    copy = Api(client, r.get_json()["admin_token"])
    (restored,) = copy.get(f"/clubs/{r.get_json()['id']}/tournaments").get_json()
    game = copy.get(f"/tournaments/{restored['id']}").get_json()["played"][0]["tables"][0]["game"]
    assert game in {g["id"] for g in copy.get(f"/clubs/{r.get_json()['id']}/games").get_json()}

    # The same line naming a game of another club (the first club's own): refused, nothing stored.
    number = next(i for i, raw in enumerate(lines) if b'"tournament"' in raw)
    line = json.loads(lines[number])
    started = next(e for e in line["tournament"]["events"] if e["type"] == "TableGameStarted")
    started["data"]["game"] = game
    before = stored(pool)
    r = restore(client, b"\n".join([*lines[:number], json.dumps(line).encode(), *lines[number + 1 :]]))
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["code"] == "backup-refused" and r.get_json()["line"] == number + 1
    assert stored(pool) == before


def test_a_backup_with_more_tournaments_and_nights_than_a_restore_takes_is_refused_whole(
    client, pool, monkeypatch
):
    from service.records.history import backup

    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    night = {"day": "2099-01-01", "time": "19:30", "place": "The back room", "games": ["pig"]}
    for _ in range(2):
        assert api.post(f"/clubs/{club['id']}/game-nights", night).status_code == 201
    content = api.get(f"/clubs/{club['id']}/backup.ndjson").get_data()
    assert content.count(b'"night"') == 2
    monkeypatch.setattr(backup, "MAX_COMPETITIONS", 1)
    before = stored(pool)
    r = restore(client, content)
    assert (r.status_code, r.get_json()["code"]) == (422, "backup-too-large"), r.get_json()
    assert stored(pool) == before
    monkeypatch.setattr(backup, "MAX_COMPETITIONS", 2)
    r = restore(client, content)
    assert r.status_code == 201, r.get_json()
    copy = Api(client, r.get_json()["admin_token"])
    assert len(copy.get(f"/clubs/{r.get_json()['id']}/game-nights").get_json()) == 2


def test_a_club_with_a_merge_restores_with_the_same_players_and_standings(client, pool, database_url):
    from tests.records.test_player_merges import _Club

    club = _Club(client, ("Anna", "Ana", "Bo", "Cy"))
    club.record(["Anna", "Bo"], 0, 0)
    club.record(["Ana", "Cy"], 0, 1)
    club.record(["Cy", "Ana", "Bo"], 1, 2)
    merged = club.admin.post(
        f"/clubs/{club.id}/players/{club.players['Ana']}/merge", {"into": club.players["Anna"]}
    )
    assert merged.status_code == 201, merged.get_json()
    drain(database_url)
    content = club.admin.get(f"/clubs/{club.id}/backup.ndjson").get_data()
    assert [m["type"] for m in json.loads(content.splitlines()[0])["merges"]] == ["PlayersMerged"]

    r = restore(client, content)
    assert r.status_code == 201, r.get_json()
    copy = r.get_json()
    copy_api = Api(client, copy["admin_token"])
    drain(database_url)
    keep = ("name", "games", "wins", "points", "mu", "sigma", "rating", "rank")
    (copy_league,) = copy_api.get(f"/clubs/{copy['id']}/leagues").get_json()
    original = club.get(f"/leagues/{club.league}/standings")["standings"]
    again = copy_api.get(f"/leagues/{copy_league['id']}/standings").get_json()["standings"]
    assert by_name(again, keep) == by_name(original, keep) and len(original) == 3
    listed = [p["name"] for p in copy_api.get(f"/clubs/{copy['id']}/players").get_json()]
    assert listed == club.listed() and "Ana" not in listed

    # A merge naming a player the backup does not hold is refused, and nothing is stored.
    header = json.loads(content.splitlines()[0])
    header["merges"][0]["data"]["kept"] = "00000000-0000-0000-0000-000000000000"
    before = stored(pool)
    forged = restore(client, b"\n".join([json.dumps(header).encode(), *content.splitlines()[1:]]) + b"\n")
    assert (forged.status_code, forged.get_json()["code"]) == (422, "backup-refused")
    assert stored(pool) == before
