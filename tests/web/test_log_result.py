"""Logging a result on a phone: pick the game, tap the players' places, log it."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.factories import ClubFactory, LeagueFactory, PlayerFactory
from tests.web.test_browser import click, sign_in


def test_a_result_is_logged_at_phone_size_by_tapping_only(page: Page, broker_client, pool):
    club = ClubFactory(client=broker_client)
    ann, ben, cleo = (PlayerFactory(client=broker_client, club=club, name=n) for n in ("Ann", "Ben", "Cleo"))
    PlayerFactory(client=broker_client, club=club, name="Dev")  # not playing tonight
    LeagueFactory(client=broker_client, club=club, engine="house-of-cronies", name="Autumn")
    sign_in(page, club["admin_token"])
    click(page, page.locator("#log-result"))
    click(page, page.get_by_role("link", name="House of Cronies"))
    for player, place in ((ann, "2nd"), (ben, "1st"), (cleo, "2nd")):
        page.locator("fieldset", has_text=player["name"]).get_by_text(place, exact=True).click()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    click(page, page.locator("#log"))
    logged = page.locator("#logged")
    expect(logged).to_contain_text("result only")
    expect(logged.locator("li")).to_have_text(["1st: Ben", "2nd: Ann", "2nd: Cleo"])
    with pool.connection() as conn:
        (row,) = conn.execute(
            "SELECT g.engine, g.status, g.seats FROM result_games r JOIN games g ON g.id = r.game_id"
        ).fetchall()
    assert (row["engine"], row["status"]) == ("house-of-cronies", "finished")
    assert sorted(row["seats"]) == sorted([ann["id"], ben["id"], cleo["id"]])


def test_a_refused_result_keeps_the_form_and_says_why(page: Page, broker_client, pool):
    club = ClubFactory(client=broker_client)
    for name in ("Ann", "Ben"):
        PlayerFactory(client=broker_client, club=club, name=name)
    sign_in(page, club["admin_token"])
    page.goto(f"/club/{club['id']}/log-result?engine=house-of-cronies")
    page.locator("fieldset", has_text="Ann").get_by_text("1st", exact=True).click()
    page.locator("fieldset", has_text="Ben").get_by_text("2nd", exact=True).click()
    click(page, page.locator("#log"))
    expect(page.locator("#problem")).to_contain_text("House of Cronies takes 3 to 4 players, not 2.")
    expect(page.locator("fieldset", has_text="Ann").locator("input[value='1']")).to_be_checked()
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == 0
