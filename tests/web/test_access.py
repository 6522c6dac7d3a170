"""Nothing of another seat or another club is reachable by changing a page's URL."""

from __future__ import annotations

import re

import pytest

from service.records.pages import replay_viewer
from service.web import game_pages
from tests.factories import ClubFactory, LeagueFactory
from tests.web.helpers import csrf_token, play_table_game, sign_in, table_game
from tests.workers.helpers import drain


@pytest.fixture
def two_clubs(client):
    club, players, league, game = table_game(client, target=10)
    play_table_game(client, game, club["admin_token"], until=lambda v: v["state"]["phase"] == "choose")
    other = ClubFactory(client=client)
    other_league = LeagueFactory(client=client, club=other, public=False)
    return club, league, game, other, other_league


def test_another_clubs_recorder_finds_nothing(client, two_clubs):
    club, league, game, other, _ = two_clubs
    sign_in(client, other["admin_token"])
    for path in (
        f"/club/{club['id']}",
        f"/club/{club['id']}/new-game",
        f"/league/{league['id']}",
        f"/league/{league['id']}/statistics",
        f"/game/{game['id']}",
        f"/game/{game['id']}/replay",
        f"/game/{game['id']}/scorepad",
    ):
        response = client.get(path)
        assert response.status_code == 404, path


def test_a_seat_sees_neither_another_seat_nor_the_club_and_enters_only_its_own_on_the_scorepad(
    client, two_clubs
):
    club, league, game, _, other_league = two_clubs
    sign_in(client, game["seat_tokens"][0]["token"])
    assert client.get(f"/game/{game['id']}").status_code == 200
    assert client.get(f"/game/{game['id']}?seat=1").status_code == 403
    assert client.get(f"/game/{game['id']}/replay?seat=1").status_code == 403
    pad = client.get(f"/game/{game['id']}/scorepad")
    assert pad.status_code == 200 and 'id="undo"' not in pad.get_data(as_text=True)
    assert set(re.findall(r'class="pad" id="pad-(\w+)"', pad.get_data(as_text=True))) <= {"0"}
    assert client.get(f"/club/{club['id']}").status_code == 403
    assert client.get(f"/league/{other_league['id']}").status_code == 404


def test_nobody_signed_in_is_asked_to_sign_in_and_sees_no_private_game(client, two_clubs):
    club, league, game, _, _ = two_clubs
    for path in (f"/club/{club['id']}", f"/game/{game['id']}", f"/league/{league['id']}"):
        answer = client.get(path)
        html = answer.get_data(as_text=True)
        assert answer.status_code == 401 and 'name="token"' in html, path
        assert "Seat" not in html and league["name"] not in html, path


def test_every_page_forbids_loading_anything_from_elsewhere(client, two_clubs):
    club = two_clubs[0]
    sign_in(client, club["admin_token"])
    policy = client.get(f"/club/{club['id']}").headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "/\t/evil.example/",
        "/\n/evil.example/",
        "/\\evil.example/",
        "\\\\evil.example/",
        "https://evil.example/",
        " //evil.example/",
        "/%09/evil.example/",
        "javascript:alert(1)",
    ],
)
def test_signing_in_follows_only_a_path_of_this_site(client, target):
    club = ClubFactory(client=client)
    page = client.get("/").get_data(as_text=True)
    response = client.post(
        "/sign-in", data={"token": club["admin_token"], "csrf_token": csrf_token(page), "next": target}
    )
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith("//") and "evil" not in location.split("/")[1]
    assert location in (target, f"/club/{club['id']}"), location


def test_signing_in_returns_to_the_page_asked_for(client):
    club = ClubFactory(client=client)
    page = client.get("/").get_data(as_text=True)
    target = f"/club/{club['id']}/new-game?engine=pig"
    response = client.post(
        "/sign-in", data={"token": club["admin_token"], "csrf_token": csrf_token(page), "next": target}
    )
    assert response.headers["Location"] == target


