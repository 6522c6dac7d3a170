"""The web forms and page parameters, fuzzed: whatever a browser (or someone
typing into the address bar) sends, the answer is a page, never a 5xx."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.helpers import csrf_token, sign_in, table_game
from tests.workers.helpers import drain

SPECIAL = ["", "0", "-1", "1.5", "abc", "table", "\x00", "a\x00b", "not-a-uuid", "9" * 40, "[]", "{}", "null"]
TEXT = st.one_of(
    st.sampled_from(SPECIAL),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40),
)
FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def signed_in(client, database_url):
    club, players, league, game = table_game(client, target=10)
    drain(database_url)  # the replay page has its projection
    sign_in(client, club["admin_token"])
    return client, club, players, league, game


def _token(client, path):
    return csrf_token(client.get(path).get_data(as_text=True))


def _no_5xx(response, what):
    assert response.status_code < 500, (what, response.status_code, response.get_data(as_text=True)[:300])


@FUZZ
@given(engine=TEXT, seats=st.lists(TEXT, max_size=4), league=TEXT, public=TEXT, option=TEXT)
def test_the_new_game_form_never_answers_5xx(signed_in, engine, seats, league, public, option):
    client, club, players, _, _ = signed_in
    path = f"/club/{club['id']}/new-game"
    data = {
        "csrf_token": _token(client, path),
        "engine": engine,
        "seat": seats,
        "league": league,
        "public": public,
        "option-target": option,
    }
    _no_5xx(client.post(path, data=data), data)
    _no_5xx(client.get(path, query_string={"engine": engine}), engine)


@FUZZ
@given(league=TEXT, seat=TEXT)
def test_a_real_engine_with_bad_seats_or_league_is_a_4xx_page(signed_in, league, seat):
    client, club, players, _, _ = signed_in
    path = f"/club/{club['id']}/new-game"
    data = {
        "csrf_token": _token(client, path),
        "engine": "chancellors",
        "seat": [players[0]["id"], seat, players[2]["id"]],
        "league": league,
    }
    _no_5xx(client.post(path, data=data), data)


@FUZZ
@given(seat=TEXT, command=TEXT, version=TEXT)
def test_the_scorepad_form_never_answers_5xx(signed_in, seat, command, version):
    client, _, _, _, game = signed_in
    path = f"/game/{game['id']}/scorepad"
    token = _token(client, path)
    data = {"csrf_token": token, "seat": seat, "command": command, "version": version}
    _no_5xx(client.post(path, data=data), data)
    _no_5xx(client.post(f"/game/{game['id']}/undo", data={"csrf_token": token, "version": version}), version)


@FUZZ
@given(name=st.sampled_from(["seat", "version", "step", "upto", "page", "actor", "p", "next"]), value=TEXT)
def test_page_parameters_never_answer_5xx(signed_in, name, value):
    client, club, _, league, game = signed_in
    for path in (
        "/",
        f"/game/{game['id']}",
        f"/game/{game['id']}/live",
        f"/game/{game['id']}/replay",
        f"/game/{game['id']}/scorepad",
        f"/league/{league['id']}",
        f"/league/{league['id']}/statistics",
        f"/club/{club['id']}/new-game",
    ):
        _no_5xx(client.get(path, query_string={name: value}), (path, name, value))


@FUZZ
@given(token=TEXT, target=TEXT)
def test_the_sign_in_form_never_answers_5xx(client, token, target):
    response = client.post(
        "/sign-in", data={"csrf_token": _token(client, "/"), "token": token, "next": target}
    )
    _no_5xx(response, (token, target))
