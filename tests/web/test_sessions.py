"""Web sign-ins: a server-side session whose random id is all the browser
keeps, ended with the token it came from; member sign-in links."""

from __future__ import annotations

import hashlib

import pytest

from tests.factories import Api, ClubFactory, GameFactory, PlayerFactory
from tests.web.helpers import csrf_token, sign_in

COOKIE = "tablerecord_session"


@pytest.fixture
def club(client):
    club = ClubFactory(client=client)
    club["players"] = [PlayerFactory(client=client, club=club) for _ in range(3)]
    return club


def member_token(client, club, player) -> str:
    response = Api(client, club["admin_token"]).post(f"/clubs/{club['id']}/players/{player['id']}/sign-in")
    return response.get_json()["token"]


def test_the_cookie_holds_a_session_id_not_the_token(client, club, pool):
    page = client.get("/").get_data(as_text=True)
    response = client.post("/sign-in", data={"token": club["admin_token"], "csrf_token": csrf_token(page)})
    assert response.status_code == 303
    cookies = response.headers.getlist("Set-Cookie")
    assert not any(club["admin_token"] in c for c in cookies)
    ours = next(c for c in cookies if c.startswith(f"{COOKIE}="))
    assert "HttpOnly" in ours and "SameSite=Lax" in ours
    session_id = client.get_cookie(COOKIE).value
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT expires_at - now() AS left FROM web_sessions WHERE hash = %s",
            (hashlib.sha256(session_id.encode()).hexdigest(),),
        ).fetchone()
    assert row is not None and row["left"].days >= 89


def test_the_forms_session_cookie_is_samesite_and_lasts_as_long_as_the_sign_in(client, club):
    page = client.get("/").get_data(as_text=True)
    response = client.post("/sign-in", data={"token": club["admin_token"], "csrf_token": csrf_token(page)})
    flask_cookie = next(c for c in response.headers.getlist("Set-Cookie") if c.startswith("session="))
    assert "SameSite=Lax" in flask_cookie and "HttpOnly" in flask_cookie and "Expires=" in flask_cookie


def test_rotating_the_admin_token_signs_its_web_sessions_out(client, club):
    sign_in(client, club["admin_token"])
    assert client.get(f"/club/{club['id']}").status_code == 200
    Api(client, club["admin_token"]).post(f"/clubs/{club['id']}/admin-token")
    answer = client.get(f"/club/{club['id']}")
    assert answer.status_code == 401 and 'name="token"' in answer.get_data(as_text=True)


def test_signing_out_ends_the_session_on_the_server(client, club, pool):
    sign_in(client, club["admin_token"])
    session_id = client.get_cookie(COOKIE).value
    page = client.get(f"/club/{club['id']}").get_data(as_text=True)
    assert client.post("/sign-out", data={"csrf_token": csrf_token(page)}).status_code == 303
    with pool.connection() as conn:
        left = conn.execute(
            "SELECT count(*) AS n FROM web_sessions WHERE hash = %s",
            (hashlib.sha256(session_id.encode()).hexdigest(),),
        ).fetchone()
    assert left["n"] == 0
    client.set_cookie(COOKIE, session_id)  # a stolen copy of the cookie
    assert client.get(f"/club/{club['id']}").status_code == 401


def test_the_sign_in_links_page_carries_no_token_and_posts_the_fragment(client):
    page = client.get("/welcome")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "sign-in-link.js" in html and 'name="token" value=""' in html
    assert client.get("/assets/sign-in-link.js").status_code == 200


def test_a_member_signs_in_to_the_club_and_is_refused_the_recorders_pages(client, club):
    players = club["players"]
    game = GameFactory(client=client, club=club, players=players[:2], engine="pig")
    token = member_token(client, club, players[0])
    page = client.get("/welcome").get_data(as_text=True)
    landed = client.post("/sign-in", data={"token": token, "csrf_token": csrf_token(page)})
    assert landed.status_code == 303 and landed.headers["Location"].endswith(f"/club/{club['id']}")
    assert client.get(f"/club/{club['id']}").status_code == 200
    assert client.get(f"/game/{game['id']}").status_code == 200
    assert client.get(f"/game/{game['id']}?seat=1").status_code == 403
    assert client.get(f"/club/{club['id']}/new-game").status_code == 403
    # The scorepad: a player enters their own entries in the table games they sit
    # in, never in another's; undoing an entry is the recorder's alone.
    theirs = GameFactory(client=client, club=club, players=players[1:3], engine="pig", dealer="table")
    assert (
        client.get(f"/game/{theirs['id']}/scorepad").status_code == 404
    )  # a private game they do not sit in
    mine = GameFactory(client=client, club=club, players=players[:2], engine="pig", dealer="table")
    assert client.get(f"/game/{mine['id']}/scorepad").status_code == 200
    page = client.get(f"/game/{mine['id']}/scorepad").get_data(as_text=True)
    undo = client.post(f"/game/{mine['id']}/undo", data={"version": "1", "csrf_token": csrf_token(page)})
    assert undo.status_code == 403


