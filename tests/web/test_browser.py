"""Members' pages in a real browser (Chromium through Playwright), on a phone-sized screen."""

from __future__ import annotations

import random
import re
import time

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from engines import registry
from engines.base import fold
from engines.chancellors.cards import CARDS
from tests.engine_contract import trial_config
from tests.factories import Api
from tests.web.helpers import play_table_game, table_game

MAX_CLICKS = 600


def sign_in(page: Page, token: str) -> None:
    page.goto("/")
    page.fill("#token", token)
    with page.expect_navigation():
        page.click("button:has-text('Sign in')")


def click(page: Page, locator) -> None:
    with page.expect_navigation():
        locator.click()


def tap(page: Page, locator) -> None:
    """A tap on the scorepad: answered in place (htmx), with no page load."""
    swaps = int(page.evaluate("() => document.body.dataset.swaps || 0"))
    url = page.url
    locator.click()
    page.wait_for_function(f"() => Number(document.body.dataset.swaps || 0) > {swaps}")
    assert page.url == url, "the scorepad stays on its page"


def enter_one(page: Page, k: int) -> int:
    """Answer the scorepad's questions until one entry is made (the k-th option each time, cycling)."""
    while True:
        version = page.locator("#status").get_attribute("data-version")
        options = page.locator(".pad").first.locator(".choice")
        option = options.nth(k % options.count())
        final = "final" in (option.get_attribute("class") or "")
        tap(page, option)
        k += 1
        if final:
            assert page.locator("#status").get_attribute("data-version") != version, page.content()
            return k


def wait_for(predicate, timeout: float = 30.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.3)


def replay_ready(client, game_id: str, token: str) -> dict:
    """The replay once the worker has projected every step of the finished game."""
    api = Api(client, token)

    def ready():
        response = api.get(f"/games/{game_id}/replay/export")
        if response.status_code != 200:
            return None
        body = response.get_json()
        done = (
            body["game"]["status"] == "finished"
            and body["game"]["step_count"] == body["game"]["game_version"]
        )
        return body if done else None

    return wait_for(ready, what="the replay projection")


def test_a_whole_table_game_is_recorded_by_clicking_only_with_an_undo(page, broker_client):
    club, players, league, _ = table_game(broker_client, target=10)
    sign_in(page, club["admin_token"])
    click(page, page.get_by_text("Record a table game"))
    click(page, page.get_by_role("link", name="Chancellors"))
    for seat, player in enumerate(players):
        page.select_option(f"#seat-{seat}", player["id"])
    page.fill("#option-target", "10")
    page.select_option("#league", league["id"])
    click(page, page.locator("#create"))
    click(page, page.locator("#open-scorepad"))
    game_id = re.search(r"/game/([0-9a-f-]+)/scorepad", page.url).group(1)

    k = 0
    for _ in range(6):
        k = enter_one(page, k)
    last_line = page.locator("#log li").first.inner_text()
    version = int(page.locator("#status").get_attribute("data-version"))
    tap(page, page.locator("#undo"))
    assert int(page.locator("#status").get_attribute("data-version")) == version + 1
    assert int(page.locator("#log li").first.get_attribute("value")) == version + 1
    assert page.locator("#log li").first.inner_text().startswith("The recorder took the game back")
    assert last_line in page.locator("#log li.retracted").first.inner_text()

    clicks = 0
    while page.locator("#finished").count() == 0:
        newest = int(page.locator("#log li").first.get_attribute("value"))
        k = enter_one(page, k)
        assert int(page.locator("#log li").first.get_attribute("value")) > newest, "the log grows"
        clicks += 1
        assert clicks < MAX_CLICKS, "the game did not end"
    click(page, page.locator("#finished"))
    expect(page.locator("#outcome")).to_contain_text("Finished")
    expect(page.locator("#log")).to_contain_text("The game is over")

    view = Api(broker_client, club["admin_token"]).get(f"/games/{game_id}").get_json()
    assert view["status"] == "finished" and view["dealer"] == "table"
    events = Api(broker_client, club["admin_token"]).get(f"/games/{game_id}/events?limit=1000").get_json()
    assert [e for e in events["events"] if e["type"] == "ActionsRetracted"], "the undo is in the log"