def test_a_replays_steps_are_sent_once_per_version_and_viewer(app, client, database_url, two_clubs):
    """Asked again unchanged, the steps are not sent again (304); a seat's steps are
    another drawing than the recorder's, and a move of the game makes a new one."""
    club, _, game, _, _ = two_clubs
    drain(database_url, ["replays"])
    sign_in(client, club["admin_token"])
    path = f"/game/{game['id']}/replay/steps"
    first = client.get(path)
    assert first.status_code == 200 and first.get_json()["steps"]
    etag = first.headers["ETag"]
    assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
    assert client.get(path + "?seat=0").headers["ETag"] != etag
    seat = app.test_client()
    sign_in(seat, game["seat_tokens"][0]["token"])
    assert seat.get(path, headers={"If-None-Match": etag}).status_code == 200  # not the recorder's drawing
    entries = iter(range(2))  # two more entries
    play_table_game(client, game, club["admin_token"], until=lambda _: next(entries, None) is None)
    drain(database_url, ["replays"])
    assert client.get(path, headers={"If-None-Match": etag}).status_code == 200


def test_a_replays_steps_are_sent_a_range_at_a_time(client, database_url, two_clubs):
    """The viewer asks for a range of steps: it gets those steps (their lines and the
    tables they show, each once, their parts each once) and no other, clamped to the
    game and to a hundred."""
    club, _, game, _, _ = two_clubs
    drain(database_url, ["replays"])
    sign_in(client, club["admin_token"])
    path = f"/game/{game['id']}/replay/steps"
    body = client.get(path + "?from=3&to=5").get_json()
    assert [s[0] for s in body["steps"]] == [3, 4, 5]
    assert sorted(body["tables"]) == sorted({str(s[2]) for s in body["steps"]})
    assert all("table-view" in t for t in body["tables"].values())
    placed = {
        n
        for t in [*body["tables"].values(), *body["parts"].values()]
        for n in re.findall(r"<!--p:(\w+)-->", t)
    }
    assert placed == set(body["parts"]), "every part is placed, and sent once"
    page = client.get(f"/game/{game['id']}/replay?step=4").get_data(as_text=True)
    drawn = page.split('<div id="table-host">', 1)[1].split('</div>\n<script type="application/json"', 1)[0]
    assert expand(body["tables"][str(body["steps"][1][2])], body["parts"]) == drawn, (
        "the parts make the table"
    )
    last = body["last"]
    assert [s[0] for s in client.get(path + f"?from={last}&to={last + 9}").get_json()["steps"]] == [last]
    assert len(client.get(path + "?from=1&to=100000").get_json()["steps"]) == min(last, 100)
    assert (
        client.get(path + "?from=3&to=5").headers["ETag"] != client.get(path + "?from=3&to=6").headers["ETag"]
    )


def test_a_replay_draws_only_the_tables_of_the_steps_it_shows(client, database_url, two_clubs):
    """Every step's line and heading are drawn at once (the table of contents
    lists them); a step's table only when a page or a range shows it."""
    club, _, game, _, _ = two_clubs
    entries = iter(range(20))
    play_table_game(client, game, club["admin_token"], until=lambda _: next(entries, None) is None)
    drain(database_url, ["replays"])
    sign_in(client, club["admin_token"])
    replay_viewer._DRAWN.clear()
    page = client.get(f"/game/{game['id']}/replay?step=2").get_data(as_text=True)
    ((steps, tables),) = replay_viewer._DRAWN.values()
    assert len(steps) > 2 * game_pages.WINDOW + 2, "a game longer than the window the page ships"
    assert sorted(tables.drawn) == list(range(1, game_pages.WINDOW + 3))
    assert f'href="?step={len(steps)}"' in page, "the contents reach the last step"
    client.get(f"/game/{game['id']}/replay/steps?from={len(steps)}&to={len(steps)}")
    assert sorted(tables.drawn) == [*range(1, game_pages.WINDOW + 3), len(steps)]


def expand(html: str, parts: dict[str, str]) -> str:
    """A fragment with its parts put in place, as the viewer does."""
    return re.sub(r"<!--p:(\w+)-->", lambda m: expand(parts[m.group(1)], parts), html)
