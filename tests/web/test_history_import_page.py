"""The organiser's "Bring in your history" page: a file chosen, what comes in
shown in the club's words (games and players matched or new, plays left out
or refused with their reason, a name given a game), then brought in."""

from __future__ import annotations

import html
import io
import re

from tests.factories import ClubFactory, LeagueFactory, PlayerFactory
from tests.web.helpers import csrf_token, sign_in
from tests.workers.helpers import drain
from tests.workers.test_history_import import DATA, EXPECTED, standings_by_name

UPLOAD = re.compile(r'action="(/club/[0-9a-f-]+/history/[0-9a-f-]+/import)"')


def text_of(page: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</(p|ul|section)>', page, re.S)
    assert found, f"no #{element_id} on the page"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def choose(client, club, name: str, content: bytes | None = None, **form) -> tuple[int, str]:
    page = client.get(f"/club/{club['id']}/history").get_data(as_text=True)
    data = {
        "csrf_token": csrf_token(page),
        "file": (io.BytesIO(content if content is not None else (DATA / name).read_bytes()), name),
        **form,
    }
    answer = client.post(f"/club/{club['id']}/history", data=data, content_type="multipart/form-data")
    return answer.status_code, answer.get_data(as_text=True)


def test_the_page_shows_what_comes_in_then_brings_it_in(client, pool, database_url):
    club = ClubFactory(client=client)
    PlayerFactory(client=client, club=club, name="Ann")
    league = LeagueFactory(client=client, club=club, engine="house-of-cronies", name="Autumn")
    sign_in(client, club["admin_token"])
    assert 'id="bring-in-history"' in client.get(f"/club/{club['id']}").get_data(as_text=True)

    status, page = choose(client, club, "plays.csv", league=league["id"])
    assert status == 200, page
    assert text_of(page, "plays-count") == "2 plays will come in."
    assert text_of(page, "games") == "House of Cronies: 2 plays"
    assert text_of(page, "players-matched") == "Already in the club: Ann."
    assert text_of(page, "players-added") == "New to the club: Ben, Cleo, Dev."
    assert "into the league Autumn" in page
    # The file's "HoC" and "Catan" are not names the service knows: each is offered a game.
    names = re.findall(r'name="name" value="([^"]+)"', page)
    assert sorted(names) == ["Catan", "HoC"]
    assert text_of(page, "left-out") == (
        "Lines 5-8: The service does not record 'HoC'. Lines 9-10: The service does not record 'Catan'."
    )
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-", re.sub(r'(value|action|href|hx-\w+)="[^"]*"', "", page))

    check = UPLOAD.search(page).group(1).replace("/import", "/check")
    token = csrf_token(page)
    mapped = {"csrf_token": token, "name": ["Catan", "HoC"], "game": ["", "house-of-cronies"]}
    page = client.post(check, data=mapped).get_data(as_text=True)
    assert text_of(page, "plays-count") == "3 plays will come in."
    assert text_of(page, "games") == "House of Cronies: 3 plays"
    assert text_of(page, "left-out") == "Lines 9-10: The service does not record 'Catan'."
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == 0  # nothing stored yet

    answer = client.post(UPLOAD.search(page).group(1), data=mapped)
    assert answer.status_code == 201
    done = answer.get_data(as_text=True)
    assert text_of(done, "imported") == "3 plays came in, into the league Autumn."
    drain(database_url)
    assert standings_by_name(pool, league["id"]) == EXPECTED["plays.csv"]

    status, page = choose(client, club, "plays.csv", league=league["id"])
    assert (
        text_of(page, "plays-count") == "0 plays will come in; 2 came in before and will not come in again."
    )


def test_refused_plays_are_listed_with_their_reason_and_nothing_comes_in(client, pool):
    club = ClubFactory(client=client)
    sign_in(client, club["admin_token"])
    status, page = choose(client, club, "refused.csv")
    assert status == 200
    refused = text_of(page, "refused")
    assert "Line 11: This play cannot be read: its date 'not a day' is not a day (YYYY-MM-DD)." in refused
    assert "Lines 5-7: ann is named twice in this play." in refused
    assert (
        "Lines 2-4: In House of Cronies the most votes at the election win:"
        " these places do not follow these scores." in refused
    )
    assert 'id="import"' not in page  # no way to bring in a refused file

    answer = client.post(UPLOAD.search(page).group(1), data={"csrf_token": csrf_token(page)})
    assert answer.status_code == 422
    assert "nothing was imported" in answer.get_data(as_text=True)
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == 0


def test_a_file_that_is_not_a_history_is_a_page_in_plain_words_with_the_form_kept(client):
    club = ClubFactory(client=client)
    league = LeagueFactory(client=client, club=club, name="Autumn")
    sign_in(client, club["admin_token"])
    status, page = choose(client, club, "notes.json", b"not json", league=league["id"])
    assert status == 422
    assert "This is not a BG Stats backup (JSON)" in text_of(page, "problem")
    assert f'value="{league["id"]}" selected' in page
    assert 'href="/club/' in page  # a way back


def test_only_the_organiser_brings_in_history(client):
    club = ClubFactory(client=client)
    other = ClubFactory(client=client)
    sign_in(client, other["admin_token"])
    assert client.get(f"/club/{club['id']}/history").status_code in (401, 404)
    page = client.get(f"/club/{other['id']}/history").get_data(as_text=True)
    answer = client.post(f"/club/{club['id']}/history", data={"csrf_token": csrf_token(page)})
    assert answer.status_code in (401, 404)
    assert client.post(f"/club/{other['id']}/history", data={}).status_code == 400  # no CSRF token


def test_the_progress_of_an_import_is_a_partial_that_follows_itself(client):
    club = ClubFactory(client=client)
    sign_in(client, club["admin_token"])
    status, page = choose(client, club, "plays.csv")
    progress = UPLOAD.search(page).group(1).replace("/import", "/progress")
    waiting = client.get(progress).get_data(as_text=True)
    assert 'hx-trigger="load delay:1s"' in waiting and "Reading the file" in waiting
    assert "<html" not in waiting


def test_a_file_larger_than_an_api_body_is_chosen_on_the_page(client):
    """The page takes a history file as large as the API does, past the body limit of other requests."""
    club = ClubFactory(client=client)
    sign_in(client, club["admin_token"])
    content = (DATA / "plays.csv").read_bytes() + b",,,,\n" * 60_000
    assert len(content) > 262_144
    status, page = choose(client, club, "plays.csv", content)
    assert status == 200, page
    assert text_of(page, "plays-count") == "2 plays will come in."


def test_a_member_takes_their_own_plays_to_bg_stats_from_their_profile(client):
    from tests.factories import Api
    from tests.workers.test_bgstats_export import a_league_with_results

    club, api, league, members = a_league_with_results(client)
    me = members[0]
    member = api.post(f"/clubs/{club['id']}/players/{me['id']}/sign-in", {}).get_json()
    sign_in(client, member["token"])
    profile = client.get(f"/player/{me['id']}").get_data(as_text=True)
    link = re.search(r'href="([^"]+)" id="my-plays-for-bg-stats"', profile).group(1)
    assert 'id="my-plays-for-bg-stats"' not in client.get(f"/player/{members[1]['id']}").get_data(
        as_text=True
    )
    answer = client.get(link)
    assert answer.status_code == 200 and "plays.bgsplay" in answer.headers["Content-Disposition"]
    mine = answer.get_json(force=True)
    everything = (
        Api(client, club["admin_token"]).get(f"/clubs/{club['id']}/plays.bgsplay").get_json(force=True)
    )
    assert 0 < len(mine["plays"]) < len(everything["plays"])
    assert {p["name"] for p in mine["players"]} >= {me["name"]}


def test_on_a_phone_a_name_is_given_a_game_and_the_history_comes_in_in_place(page, broker_client, pool):
    from playwright.sync_api import expect

    from tests.web.test_browser import sign_in as sign_in_browser

    club = ClubFactory(client=broker_client)
    sign_in_browser(page, club["admin_token"])
    page.goto(f"/club/{club['id']}")
    with page.expect_navigation():
        page.click("#bring-in-history")
    page.set_input_files("#history-file", str(DATA / "plays.csv"))
    with page.expect_navigation():
        page.click("#look")
    expect(page.locator("#plays-count")).to_have_text("2 plays will come in.")
    page.get_by_label("HoC is").select_option(label="House of Cronies")
    page.click("#check")
    expect(page.locator("#plays-count")).to_have_text("3 plays will come in.")
    expect(page.get_by_label("HoC is")).to_have_value("house-of-cronies")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    url = page.url
    page.click("#import")
    expect(page.locator("#imported")).to_have_text("3 plays came in.")
    assert page.url == url
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM result_games").fetchone()["n"] == 3
