"""The "Log a result" form and the history upload, fuzzed: whatever is sent,
the answer is a page or a problem, never a 5xx."""

from __future__ import annotations

import io

from hypothesis import given

from tests.web.test_form_fuzz import FUZZ, TEXT, _no_5xx, _token, signed_in  # noqa: F401 - the fixture


@FUZZ
@given(engine=TEXT, player=TEXT, place=TEXT, score=TEXT, league=TEXT, day=TEXT, minutes=TEXT, note=TEXT)
def test_the_log_result_form_never_answers_5xx(
    signed_in,  # noqa: F811 - the fixture
    engine,
    player,
    place,
    score,
    league,
    day,
    minutes,
    note,
):
    client, club, players, _, _ = signed_in
    path = f"/club/{club['id']}/log-result"
    real = str(players[0]["id"])
    data = {
        "csrf_token": _token(client, path),
        "engine": engine,
        "player": [player, real],
        f"place-{player}": place,
        f"place-{real}": place,
        f"score-{real}": score,
        "league": league,
        "played_on": day,
        "minutes": minutes,
        "note": note,
    }
    _no_5xx(client.post(path, data=data), data)
    _no_5xx(client.get(path, query_string={"engine": engine}), engine)


@FUZZ
@given(game=TEXT, name=TEXT, score=TEXT, place=TEXT, day=TEXT)
def test_a_history_upload_never_answers_5xx(signed_in, game, name, score, place, day):  # noqa: F811
    client, club, _, _, _ = signed_in
    row = ",".join(f'"{v}"' for v in (day, game, name, score, place))
    content = f"date,game,player,score,place\n{row}\n2024-01-01,{game},{name},{score},{place}\n".encode(
        "utf-8", "surrogatepass"
    )
    response = client.post(
        f"/clubs/{club['id']}/history",
        data={"file": (io.BytesIO(content), "history.csv")},
        headers={"Authorization": f"Bearer {club['admin_token']}"},
        content_type="multipart/form-data",
    )
    _no_5xx(response, content)
