"""Files built to break a history import or a restore get a 4xx naming what
is wrong, and store nothing; never a 500."""

from __future__ import annotations

import io
import json

import pytest

from tests.factories import Api, ClubFactory


def _counts(pool) -> tuple[int, ...]:
    with pool.connection() as conn:
        return tuple(
            conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()["n"]
            for table in ("clubs", "players", "leagues", "games", "events")
        )


def _bgstats(play_scores=None, game_id=1, player_id=1, **play) -> bytes:
    return json.dumps(
        {
            "games": [{"id": game_id, "name": "Pig"}],
            "players": [{"id": player_id, "name": "Ann"}, {"id": 2, "name": "Bob"}],
            "plays": [
                {
                    "uuid": "p1",
                    "playDate": "2024-01-01",
                    "gameRefId": game_id,
                    "playerScores": play_scores
                    if play_scores is not None
                    else [
                        {"playerRefId": player_id, "score": 30, "rank": 1},
                        {"playerRefId": 2, "score": 3, "rank": 2},
                    ],
                    **play,
                }
            ],
        }
    ).encode()


NESTED = "<x>" * 100_000 + "</x>" * 100_000
HISTORY = {
    "bgstats-brackets": ("b.json", b"[" * 100_000),
    "bgstats-score-entry-is-text": ("b.json", _bgstats(play_scores=["Ann scored 30"])),
    "bgstats-game-id-is-a-list": ("b.json", _bgstats(game_id=[1])),
    "bgstats-player-id-is-a-list": ("b.json", _bgstats(player_id=[1, 2])),
    "bgstats-rank-inf": (
        "b.json",
        _bgstats(play_scores=[{"playerRefId": 1, "rank": "inf"}, {"playerRefId": 2, "rank": 2}]),
    ),
    "bgstats-rank-1e400": (
        "b.json",
        _bgstats(play_scores=[{"playerRefId": 1, "rank": "1e400"}, {"playerRefId": 2, "rank": 2}]),
    ),
    "bgstats-minutes-1e400": ("b.json", _bgstats(durationMin="1e400")),
    "csv-minutes-inf": ("p.csv", b"date,game,player,score,place,minutes\n2024-01-01,Pig,Ann,30,1,inf\n"),
    "csv-place-1e400": ("p.csv", b"date,game,player,score,place\n2024-01-01,Pig,Ann,30,1e400\n"),
    "bgg-length-inf": (
        "p.xml",
        b'<plays><play id="1" date="2024-01-01" length="inf"><item name="Pig"/></play></plays>',
    ),
    "bgg-nested-play-without-id": (
        "p.xml",
        f'<plays><play date="2024-01-01"><item name="Pig"/>{NESTED}</play></plays>'.encode(),
    ),
}


@pytest.mark.parametrize("case", sorted(HISTORY))
def test_a_broken_history_file_is_refused_by_name_and_stores_nothing(client, pool, case):
    filename, content = HISTORY[case]
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    before = _counts(pool)
    r = client.post(
        f"/clubs/{club['id']}/history",
        data={"file": (io.BytesIO(content), filename)},
        headers=api.headers(),
        content_type="multipart/form-data",
    )
    assert r.status_code == 422, r.get_data(as_text=True)[:500]
    assert r.get_json()["code"] in ("history-unreadable", "history-refused")
    assert _counts(pool) == before


HEADER = {"format": "tablerecord.club/1", "club": {"name": "Club"}, "players": [{"id": "p1", "name": "Ann"}]}
RESULT = {"engine": "pig", "played_on": "2024-01-01", "players": [{"player": "p1", "score": 30, "place": 1}]}
RESTORE = {
    "first-line-brackets": b"[" * 100_000 + b"\n",
    "header-without-club": json.dumps({k: v for k, v in HEADER.items() if k != "club"}).encode() + b"\n",
    "bad-played-on": (
        json.dumps(HEADER) + "\n" + json.dumps({"result": {**RESULT, "played_on": "yesterday"}}) + "\n"
    ).encode(),
    "seats-not-objects": (
        json.dumps(HEADER) + "\n" + json.dumps({"result": {**RESULT, "players": ["p1", 7]}}) + "\n"
    ).encode(),
    "game-seats-not-objects": (
        json.dumps(HEADER) + "\n" + json.dumps({"game": {"engine": "pig", "seats": ["p1"]}}) + "\n"
    ).encode(),
    "line-not-an-object": (json.dumps(HEADER) + "\n[1, 2]\n").encode(),
}


@pytest.mark.parametrize("case", sorted(RESTORE))
def test_a_broken_backup_is_refused_by_name_and_stores_nothing(client, pool, case):
    before = _counts(pool)
    r = client.post(
        "/clubs/restore",
        data={"file": (io.BytesIO(RESTORE[case]), "club.ndjson")},
        content_type="multipart/form-data",
    )
    assert r.status_code == 422, r.get_data(as_text=True)[:500]
    assert r.get_json()["code"] in ("backup-unreadable", "backup-refused")
    assert _counts(pool) == before
