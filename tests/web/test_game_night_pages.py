"""Game nights from a phone: the organiser posts one (a refusal in words
with the form kept), a member answers it with their own sign-in and changes
their mind, and the organiser reads who is coming."""

from __future__ import annotations

import datetime as dt

from playwright.sync_api import Page, expect

from tests.factories import Api, ClubFactory, PlayerFactory
from tests.web.test_browser import click, sign_in

NEXT_WEEK = dt.date.today() + dt.timedelta(days=7)


def fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_organiser_posts_a_night_and_a_member_answers_it_on_their_phone(
    page: Page, browser, server, broker_client
):
    club = ClubFactory(client=broker_client)
    api = Api(broker_client, club["admin_token"])
    ann = PlayerFactory(client=broker_client, club=club, name="Ann")
    token = api.post(f"/clubs/{club['id']}/players/{ann['id']}/sign-in").get_json()["token"]

    sign_in(page, club["admin_token"])
    click(page, page.locator("#game-nights"))
    page.fill("#night-day", NEXT_WEEK.isoformat())
    page.fill("#night-time", "19:30")
    page.fill("#night-place", "The back room")
    click(page, page.locator("#post-night"))
    expect(page.locator("#problem")).to_have_text("Choose at least one game to offer.")
    expect(page.locator("#night-place")).to_have_value("The back room")
    page.locator(".tn-enter label", has_text="Chancellors").click()
    page.locator(".tn-enter label", has_text="House of Cronies").click()
    click(page, page.locator("#post-night"))
    expect(page.locator("#when-where")).to_have_text(
        "At 19:30, The back room. Games on offer: Chancellors, House of Cronies."
    )
    night_path = page.url
    fits_the_phone(page)

    member = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server).new_page()
    try:
        sign_in(member, token)
        click(member, member.locator("#game-nights"))
        click(member, member.locator("#coming a").first)
        member.get_by_text("Maybe", exact=True).click()
        member.locator(".tn-enter label", has_text="Chancellors").click()
        click(member, member.locator("#send-answer"))
        expect(member.locator("#my-answer")).to_have_text("You said: Maybe.")
        expect(member.locator("#answers-maybe .tn-name")).to_have_text(["Ann"])
        expect(member.locator("#answers-maybe li")).to_contain_text(["wants Chancellors"])
        member.get_by_text("Yes, I'm coming", exact=True).click()
        click(member, member.locator("#send-answer"))
        expect(member.locator("#my-answer")).to_have_text("You said: Yes, I'm coming.")
        expect(member.locator("#answers-yes .tn-name")).to_have_text(["Ann"])
        expect(member.locator("#answers-maybe li")).to_have_text(["No one."])
        fits_the_phone(member)
    finally:
        member.context.close()

    page.goto(night_path)
    expect(page.locator("#answers-yes .tn-name")).to_have_text(["Ann"])
    assert page.locator("#send-answer").count() == 0


def test_on_the_night_the_organiser_marks_who_came_and_starts_a_proposed_table_in_one_tap(
    page: Page, broker_client
):
    club = ClubFactory(client=broker_client)
    api = Api(broker_client, club["admin_token"])
    body = {"day": dt.date.today().isoformat(), "time": "19:00", "place": "Hall", "games": ["chancellors"]}
    night = api.post(f"/clubs/{club['id']}/game-nights", body).get_json()
    players = [PlayerFactory(client=broker_client, club=club, name=n) for n in ("Ann", "Ben", "Cleo", "Dev")]
    for p in players[:3]:
        token = api.post(f"/clubs/{club['id']}/players/{p['id']}/sign-in").get_json()["token"]
        Api(broker_client, token).post(f"/game-nights/{night['id']}/answer", {"answer": "yes"})

    sign_in(page, club["admin_token"])
    page.goto(f"/game-night/{night['id']}")
    # Those who said yes are ticked; Dev walks in.
    expect(page.locator(".tn-enter input:checked")).to_have_count(3)
    page.locator(".tn-enter label", has_text="Dev").click()
    page.get_by_text("Mix the newcomers in", exact=True).click()
    click(page, page.locator("#propose"))
    expect(page.locator("#proposed-title")).to_have_text("Proposed tables (mix the newcomers in)")
    names = page.locator("#proposed .tn-name").all_inner_texts()
    assert sorted(names) == ["Ann", "Ben", "Cleo", "Dev"]
    fits_the_phone(page)
    click(page, page.locator("#start-1"))
    assert "/scorepad" in page.url
    page.goto(f"/game-night/{night['id']}")
    expect(page.locator("#played h3")).to_have_text(["Table 1: Chancellors"])
    expect(page.locator("#proposed")).to_have_count(0)


def test_a_proposed_table_is_logged_by_its_result_by_tapping_places(page: Page, broker_client):
    club = ClubFactory(client=broker_client)
    api = Api(broker_client, club["admin_token"])
    body = {"day": dt.date.today().isoformat(), "time": "19:00", "place": "Hall", "games": ["chancellors"]}
    night = api.post(f"/clubs/{club['id']}/game-nights", body).get_json()
    players = [PlayerFactory(client=broker_client, club=club, name=n) for n in ("Ann", "Ben", "Cleo")]
    api.post(f"/game-nights/{night['id']}/present", {"players": [p["id"] for p in players]})

    sign_in(page, club["admin_token"])
    page.goto(f"/game-night/{night['id']}?tables=balance")
    page.locator("#log-1").click()
    form = page.locator("form[action$='/tables/result']")
    for place, name in enumerate(form.locator("legend").all_inner_texts(), start=1):
        form.locator("fieldset", has_text=name).get_by_text(
            f"{place}{'stndrd'[2 * place - 2 : 2 * place]}", exact=True
        ).click()
    click(page, page.locator("#record-1"))
    expect(page.locator("#played h3")).to_have_text(["Table 1: Chancellors"])
    expect(page.locator("#played")).to_contain_text("(ended)")
    fits_the_phone(page)