def test_revoking_a_member_sign_in_signs_its_web_sessions_out(client, club):
    player = club["players"][0]
    sign_in(client, member_token(client, club, player))
    assert client.get(f"/club/{club['id']}").status_code == 200
    admin = Api(client, club["admin_token"])
    client.delete(f"/clubs/{club['id']}/players/{player['id']}/sign-in", headers=admin.headers())
    assert client.get(f"/club/{club['id']}").status_code == 401


# -- behind a proxy ------------------------------------------------------------------

# As a browser sends them through the proxy (over https, a form names its page as Referer).
FORWARDED_HTTPS = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-For": "203.0.113.9",
    "Referer": "https://localhost/",
}


def _proxied_app(settings, pool, proxies: int):
    from dataclasses import replace

    from service.app import create_app

    app = create_app(replace(settings, trusted_proxies=proxies), pool=pool)
    app.config["TESTING"] = True
    return app


def _sign_in_cookies(client, token: str, **headers) -> list[str]:
    """The cookies set by the sign-in page and by signing in. The test client
    itself speaks plain http, so it is handed back the form's session cookie
    even when the service marked it Secure."""
    page = client.get("/", headers=headers)
    cookies = page.headers.getlist("Set-Cookie")
    form_session = next(c for c in cookies if c.startswith("session="))
    client.set_cookie("session", form_session.split(";")[0].removeprefix("session="))
    response = client.post(
        "/sign-in",
        data={"token": token, "csrf_token": csrf_token(page.get_data(as_text=True))},
        headers=headers,
    )
    assert response.status_code == 303
    return cookies + response.headers.getlist("Set-Cookie")


def test_cookies_are_secure_when_a_trusted_proxy_says_the_request_came_over_https(settings, pool):
    client = _proxied_app(settings, pool, proxies=1).test_client()
    club = ClubFactory(client=client)
    cookies = _sign_in_cookies(client, club["admin_token"], **FORWARDED_HTTPS)
    assert cookies and all("Secure" in c for c in cookies), cookies


def test_forwarded_headers_are_not_trusted_by_default(client, club):
    cookies = _sign_in_cookies(client, club["admin_token"], **FORWARDED_HTTPS)
    assert cookies and not any("Secure" in c for c in cookies), cookies


def test_a_trusted_proxy_gives_the_clients_address_to_the_limits(settings, pool):
    """Behind one trusted proxy, the address a request counts against is the
    one the proxy saw; with none trusted, it is the proxy's own."""
    from service.auth import client_address

    seen = []
    for proxies in (1, 0):
        app = _proxied_app(settings, pool, proxies)
        app.before_request(lambda: seen.append(client_address()))
        app.test_client().get("/health", headers=FORWARDED_HTTPS)
    assert seen == ["address:203.0.113.9", "address:127.0.0.1"]


def test_pages_that_show_a_sign_in_are_never_stored(client, club):
    sign_in(client, club["admin_token"])
    players = client.get(f"/club/{club['id']}/players").get_data(as_text=True)
    assert "no-store" not in client.get(f"/club/{club['id']}/players").headers.get("Cache-Control", "")
    player = club["players"][0]
    shown = client.post(
        f"/club/{club['id']}/players/{player['id']}/sign-in", data={"csrf_token": csrf_token(players)}
    )
    assert shown.status_code == 200 and shown.headers["Cache-Control"] == "no-store"
    form = client.get(f"/club/{club['id']}/new-game?engine=pig").get_data(as_text=True)
    seats = [p["id"] for p in club["players"][:2]]
    game = client.post(
        f"/club/{club['id']}/new-game", data={"engine": "pig", "seat": seats, "csrf_token": csrf_token(form)}
    )
    assert game.status_code == 200 and game.headers["Cache-Control"] == "no-store"
    rotated = client.post(f"/club/{club['id']}/admin-token", data={"csrf_token": csrf_token(players)})
    assert rotated.status_code == 200 and rotated.headers["Cache-Control"] == "no-store"
    stranger = client.application.test_client()
    home = stranger.get("/").get_data(as_text=True)
    created = stranger.post("/new-club", data={"name": "Thursday Club", "csrf_token": csrf_token(home)})
    assert created.status_code == 200 and created.headers["Cache-Control"] == "no-store"
