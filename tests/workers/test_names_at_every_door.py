"""One rule for names, whichever way a name comes in: the API, the web
pages' forms, a history import (CSV, BG Stats, BoardGameGeek) and a restored
backup. A refused name stores nothing; a name that could be several of the
club's players is refused with them named."""

from __future__ import annotations

import io
import json
import unicodedata

import pytest

from tests.factories import Api, ClubFactory, PlayerFactory
from tests.web.helpers import csrf_token, sign_in

BAD = {
    "zero-width": "Ana\u200b",
    "bidi": "\u202eanA",
    "nul": "Ana\x00",
    "blank": "   ",
    "overlong": "A" * 121,
}
NFD = unicodedata.normalize("NFD", "\u00c1na")  # "Ána" decomposed


def _players(pool, club_id) -> list[str]:
    with pool.connection() as conn:
        rows = conn.execute("SELECT name FROM players WHERE club_id = %s", (club_id,)).fetchall()
    return sorted(r["name"] for r in rows)


def _counts(pool) -> tuple[int, int, int]:
    with pool.connection() as conn:
        return tuple(
            conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()["n"]
            for table in ("clubs", "players", "leagues", "games")
        )


def _csv(name: str) -> bytes:
    return f"date,game,player,score,place\n2024-01-01,Pig,{name},30,1\n2024-01-01,Pig,Bob,3,2\n".encode()


def _bgstats(name: str) -> bytes:
    return json.dumps(
        {
            "games": [{"id": 1, "name": "Pig"}],
            "players": [{"id": 1, "name": name}, {"id": 2, "name": "Bob"}],
            "plays": [
                {
                    "uuid": "p1",
                    "playDate": "2024-01-01",
                    "gameRefId": 1,
                    "playerScores": [
                        {"playerRefId": 1, "score": 30, "rank": 1},
                        {"playerRefId": 2, "score": 3, "rank": 2},
                    ],
                }
            ],
        }
    ).encode()


def _bgg(name: str) -> bytes:
    escaped = name.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return (
        '<plays><play id="7" date="2024-01-01"><item name="Pig"/><players>'
        f'<player name="{escaped}" score="30" win="1"/><player name="Bob" score="3" win="0"/>'
        "</players></play></plays>"
    ).encode()


FILES = {"plays.csv": _csv, "bgstats.json": _bgstats, "plays.xml": _bgg}


def _import(api, club, filename: str, content: bytes):
    return api.client.post(
        f"/clubs/{club['id']}/history",
        data={"file": (io.BytesIO(content), filename)},
        headers=api.headers(),
        content_type="multipart/form-data",
    )


@pytest.mark.parametrize("filename", sorted(FILES))
@pytest.mark.parametrize("bad", sorted(k for k in BAD if k != "nul"))
def test_an_import_refuses_a_name_the_rule_refuses_and_stores_nothing(client, pool, filename, bad):
    """(A NUL cannot be written in XML, and the readers refuse it in the others.)"""
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    PlayerFactory(client=client, club=club, name="Ana")
    before = _counts(pool)
    r = _import(api, club, filename, FILES[filename](BAD[bad]))
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["code"] == "history-refused"
    assert _counts(pool) == before and _players(pool, club["id"]) == ["Ana"]


@pytest.mark.parametrize("filename", sorted(FILES))
def test_an_imported_name_is_composed_and_matches_the_clubs_player(client, pool, filename):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    PlayerFactory(client=client, club=club, name="\u00c1na")
    r = _import(api, club, filename, FILES[filename](NFD))
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["players_added"] == ["Bob"]
    assert _players(pool, club["id"]) == ["Bob", "\u00c1na"]


@pytest.mark.parametrize("filename", sorted(FILES))
def test_a_name_that_could_be_several_players_is_refused_naming_them(client, pool, filename):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    for name in ("Ana", "ana", "ANA"):
        PlayerFactory(client=client, club=club, name=name)
    before = _counts(pool)
    r = _import(api, club, filename, FILES[filename]("aNa"))
    assert r.status_code == 422, r.get_json()
    (refused,) = r.get_json()["refused"]
    assert refused["rule"] == "player-name-ambiguous"
    assert refused["candidates"] == ["ANA", "Ana", "ana"]
    assert _counts(pool) == before
    exact = _import(api, club, filename, FILES[filename]("ana"))  # the exact name is not ambiguous
    assert exact.status_code == 201, exact.get_json()


@pytest.mark.parametrize("bad", sorted(BAD))
def test_the_web_forms_refuse_a_name_the_rule_refuses(client, pool, bad):
    name = BAD[bad]
    club = ClubFactory(client=client)
    before = _counts(pool)
    home = client.get("/").get_data(as_text=True)
    refused = client.post("/new-club", data={"name": name, "csrf_token": csrf_token(home)})
    assert refused.status_code == 422 and 'id="club-name-error"' in refused.get_data(as_text=True)
    sign_in(client, club["admin_token"])
    page = client.get(f"/club/{club['id']}/players").get_data(as_text=True)
    token = csrf_token(page)
    added = client.post(f"/club/{club['id']}/players", data={"name": name, "csrf_token": token})
    assert added.status_code == 422, added.get_data(as_text=True)[:300]
    league = client.post(f"/club/{club['id']}/leagues", data={"name": name, "csrf_token": token})
    assert league.status_code == 422, league.get_data(as_text=True)[:300]
    if name.strip():
        season = client.post(
            f"/club/{club['id']}/leagues", data={"name": "Cup", "season": f"2026{name}", "csrf_token": token}
        )
        assert season.status_code == 422, season.get_data(as_text=True)[:300]
    assert _counts(pool) == before


def test_the_web_player_form_refuses_a_bidi_file_name_and_stores_names_composed(client, pool):
    club = ClubFactory(client=client)
    sign_in(client, club["admin_token"])
    token = csrf_token(client.get(f"/club/{club['id']}/players").get_data(as_text=True))
    refused = client.post(
        f"/club/{club['id']}/players", data={"name": "Web\u202etxt.exe", "csrf_token": token}
    )
    assert refused.status_code == 422
    added = client.post(f"/club/{club['id']}/players", data={"name": f" {NFD} ", "csrf_token": token})
    assert added.status_code == 303
    assert _players(pool, club["id"]) == ["\u00c1na"]


def _restore(client, header: dict, *lines: dict):
    body = "".join(json.dumps(line) + "\n" for line in (header, *lines)).encode()
    return client.post(
        "/clubs/restore", data={"file": (io.BytesIO(body), "club.ndjson")}, content_type="multipart/form-data"
    )


@pytest.mark.parametrize(
    "header",
    [
        {"club": {"name": "C" * 500_000}, "players": []},
        {"club": {"name": "Club"}, "players": [{"id": "p1", "name": "  "}]},
        {
            "club": {"name": "Club"},
            "players": [{"id": "p1", "name": "Ana"}, {"id": "p2", "name": "An\u200ba"}],
        },
        {
            "club": {"name": "Club"},
            "leagues": [{"id": "l1", "name": "\u202eCup", "engine": None, "season": ""}],
        },
    ],
    ids=["long-club-name", "blank-player", "zero-width-player", "bidi-league"],
)
def test_a_restore_refuses_a_name_the_rule_refuses_and_stores_nothing(client, pool, header):
    before = _counts(pool)
    r = _restore(client, {"format": "tablerecord.club/1", **header})
    assert r.status_code == 422, r.get_json()
    assert _counts(pool) == before
