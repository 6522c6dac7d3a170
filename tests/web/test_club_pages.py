"""The organiser's pages: a club started from the home page, its players,
member sign-ins and leagues, the admin sign-in replaced; errors as pages."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.factories import Api
from tests.web.helpers import csrf_token

HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
LINK = re.compile(r'id="sign-in-link" value="([^"]+)"')


def start_club(client, name="The Cronies") -> tuple[str, str]:
    """A club started from the home page: its address and its admin sign-in link."""
    home = client.get("/").get_data(as_text=True)
    created = client.post("/new-club", data={"name": name, "csrf_token": csrf_token(home)})
    assert created.status_code == 200
    html = created.get_data(as_text=True)
    club_path = re.search(r'href="(/club/[0-9a-f-]+)" id="to-club"', html).group(1)
    return club_path, LINK.search(html).group(1)


def post(client, path, **data):
    page = client.get("/".join(path.split("/")[:3])).get_data(as_text=True)  # the club's page
    return client.post(path, data={**data, "csrf_token": csrf_token(page)})


def test_a_club_is_started_from_home_and_its_organiser_is_signed_in_with_a_link_and_qr(client):
    home = client.get("/").get_data(as_text=True)
    assert 'action="/new-club"' in home and 'href="/docs"' in home
    created = client.post("/new-club", data={"name": "The Cronies", "csrf_token": csrf_token(home)})
    html = created.get_data(as_text=True)
    assert "<svg" in html and "Keep it safe" in html
    link = LINK.search(html).group(1)
    path, _, token = link.partition("#")
    assert path.endswith("/welcome") and token.startswith("tr_admin_")
    club_path = re.search(r'href="(/club/[0-9a-f-]+)"', html).group(1)
    assert client.get(club_path).status_code == 200
    assert token not in "".join(created.headers.getlist("Set-Cookie"))


def test_a_club_without_a_name_keeps_the_form_and_says_why_beside_the_field(client):
    home = client.get("/").get_data(as_text=True)
    refused = client.post("/new-club", data={"name": "   ", "csrf_token": csrf_token(home)})
    assert refused.status_code == 422
    assert 'id="club-name-error"' in refused.get_data(as_text=True)


def test_players_are_added_renamed_retired_and_given_sign_in_links(client):
    club_path, _ = start_club(client)
    players_path = club_path + "/players"
    for name in ("Ada", "Bea", "Cy"):
        assert post(client, players_path, name=name).status_code == 303
    page = client.get(players_path).get_data(as_text=True)
    ids = re.findall(rf'action="{players_path}/([0-9a-f-]+)"', page)
    ada = ids[0]
    assert post(client, f"{players_path}/{ada}", name="Ada Lovelace").status_code == 303
    assert "Ada Lovelace" in client.get(players_path).get_data(as_text=True)
    clash = post(client, f"{players_path}/{ada}", name="Bea")
    assert clash.status_code == 409 and "already has a player" in clash.get_data(as_text=True)
    assert post(client, f"{players_path}/{ada}", retired="yes").status_code == 303
    assert "(retired)" in client.get(players_path).get_data(as_text=True)
    issued = post(client, f"{players_path}/{ada}/sign-in")
    html = issued.get_data(as_text=True)
    assert issued.status_code == 200 and "<svg" in html and "#tr_member_" in LINK.search(html).group(1)


def test_the_organiser_makes_an_apps_token_sees_it_once_and_stops_it(client):
    club_path, _ = start_club(client)
    assert 'id="manage-apps"' in client.get(club_path).get_data(as_text=True)
    apps_path = club_path + "/apps"
    refused = post(client, apps_path, name="Website")
    assert refused.status_code == 422 and "at least one scope" in refused.get_data(as_text=True)
    assert 'value="Website"' in refused.get_data(as_text=True)  # the form keeps its input
    made = post(client, apps_path, name="Website", scope=["read", "results"])
    html = made.get_data(as_text=True)
    assert made.status_code == 200 and made.headers["Cache-Control"] == "no-store"
    token = re.search(r'id="app-token" readonly value="(tr_app_[^"]+)"', html).group(1)
    club_id = club_path.rsplit("/", 1)[1]
    assert client.get(f"/clubs/{club_id}", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    listed = client.get(apps_path).get_data(as_text=True)
    assert "Website" in listed and "log and retract results" in listed and token not in listed
    (app_id,) = re.findall(rf'action="{apps_path}/([0-9a-f-]+)/revoke"', listed)
    assert post(client, f"{apps_path}/{app_id}/revoke").status_code == 303
    assert client.get(f"/clubs/{club_id}", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert "No app yet." in client.get(apps_path).get_data(as_text=True)


def test_leagues_are_created_edited_and_closed(client):
    club_path, _ = start_club(client)
    leagues_path = club_path + "/leagues"
    assert (
        post(client, leagues_path, name="Cronies Cup", engine="house-of-cronies", season="2027").status_code
        == 303
    )
    page = client.get(leagues_path).get_data(as_text=True)
    league = re.search(rf'action="{leagues_path}/([0-9a-f-]+)"', page).group(1)
    assert post(client, f"{leagues_path}/{league}", name="Cronies Cup", season="2028").status_code == 303
    assert post(client, f"{leagues_path}/{league}", closed="yes").status_code == 303
    page = client.get(leagues_path).get_data(as_text=True)
    assert "(2028)" in page and "season closed" in page
    refused = post(client, leagues_path, name="")
    assert refused.status_code == 422 and 'id="league-error"' in refused.get_data(as_text=True)


def test_replacing_the_organisers_sign_in_keeps_this_browser_and_ends_the_old_one(client, app):
    club_path, link = start_club(client)
    old = link.partition("#")[2]
    club_id = club_path.rsplit("/", 1)[1]
    replaced = post(client, club_path + "/admin-token")
    assert replaced.status_code == 200
    new = LINK.search(replaced.get_data(as_text=True)).group(1).partition("#")[2]
    assert new != old
    assert client.get(club_path).status_code == 200  # still signed in here
    assert Api(client, old).get(f"/clubs/{club_id}").status_code == 401
    other = app.test_client()
    assert other.get(club_path).status_code == 401


# -- errors as pages -------------------------------------------------------------------


def test_a_mistyped_address_is_a_page_for_a_browser_and_json_for_a_client(client):
    page = client.get("/game/not-a-uuid", headers=HTML)
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "find that page" in page.get_data(as_text=True) and 'href="/"' in page.get_data(as_text=True)
    assert client.get("/game/not-a-uuid").mimetype == "application/problem+json"


@pytest.mark.parametrize("path", ["/league/{id}", "/game/{id}", "/club/{id}", "/game/{id}/replay"])
def test_a_private_or_missing_page_asks_an_anonymous_visitor_to_sign_in(client, path):
    club_path, _ = start_club(client)
    anonymous = client.application.test_client()
    for some in (club_path.rsplit("/", 1)[1], "00000000-0000-4000-8000-000000000000"):
        answer = anonymous.get(path.format(id=some))
        assert answer.status_code == 401 and 'name="token"' in answer.get_data(as_text=True)


def test_a_page_while_the_database_is_down_is_a_503_page_with_retry_after_within_3_s(app, client):
    import time

    from service.records.log.context import Records
    from service.records.log.db import make_pool

    club_path, _ = start_club(client)  # signed in: the page's layout would ask who
    dead = make_pool("postgresql://nobody@127.0.0.1:9/none", min_size=0, max_size=1, timeout=1.5)
    original = app.extensions["tablerecord.records"]
    app.extensions["tablerecord.records"] = Records(dead, 10)
    try:
        started = time.monotonic()
        answer = client.get(club_path)
        took = time.monotonic() - started
    finally:
        app.extensions["tablerecord.records"] = original
        dead.close()
    html = answer.get_data(as_text=True)
    assert answer.status_code == 503 and answer.mimetype == "text/html"
    assert answer.headers["Retry-After"].isdigit() and "try again" in html
    assert took < 3.0, took


def test_the_new_game_form_picks_players_by_name_and_offers_the_open_league_first(client):
    club_path, _ = start_club(client)
    for name in ("Ada", "Bea", "Cy", "Dee"):
        post(client, club_path + "/players", name=name)
    post(client, club_path + "/leagues", name="Any game")
    post(client, club_path + "/leagues", name="Cronies Cup", engine="house-of-cronies")
    form = client.get(club_path + "/new-game?engine=house-of-cronies").get_data(as_text=True)
    league = re.search(r'<select name="league" id="league">\s*<option value="[^"]+"\s*>([^<]+)<', form)
    assert league.group(1) == "Cronies Cup"
    speaker = re.search(r'<select name="option-first_speaker".*?</select>', form, re.S).group(0)
    assert "the 1st player" in speaker and 'type="number"' not in speaker


def test_a_refused_new_game_keeps_its_input_and_says_why_beside_the_players(client):
    club_path, _ = start_club(client)
    for name in ("Ada", "Bea"):
        post(client, club_path + "/players", name=name)
    form = client.get(club_path + "/new-game?engine=house-of-cronies").get_data(as_text=True)
    ada = re.search(r'<option value="([0-9a-f-]+)">Ada<', form).group(1)
    refused = client.post(
        club_path + "/new-game",
        data={"engine": "house-of-cronies", "seat": [ada, ""], "csrf_token": csrf_token(form)},
    )
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422 and 'id="seats-error"' in html and "3 to 4 players" in html
    assert f'<option value="{ada}" selected>Ada<' in html


def test_a_new_game_shows_each_player_their_sign_in_as_a_link_and_a_code_and_no_raw_token(client, app):
    club_path, _ = start_club(client)
    names = ("Ana", "Ben", "Chloé")
    for name in names:
        post(client, club_path + "/players", name=name)
    form = client.get(club_path + "/new-game?engine=chancellors").get_data(as_text=True)
    seats = [re.search(rf'<option value="([0-9a-f-]+)">{n}<', form).group(1) for n in names]
    created = client.post(
        club_path + "/new-game",
        data={"engine": "chancellors", "seat": seats, "csrf_token": csrf_token(form)},
    )
    html = created.get_data(as_text=True)
    assert created.status_code == 200 and created.headers["Cache-Control"] == "no-store"
    sections = re.findall(r'(?s)<section class="card seat-sign-in".*?</section>', html)
    assert [unescape(re.search(r"<h2>([^<]+)</h2>", s).group(1)) for s in sections] == list(names)
    links = [
        unescape(re.search(r'<input type="text" id="[^"]+" value="([^"]+)" readonly', s).group(1))
        for s in sections
    ]
    tokens = [link.partition("#")[2] for link in links]
    assert all(link.startswith("http") and "/welcome#" in link for link in links), links
    assert len(set(tokens)) == 3 and all(tokens)
    assert all("<svg" in s for s in sections), "each player's sign-in as a QR code"
    text = re.sub(r"(?s)<(script|style|svg)\b.*?</\1>|<[^>]*>", " ", html)
    assert not [t for t in tokens if t in text], "no raw token in the page's text"
    for seat, token in enumerate(tokens):  # each link signs its player in to their own seat
        with app.test_client() as phone:
            welcome = phone.get("/").get_data(as_text=True)
            assert (
                phone.post("/sign-in", data={"token": token, "csrf_token": csrf_token(welcome)}).status_code
                == 303
            )
            game_id = re.search(r'href="/game/([0-9a-f-]+)/scorepad"', html).group(1)
            page = unescape(phone.get(f"/game/{game_id}").get_data(as_text=True))
            assert f"you see as {names[seat]}" in page


def test_the_header_names_who_is_signed_in(client, app):
    club_path, _ = start_club(client)
    assert "Club admin" in re.search(
        r'<span class="who">([^<]*)<', client.get(club_path).get_data(as_text=True)
    ).group(1)
    players_path = club_path + "/players"
    for name in ("Ada", "Bea", "Cy"):
        post(client, players_path, name=name)
    page = client.get(players_path).get_data(as_text=True)
    ada = re.findall(rf'action="{players_path}/([0-9a-f-]+)"', page)[0]
    member = LINK.search(post(client, f"{players_path}/{ada}/sign-in").get_data(as_text=True)).group(1)
    form = client.get(club_path + "/new-game?engine=chancellors").get_data(as_text=True)
    seats = [re.search(rf'<option value="([0-9a-f-]+)">{n}<', form).group(1) for n in ("Ada", "Bea", "Cy")]
    created = client.post(
        club_path + "/new-game", data={"engine": "chancellors", "seat": seats, "csrf_token": csrf_token(form)}
    ).get_data(as_text=True)
    bea = re.findall(r'value="(http[^"]+)" readonly', created)[1]
    for link, who in ((member, "Ada"), (bea, "Bea&#39;s seat")):
        with app.test_client() as phone:
            welcome = phone.get("/").get_data(as_text=True)
            token = unescape(link).partition("#")[2]
            assert (
                phone.post("/sign-in", data={"token": token, "csrf_token": csrf_token(welcome)}).status_code
                == 303
            )
            header = re.search(
                r'<span class="who">([^<]*)<', phone.get("/", follow_redirects=True).get_data(as_text=True)
            ).group(1)
            assert header == who
