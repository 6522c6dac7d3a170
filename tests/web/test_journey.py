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
        expect(tab.locator(".who")).to_have_text("Member")
        assert tab.locator("#record-game").count() == 0
        click(tab, tab.locator(f"a[href='/game/{dealt['id']}']"))
        expect(tab.locator("#live")).to_contain_text("you see as Ada")
        assert tab.locator("#view [data-key=hand]").count() == 1, "their own hand, and no other"
        assert tab.locator("#view [data-key=hand]").inner_text().strip()
        as_member = Api(broker_client, member_link.partition("#")[2]).get(f"/games/{dealt['id']}").get_json()
        seen = as_member["state"]["players"]
        assert "hand" in seen[0] and not [p for p in seen[1:] if "hand" in p]
        # acting for one's own seat (the pages have no seat's controls yet: through the API)
        ada = Api(broker_client, member_link.partition("#")[2])
        legal = ada.get(f"/games/{dealt['id']}/legal-actions").get_json()
        assert list(legal["seats"]) == ["0"]
        if legal["seats"]["0"]:
            entry = {**legal["seats"]["0"][0], "expected_version": legal["version"]}
            assert ada.post(f"/games/{dealt['id']}/actions", entry).status_code == 201
        for path in (
            f"/game/{dealt['id']}?seat=1",
            f"/game/{dealt['id']}/scorepad",
            f"/club/{club_id}/new-game",
        ):
            assert tab.goto(path).status == 403, path

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