def test_the_replay_steps_with_the_arrow_keys_and_shows_each_steps_line(page, broker_client, projections):
    club, players, _, game = table_game(broker_client, target=10)
    play_table_game(broker_client, game, club["admin_token"])
    replay = replay_ready(broker_client, game["id"], club["admin_token"])
    steps = replay["steps"]
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{game['id']}/replay?step=1")
    page.wait_for_selector("body[data-replay-ready]")
    for step in steps:
        expect(page.locator("#step-number")).to_have_text(str(step["step"]))
        expect(page.locator("#step-line")).to_have_text(step["description"])
        if step["step"] < len(steps):
            page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-number")).to_have_text(str(len(steps) - 1))
    assert page.url.endswith(f"step={len(steps) - 1}"), "the address follows the step"

    page.locator("#slider").fill("5")
    expect(page.locator("#step-line")).to_have_text(steps[4]["description"])
    link = page.locator("#step-link").get_attribute("href")
    page.goto("/")
    page.goto(link)
    expect(page.locator("#step-line")).to_have_text(steps[4]["description"])

    # a seat's eyes: what the API shows that seat at that step
    seat_steps = (
        Api(broker_client, club["admin_token"])
        .get(f"/games/{game['id']}/replay/export?seat=1")
        .get_json()["steps"]
    )
    click(page, page.get_by_role("link", name=f"{players[1]['name']}'s eyes"))
    assert "seat=1" in page.url
    expect(page.locator("#step-line")).to_have_text(seat_steps[4]["description"])


def test_a_replay_still_being_prepared_says_so_plainly_and_shows_itself_once_ready(
    page, broker_client, worker
):
    """No timed refresh (axe: meta-refresh) while a reader waits: the page
    looks again by itself and loads once, when the worker has drawn the replay."""
    club, _, _, game = table_game(broker_client, target=10)
    play_table_game(broker_client, game, club["admin_token"])
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{game['id']}/replay")
    waiting = page.locator("[data-await-ready]")
    expect(waiting).to_have_text(re.compile("being brought up to date .* show here by itself"))
    assert "projection" not in page.inner_text("main")
    assert page.locator("meta[http-equiv=refresh]").count() == 0
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found = Axe().run(page).response["violations"]
        assert not [v["id"] for v in found if v["impact"] in ("serious", "critical")]
    page.evaluate("() => { window.stillTheSamePage = true; }")
    worker.start()
    page.wait_for_selector("#stepper", timeout=60_000)
    assert page.evaluate("() => window.stillTheSamePage") is None, "the page loaded itself again"


def test_a_number_typed_on_the_scorepad_is_entered_in_place(page, broker_client):
    """MacCreedy's Mansion: "Buy how many lumber?", 4, Enter: one entry, no page load."""
    club, _, _, game = table_game(
        broker_client, engine="maccreedys-mansion", seats=2, league=False, max_rounds=1
    )
    play_table_game(
        broker_client, game, club["admin_token"], until=lambda view: view["waiting_for_chance"] is None
    )
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{game['id']}/scorepad")
    page.get_by_label("Buy how many lumber?").fill("4")
    tap(
        page, page.locator("form.amount", has=page.get_by_label("Buy how many lumber?")).get_by_role("button")
    )
    expect(page.locator("#log li").first).to_have_text(re.compile(r"\w+ buys 4 lumber\."))


def test_the_league_standings_and_chart_change_when_a_game_ends(page, broker_client, projections):
    club, players, league, game = table_game(broker_client, target=10)
    sign_in(page, club["admin_token"])
    page.goto(f"/league/{league['id']}")
    expect(page.locator("#standings")).to_contain_text("No finished game yet")
    assert page.locator("#rating-chart").count() == 0

    play_table_game(broker_client, game, club["admin_token"])

    def games_shown(count: str):
        def shown():
            page.reload()
            rows = page.locator("#standings tr[data-games], #unranked tr[data-games]")
            return sorted(r.get_attribute("data-games") for r in rows.all()) == [count] * len(players)

        return shown

    wait_for(games_shown("1"), what="the standings after the game")
    assert page.locator("#standings td.wins").all_inner_texts().count("1") >= 1
    page.wait_for_function("() => window.Chart && Chart.getChart(document.getElementById('rating-chart'))")
    lines = page.evaluate(
        "() => Chart.getChart(document.getElementById('rating-chart')).data.datasets.map(d => d.data.length)"
    )
    assert lines == [2, 2, 2], "each player's rating before and after the game"

    second = (
        Api(broker_client, club["admin_token"])
        .post(
            f"/clubs/{club['id']}/games",
            {
                "engine": "chancellors",
                "seats": [p["id"] for p in players],
                "dealer": "table",
                "options": {"target": 10},
                "league": league["id"],
            },
        )
        .get_json()
    )
    play_table_game(broker_client, second, club["admin_token"])
    wait_for(games_shown("2"), what="the standings after the second game")
    page.wait_for_function("() => window.Chart && Chart.getChart(document.getElementById('rating-chart'))")
    lines = page.evaluate(
        "() => Chart.getChart(document.getElementById('rating-chart')).data.datasets.map(d => d.data.length)"
    )
    assert lines == [3, 3, 3]


