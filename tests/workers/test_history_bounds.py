"""A history file's work is bounded: each of its counts and sizes has a
limit, and a file or play past one is refused with a named problem, before
the work it would cost (a BoardGameGeek play's ``quantity`` multiplies it)."""

from __future__ import annotations

import json
from uuid import UUID

import pytest

from service.api.routes.history import FORM_ROOM
from service.records.history import formats
from tests.factories import Api, ClubFactory
from tests.workers.test_history_import import counts, upload

PLAYERS = '<players><player name="Ann" score="31" win="1"/><player name="Ben" score="1" win="0"/></players>'


def bgg(*plays: str) -> bytes:
    return ("<plays>" + "".join(plays) + "</plays>").encode()


def bgg_play(play_id: int, quantity: int = 1, players: str = PLAYERS, comments: str = "") -> str:
    return (
        f'<play id="{play_id}" date="2024-01-01" quantity="{quantity}">'
        f'<item name="Pig"/>{players}<comments>{comments}</comments></play>'
    )


@pytest.fixture
def api(client):
    club = ClubFactory(client=client)
    return Api(client, club["admin_token"]), club


def test_a_play_counted_more_often_than_a_play_may_be_is_refused_and_nothing_is_stored(api, pool):
    api, club = api
    before = counts(pool)
    r = upload(api, club, "plays.xml", bgg(bgg_play(77, quantity=formats.MAX_QUANTITY + 1)))
    assert r.status_code == 422
    problem = r.get_json()
    assert problem["code"] == "history-refused"
    assert problem["refused"] == [
        {
            "where": "play 1",
            "reason": f"This play cannot be read: its quantity {formats.MAX_QUANTITY + 1} is more than"
            f" the {formats.MAX_QUANTITY} a play may count.",
        }
    ]
    assert counts(pool) == before
    r = upload(api, club, "plays.xml", bgg(bgg_play(77, quantity=3)))
    assert r.get_json().get("imported") == 3, r.get_json()


def test_a_quantity_of_a_million_is_refused_at_once(api):
    api, club = api
    r = upload(api, club, "plays.xml", bgg(bgg_play(77, quantity=1_000_000)))
    assert r.status_code == 422 and r.get_json()["code"] == "history-refused"


def test_plays_past_the_files_bound_refuse_the_file_however_they_are_counted(api, pool):
    api, club = api
    before = counts(pool)
    per_play = formats.MAX_QUANTITY
    plays = [bgg_play(i, quantity=per_play) for i in range(formats.MAX_PLAYS // per_play + 1)]
    r = upload(api, club, "plays.xml", bgg(*plays))
    assert r.status_code == 422
    assert r.get_json()["code"] == "history-too-large"
    assert str(formats.MAX_PLAYS) in r.get_json()["detail"]
    assert counts(pool) == before


def test_a_csv_or_bg_stats_file_of_too_many_plays_is_refused(api):
    api, club = api
    rows = ["date,game,player,score,place,play"]
    rows += [f"2024-01-01,Pig,Ann,{i},,{i}" for i in range(formats.MAX_PLAYS + 1)]
    r = upload(api, club, "plays.csv", ("\n".join(rows) + "\n").encode())
    assert (r.status_code, r.get_json()["code"]) == (422, "history-too-large")
    backup = {
        "games": [{"id": 1, "name": "Pig"}],
        "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Ben"}],
        "plays": [
            {
                "uuid": f"u{i}",
                "playDate": "2024-01-01",
                "gameRefId": 1,
                "playerScores": [{"playerRefId": 1, "score": 3}, {"playerRefId": 2, "score": 1}],
            }
            for i in range(formats.MAX_PLAYS + 1)
        ],
    }
    r = upload(api, club, "backup.json", json.dumps(backup).encode())
    assert (r.status_code, r.get_json()["code"]) == (422, "history-too-large")


def test_a_play_of_more_players_than_a_play_may_have_is_refused(api):
    api, club = api
    many = "".join(f'<player name="P{i}" score="{i}"/>' for i in range(formats.MAX_PLAYERS + 1))
    r = upload(api, club, "plays.xml", bgg(bgg_play(1, players=f"<players>{many}</players>")))
    assert r.status_code == 422
    (refused,) = r.get_json()["refused"]
    assert f"{formats.MAX_PLAYERS + 1} players" in refused["reason"]


def test_a_note_longer_than_a_results_note_is_refused(api):
    api, club = api
    r = upload(api, club, "plays.xml", bgg(bgg_play(1, comments="x" * (formats.MAX_NOTE + 1))))
    assert r.status_code == 422
    (refused,) = r.get_json()["refused"]
    assert f"more than {formats.MAX_NOTE} characters" in refused["reason"]


def test_a_csv_of_too_many_rows_is_refused(api):
    api, club = api
    rows = ["date,game,player"] + ["2024-01-01,Pig,"] * (formats.MAX_ROWS + 1)
    r = upload(api, club, "plays.csv", ("\n".join(rows) + "\n").encode())
    assert (r.status_code, r.get_json()["code"]) == (422, "history-too-large")


def test_a_file_larger_than_a_history_file_may_be_is_refused_whole(api):
    api, club = api
    r = upload(api, club, "plays.csv", b"date,game,player\n" + b"x" * formats.MAX_BYTES)
    assert (r.status_code, r.get_json()["code"]) == (422, "history-too-large")
    r = upload(api, club, "plays.csv", b"x" * (formats.MAX_BYTES + FORM_ROOM))
    assert r.status_code == 413


def test_the_domain_refuses_a_file_too_large_whatever_door_it_came_by(app, api):
    from service.records.access import Principal
    from service.records.errors import Invalid
    from service.records.history import imports

    _, club = api
    records, club_id = app.extensions["tablerecord.records"], UUID(club["id"])
    with pytest.raises(Invalid) as refused:
        imports.import_history(
            records, club_id, Principal(club_id, "admin"), "csv", b" " * (formats.MAX_BYTES + 1)
        )
    assert refused.value.code == "history-too-large"


def test_the_api_documents_the_bounds_it_keeps():
    from service.api.routes import history
    from service.records.history import backup

    imports = history.import_history.__doc__.replace(",", "")
    for bound in (
        formats.MAX_PLAYS,
        formats.MAX_QUANTITY,
        formats.MAX_ROWS,
        formats.MAX_PLAYERS,
        formats.MAX_NOTE,
    ):
        assert str(bound) in imports, bound
    assert f"{formats.MAX_BYTES // 2**20} MiB" in imports
    restores = history.restore_club.__doc__.replace(",", "")
    for bound in (backup.MAX_GAMES, backup.MAX_PLAYERS, backup.MAX_LEAGUES):
        assert str(bound) in restores, bound
    assert f"{backup.MAX_BYTES // 2**20} MiB" in restores
