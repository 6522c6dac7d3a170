"""Numbers and days at the edge of what a computer holds: a score of 1e308,
a game of a billion minutes, a search from the calendar's first day to its
last, a page past any count. Each door answers in words (a named 4xx, or a
search open at that end), never a 500, and a refusal stores nothing."""

from __future__ import annotations

import io
import json

import pytest

from service.records.recording.results import MINUTES_LIMIT, SCORE_LIMIT
from tests.factories import Api, ClubFactory, PlayerFactory
from tests.web.helpers import csrf_token, sign_in
from tests.workers.helpers import drain


def _stored(pool) -> tuple[int, ...]:
    with pool.connection() as conn:
        return tuple(
            conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()["n"]
            for table in ("games", "events", "result_games")
        )


@pytest.fixture
def trio(client):
    club = ClubFactory(client=client)
    return club, [PlayerFactory(client=client, club=club, name=n) for n in ("Ann", "Ben", "Cleo")]


def _result(players, scores, **more):
    return {
        "engine": "house-of-cronies",
        "players": [{"player": p["id"], "score": s} for p, s in zip(players, scores, strict=True)],
        **more,
    }


@pytest.mark.parametrize("score", [1e308, 1e20, SCORE_LIMIT + 1, -(SCORE_LIMIT + 1)])
def test_an_api_score_beyond_the_bound_is_refused_by_name_and_stores_nothing(client, pool, trio, score):
    club, players = trio
    api = Api(client, club["admin_token"])
    before = _stored(pool)
    r = api.post(f"/clubs/{club['id']}/results", _result(players, [score, 1, 2]))
    assert r.status_code == 422, r.get_data(as_text=True)[:300]
    assert r.get_json()["code"] == "result-score-out-of-range"
    assert f"{SCORE_LIMIT:,}" in r.get_json()["detail"]
    assert _stored(pool) == before


def test_a_score_at_the_bound_is_recorded(client, pool, trio):
    club, players = trio
    api = Api(client, club["admin_token"])
    r = api.post(f"/clubs/{club['id']}/results", _result(players, [SCORE_LIMIT, 1, 2]))
    assert r.status_code == 201, r.get_json()
    assert [p["place"] for p in r.get_json()["players"]] == [1, 3, 2]


def test_an_imported_or_restored_score_beyond_the_bound_is_refused_and_stores_nothing(client, pool, trio):
    club, players = trio
    api = Api(client, club["admin_token"])
    before = _stored(pool)
    rows = "".join(
        f"2024-01-01,House of Cronies,{p['name']},{s},\n" for p, s in zip(players, (1e308, 1, 2), strict=True)
    )
    r = client.post(
        f"/clubs/{club['id']}/history",
        data={"file": (io.BytesIO(f"date,game,player,score,place\n{rows}".encode()), "plays.csv")},
        headers=api.headers(),
        content_type="multipart/form-data",
    )
    assert r.status_code == 422, r.get_data(as_text=True)[:300]
    assert [x["rule"] for x in r.get_json()["refused"]] == ["result-score-out-of-range"]
    header = {"format": "tablerecord.club/1", "club": {"name": "Restored"}, "players": []}
    header["players"] = [{"id": str(n), "name": n} for n in ("a", "b", "c")]
    for value in (10**400, 1e20):
        line = {
            "result": {
                "engine": "house-of-cronies",
                "played_on": "2024-01-01",
                "players": [
                    {"player": p, "score": v, "place": n}
                    for p, v, n in zip("abc", (value, 1, 2), (1, 3, 2), strict=True)
                ],
            }
        }
        body = (json.dumps(header) + "\n" + json.dumps(line) + "\n").encode()
        r = client.post(
            "/clubs/restore",
            data={"file": (io.BytesIO(body), "c.ndjson")},
            content_type="multipart/form-data",
        )
        assert r.status_code == 422, r.get_data(as_text=True)[:300]
        assert "1,000,000,000" in r.get_json()["detail"]
    assert _stored(pool) == before