def test_a_seat_sees_its_own_hand_and_never_another_seats(page, broker_client):
    club, players, _, game = table_game(broker_client, target=10)
    admin = Api(broker_client, club["admin_token"])
    play_table_game(broker_client, game, club["admin_token"], until=lambda v: v["state"]["phase"] == "choose")
    hands = admin.get(f"/games/{game['id']}").get_json()["state"]["hands"]
    assert all(hands), hands
    sign_in(page, game["seat_tokens"][0]["token"])
    assert f"/game/{game['id']}" in page.url
    own = page.locator("#view .seat").first.locator(".group[data-title=Hand] .card .name").all_inner_texts()
    assert sorted(own) == sorted(CARDS[c].name for c in hands[0])
    others = {CARDS[card].name for hand in hands[1:] for card in hand} - set(own)
    text = page.locator("#view").inner_text()
    assert not [c for c in others if c in text]

    for path in (
        f"/game/{game['id']}?seat=1",
        f"/game/{game['id']}/replay?seat=1",
    ):
        response = page.goto(path)
        assert response.status == 403, path
        assert not [c for c in others if c in page.content()], path
    assert page.goto(f"/club/{club['id']}").status == 403
    assert page.goto(f"/game/{game['id']}/scorepad").status == 200  # its own entries only
    assert not [c for c in others if c in page.content()]
    assert page.locator(".pad").count() == 1 and page.locator("#undo").count() == 0

    # the page follows the game without a reload
    page.goto(f"/game/{game['id']}")
    version = page.locator("#live").get_attribute("data-version")
    legal = admin.get(f"/games/{game['id']}/legal-actions").get_json()
    entry = legal["seats"]["1"][0]
    assert admin.post(f"/games/{game['id']}/actions", entry).status_code == 201
    expect(page.locator("#live")).not_to_have_attribute("data-version", version, timeout=10_000)
    assert not [c for c in others if c in page.content()]


def test_the_scorepad_fits_a_390_pixel_phone_without_horizontal_scroll(page, broker_client):
    club, players, _, game = table_game(broker_client, target=10)
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{game['id']}/scorepad")
    seen = set()
    k = 0
    while len(seen) < 3 and page.locator("#finished").count() == 0:  # no confirmation step is left to see
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], (page.locator(".question").first.inner_text(), width)
        seen.add(page.locator(".question").first.inner_text().split()[0])
        options = page.locator(".pad").first.locator(".choice")
        tap(page, options.nth(k % options.count()))
        k += 1
    assert {"Die", "Which"} <= seen


#: Entries left to click on each engine's game: the rest is recorded through the API first.
CLICKED = 12


def _entered_by_api(engine, config, seats: int) -> list[dict]:
    """The commands (seat included) of a seeded game of ``engine`` but its last
    ``CLICKED`` entries: the first legal one of a seed-chosen seat, or the
    lowest cards a chance may be dealt."""
    rng = random.Random(26)
    state = fold(engine, config, engine.setup(config))
    entries = []
    for _ in range(3000):
        if engine.outcome(state).finished:
            return entries[:-CLICKED]
        request = engine.chance(state)
        if request is not None:
            command = {"type": request.command, **request.fixed, "seat": None}
            if request.dice:
                command["dice"] = [rng.randint(1, 6) for _ in range(request.dice)]
            if request.draw:
                command["cards"] = rng.sample(sorted(request.pool), request.draw)
        else:
            legal = [
                c for s in range(seats) for c in engine.legal_commands(state, s) if c["type"] != "OfferTrade"
            ]
            command = rng.choice(legal)
        entries.append(command)
        for event in engine.decide(state, command):
            state = engine.evolve(state, event)
    raise AssertionError("the seeded game did not end")


@pytest.mark.parametrize("engine_id", registry.available())
def test_every_game_is_recorded_to_its_end_by_clicking_only(page, broker_client, engine_id):
    """Each game of the registry, its trial setup: all but its last entries
    through the API, then any actor's pad and any of its buttons (seeded) until
    the game ends, only what the page offers clicked."""
    game_of = registry.game(engine_id)
    config = trial_config(game_of, dealer="table")
    club, _, _, game = table_game(
        broker_client, engine=engine_id, seats=game_of.trial.seats, league=False, **game_of.trial.options
    )
    api = Api(broker_client, club["admin_token"])
    for command in _entered_by_api(game_of.engine, config, game_of.trial.seats):
        seat = command["seat"]
        body = {"seat": seat, "command": {k: v for k, v in command.items() if k != "seat"}}
        response = api.post(f"/games/{game['id']}/actions", body)
        assert response.status_code == 201, response.get_json()
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{game['id']}/scorepad")
    rng = random.Random(11)
    entries = 0
    while page.locator("#finished").count() == 0:
        pads = page.locator(".pad")
        pad = page.locator(f"#{pads.nth(rng.randrange(pads.count())).get_attribute('id')}")
        while True:
            options = pad.locator(".choice")
            option = options.nth(rng.randrange(options.count()))
            final = "final" in (option.get_attribute("class") or "")
            version = page.locator("#status").get_attribute("data-version")
            tap(page, option)
            if final:
                break
        assert page.locator("#status").get_attribute("data-version") != version, page.content()
        assert page.locator(".flash.refused").count() == 0
        entries += 1
        assert entries < MAX_CLICKS, "the game did not end"
    assert api.get(f"/games/{game['id']}").get_json()["status"] == "finished"
