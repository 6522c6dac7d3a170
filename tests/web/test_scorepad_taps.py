"""The scorepad's shortcuts in a real browser: every seat's pass and the
attack roll after it entered with one tap, on a pad axe-core finds nothing
serious on."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.factories import Api
from tests.web.helpers import play_table_game, table_game
from tests.web.test_browser import sign_in, tap

SERIOUS = {"serious", "critical"}


def test_every_seat_s_pass_and_the_attack_roll_are_one_tap(page, broker_client):
    club, players, _, game = table_game(
        broker_client, engine="political-divide-and-conquer", seats=4, league=False
    )
    api = Api(broker_client, club["admin_token"])

    def passing() -> list[str]:
        legal = api.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]
        return [s for s, cs in legal.items() if any(c["command"]["type"] == "PassWindow" for c in cs)]

    play_table_game(broker_client, game, club["admin_token"], until=lambda view: len(passing()) >= 2)
    waiting = passing()
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{game['id']}/scorepad")
    window = page.locator("#pad-window")
    expect(window.locator("#window-passes")).to_contain_text(players[int(waiting[0])]["name"])
    violations = [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in SERIOUS]
    assert not violations

    version = int(page.locator("#status").get_attribute("data-version"))
    roll = window.locator("button", has_text="2 and 3")
    assert "Nobody else reacts, then" in roll.get_attribute("aria-label")
    tap(page, roll)
    assert int(page.locator("#status").get_attribute("data-version")) > version + len(waiting)
    assert page.locator("#pad-window").count() == 0 and page.locator(".flash.refused").count() == 0
    events = api.get(f"/games/{game['id']}/events").get_json()["events"]
    assert any(e["data"].get("dice") == [2, 3] for e in events if e["version"] > version)
