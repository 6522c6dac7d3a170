"""A club run from its pages alone, in a real browser on a 390×844 phone: the
organiser's journey by clicking only, a member's sign-in link, and the
organiser's sign-in replaced."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.factories import Api
from tests.web.conftest import PHONE
from tests.web.test_browser import MAX_CLICKS, click, enter_one, wait_for

PLAYERS = ("Ada", "Bea", "Cy", "Dee")


def add_player(page: Page, name: str) -> None:
    page.fill("#new-player", name)
    click(page, page.locator("#add-player"))


def act_as_ada(tab: Page, admin: Api, game_id: str) -> None:
    """Ada, once the recorder has moved the seats before her, clicks her first
    action on the game page (answering any question first): answered in place,
    with no page load, the log then reading as the button did."""
    while not (legal := admin.get(f"/games/{game_id}/legal-actions").get_json())["seats"]["0"]:
        seat, options = next((s, c) for s, c in legal["seats"].items() if c)
        body = {**options[0], "expected_version": legal["version"]}
        assert admin.post(f"/games/{game_id}/actions", body).status_code == 201, seat
    tab.reload()
    tab.evaluate("() => { window.stayed = true; }")
    actions = tab.locator("#seat-actions")
    expect(actions.locator("h2")).to_have_text("Your move, Ada")
    while actions.locator("button.choice").count() == 0:
        actions.locator("a.choice").first.click()
        expect(tab.locator(".picked")).to_be_visible()
    button = actions.locator("button.choice").first
    words = button.inner_text()
    version = int(tab.locator("#live").get_attribute("data-version"))
    button.click()
    written = tab.locator(f"#log li[value='{version + 1}']")
    expect(written).to_have_count(1)
    assert words.startswith(written.inner_text().rstrip(".")), (words, written.inner_text())
    assert tab.evaluate("() => window.stayed === true"), "answered in place, not by a page load"


def test_a_club_is_run_from_its_pages_by_clicking_only(page, broker_client, projections, browser, server):
    # The organiser: a club, four players, a league, a table game to its end, the standings.
    page.goto("/")
    page.fill("#club-name", "The Cronies")
    click(page, page.locator("#create-club"))
    expect(page.locator("h1")).to_contain_text("The Cronies is ready")
    assert page.locator(".qr svg").count() == 1
    admin_link = page.locator("#sign-in-link").input_value()
    admin_token = admin_link.partition("#")[2]
    click(page, page.locator("#to-club"))
    club_url = page.url
    club_id = club_url.rstrip("/").rsplit("/", 1)[1]

    click(page, page.locator("#manage-players"))
    for name in PLAYERS:
        add_player(page, name)
    click(page, page.get_by_role("button", name="Sign-in link for Ada"))
    member_link = page.locator("#sign-in-link").input_value()
    assert page.locator(".qr svg").count() == 1

    page.goto(club_url)
    click(page, page.locator("#manage-leagues"))
    page.fill("#league-name", "Cronies Cup")
    page.select_option("#league-engine", label="House of Cronies")
    page.fill("#league-min-games", "1")
    click(page, page.locator("#create-league"))

    page.goto(club_url)
    click(page, page.locator("#record-game"))
    click(page, page.get_by_role("link", name="House of Cronies"))
    for seat, name in enumerate(PLAYERS):
        page.select_option(f"#seat-{seat}", label=name)
    expect(page.locator("#league option:checked")).to_have_text("Cronies Cup")
    click(page, page.locator("#create"))
    click(page, page.locator("#open-scorepad"))
    k = clicks = 0
    while page.locator("#finished").count() == 0:
        k = enter_one(page, k)
        clicks += 1
        assert clicks < MAX_CLICKS, "the game did not end"
    click(page, page.locator("#finished"))
    expect(page.locator("#outcome")).to_contain_text("Finished")

    page.goto(club_url)
    click(page, page.get_by_role("link", name="Cronies Cup"))

    def standings_shown():
        page.reload()
        rows = page.locator("#standings tr[data-games], #unranked tr[data-games]").all()
        return sorted(r.get_attribute("data-games") for r in rows) == ["1"] * 4

    wait_for(standings_shown, what="the standings after the game")

    # A member: signed in by their link, their own hand in a server-dealt game, no recorder's page.
    admin = Api(broker_client, admin_token)
    players = admin.get(f"/clubs/{club_id}/players").get_json()
    by_name = {p["name"]: p["id"] for p in players}
    dealt = admin.post(
        f"/clubs/{club_id}/games",
        {"engine": "house-of-cronies", "seats": [by_name[n] for n in PLAYERS], "dealer": "server"},
    ).get_json()
    member = browser.new_context(viewport=PHONE, base_url=server)
    try:
        tab = member.new_page()
        with tab.expect_navigation(url=re.compile(r"/club/")):
            tab.goto(member_link)
        assert "#" not in tab.url and "tr_member_" not in tab.url
        expect(tab.locator(".who")).to_have_text("Ada")
        assert tab.locator("#record-game").count() == 0
        click(tab, tab.locator(f"a[href='/game/{dealt['id']}']"))
        expect(tab.locator("#live")).to_contain_text("you see as Ada")
        hand = "[data-title=Hand] .card:not(.down)"
        assert tab.locator(f"#view .seat[aria-label=Ada] {hand}").count() > 0, "their own hand"
        assert tab.locator(f"#view .seat:not([aria-label=Ada]) {hand}").count() == 0, "and no other"
        as_member = Api(broker_client, member_link.partition("#")[2]).get(f"/games/{dealt['id']}").get_json()
        seen = as_member["state"]["players"]
        assert "hand" in seen[0] and not [p for p in seen[1:] if "hand" in p]
        # acting for one's own seat, by clicking
        act_as_ada(tab, admin, dealt["id"])
        for path in (f"/game/{dealt['id']}?seat=1", f"/club/{club_id}/new-game"):
            assert tab.goto(path).status == 403, path
        # a server-dealt game has no scorepad (the service deals it), for the member as for anyone
        assert tab.goto(f"/game/{dealt['id']}/scorepad").status == 422

        # The organiser replaces their sign-in: the old link signs nobody in any more.
        page.goto(club_url)
        click(page, page.locator("#rotate"))
        assert page.locator("#sign-in-link").input_value() != admin_link
        stranger = member.new_page()
        stranger.context.clear_cookies()
        stranger.goto(admin_link)
        expect(stranger.locator("h1")).to_have_text("Please sign in")
        assert Api(broker_client, admin_token).get(f"/clubs/{club_id}").status_code == 401
    finally:
        member.close()
