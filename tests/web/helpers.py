"""Helpers for the web pages' tests: sign in, read a form's CSRF token, play entries."""

from __future__ import annotations

import re

from tests.factories import Api, ClubFactory, LeagueFactory, PlayerFactory, post_as_admin

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_token(html: str) -> str:
    return CSRF.search(html).group(1)


def sign_in(client, token: str) -> None:
    page = client.get("/").get_data(as_text=True)
    response = client.post("/sign-in", data={"token": token, "csrf_token": csrf_token(page)})
    assert response.status_code == 303, response.get_data(as_text=True)


def table_game(
    client, engine: str = "chancellors", seats: int = 3, league: bool = True, sealed: bool = False, **options
):
    """A club, its players, a league and a table game of ``engine`` (``sealed``:
    its recorder sees only public information, each player enters their own secrets)."""
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club) for _ in range(seats)]
    league_row = LeagueFactory(client=client, club=club, public=False) if league else None
    game = post_as_admin(
        client,
        club,
        "games",
        {
            "engine": engine,
            "seats": [p["id"] for p in players],
            "dealer": "table",
            "options": options,
            **({"league": league_row["id"]} if league_row else {}),
            **({"admin_spectator": True} if sealed else {}),
        },
    )
    return club, players, league_row, game


def play_table_game(client, game: dict, token: str, until=None, max_entries: int = 1000) -> dict:
    """Enter legal commands through the API (as the recorder) until the game
    ends or ``until(view)``; the k-th entry takes the k-th legal command
    (cycling), so games vary but are reproducible."""
    api = Api(client, token)
    gid = game["id"]
    for k in range(max_entries):
        view = api.get(f"/games/{gid}").get_json()
        if view["status"] != "active" or (until is not None and until(view)):
            return view
        legal = api.get(f"/games/{gid}/legal-actions").get_json()
        options = [c for commands in legal["seats"].values() for c in commands]
        response = api.post(
            f"/games/{gid}/actions", {**options[k % len(options)], "expected_version": legal["version"]}
        )
        assert response.status_code == 201, response.get_json()
    raise AssertionError("the game did not end")