@pytest.mark.parametrize("minutes", [10**12, -1, MINUTES_LIMIT + 1, "ninety", 1.5])
def test_a_restored_length_out_of_bounds_or_not_a_number_is_refused(client, pool, minutes):
    header = {"format": "tablerecord.club/1", "club": {"name": "Restored"}, "players": []}
    header["players"] = [{"id": n, "name": n} for n in ("a", "b", "c")]
    line = {
        "result": {
            "engine": "house-of-cronies",
            "played_on": "2024-01-01",
            "minutes": minutes,
            "players": [{"player": p, "place": n} for p, n in zip("abc", (1, 2, 3), strict=True)],
        }
    }
    before = _stored(pool)
    body = (json.dumps(header) + "\n" + json.dumps(line) + "\n").encode()
    r = client.post(
        "/clubs/restore", data={"file": (io.BytesIO(body), "c.ndjson")}, content_type="multipart/form-data"
    )
    assert r.status_code == 422, r.get_data(as_text=True)[:300]
    assert f"0 to {MINUTES_LIMIT:,}" in r.get_json()["detail"]
    assert _stored(pool) == before


@pytest.mark.parametrize(
    "field, value",
    [("score", "nan"), ("score", "inf"), ("score", "-inf"), ("score", "1e308"), ("minutes", "9" * 30)],
)
def test_the_log_result_form_refuses_numbers_out_of_bounds_in_words_and_keeps_the_input(
    client, pool, trio, field, value
):
    club, players = trio
    sign_in(client, club["admin_token"])
    path = f"/club/{club['id']}/log-result"
    form = client.get(path, query_string={"engine": "house-of-cronies"}).get_data(as_text=True)
    data = {
        "csrf_token": csrf_token(form),
        "engine": "house-of-cronies",
        "player": [p["id"] for p in players],
    }
    for p, score in zip(players, ("7", "9", "8"), strict=True):
        data[f"score-{p['id']}"] = score
    if field == "score":
        data[f"score-{players[0]['id']}"] = value
    else:
        data["minutes"] = value
    before = _stored(pool)
    r = client.post(path, data=data)
    page = r.get_data(as_text=True)
    assert r.status_code == 422, page[:500]
    assert 'id="problem"' in page
    assert (
        "A score is a number from" if field == "score" else "A game lasts a whole number of minutes"
    ) in page
    assert f'value="{value}"' in page  # the input kept
    assert 'value="9"' in page
    assert _stored(pool) == before


def test_a_search_from_the_calendars_first_day_or_to_its_last_is_open_at_that_end(client, trio, database_url):
    club, players = trio
    api = Api(client, club["admin_token"])
    r = api.post(f"/clubs/{club['id']}/results", _result(players, [3, 1, 2]))
    assert r.status_code == 201
    drain(database_url)
    sign_in(client, club["admin_token"])
    for query in (
        {"since": "0001-01-01"},
        {"until": "9999-12-31"},
        {"since": "0001-01-01", "until": "9999-12-31"},
    ):
        found = client.get(f"/clubs/{club['id']}/games/search", query_string=query, headers=api.headers())
        assert found.status_code == 200, (query, found.get_data(as_text=True)[:300])
        assert found.get_json()["total"] == 1
        page = client.get(f"/club/{club['id']}/games", query_string=query)
        assert page.status_code == 200, (query, page.get_data(as_text=True)[:300])
        assert "Ann" in page.get_data(as_text=True)
    for query in ({"since": "9999-12-31"}, {"until": "0001-01-01"}):
        found = client.get(f"/clubs/{club['id']}/games/search", query_string=query, headers=api.headers())
        assert (found.status_code, found.get_json()["total"]) == (200, 0), query


@pytest.mark.parametrize("page", ["99999999999999999999", str(2**31), "9" * 5000])
def test_the_web_games_list_refuses_a_page_past_any_count_in_words(client, trio, page):
    club, _ = trio
    sign_in(client, club["admin_token"])
    r = client.get(f"/club/{club['id']}/games", query_string={"page": page})
    assert r.status_code == 422, r.get_data(as_text=True)[:300]
    assert "The page is a whole number" in r.get_data(as_text=True)
