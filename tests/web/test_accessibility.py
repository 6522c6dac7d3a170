"""axe-core (shipped inside ``axe-playwright-python``, nothing fetched) finds no
serious or critical violation on any page type, in light and in dark mode."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory, post_as_admin
from tests.web.conftest import PHONE
from tests.web.conftest import _local as local
from tests.web.helpers import play_table_game, table_game
from tests.web.test_browser import replay_ready, sign_in

SERIOUS = {"serious", "critical"}


def in_both_schemes(browser, server) -> Iterator[tuple[str, Any]]:
    """A phone-sized browser context in light mode, then one in dark mode, each closed after its turn."""
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, base_url=server, color_scheme=scheme)
        try:
            yield scheme, context
        finally:
            context.close()


def problems(axe: Axe, page, path: str) -> list[str]:
    page.goto(path)
    found = axe.run(page).response["violations"]
    return [
        f"{path}: {v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in SERIOUS
    ]


def finished_with_replay(client, seats: int = 3):
    """A club whose league holds one finished Chancellors game, its replay drawn."""
    club, players, league, finished = table_game(client, seats=seats, target=10)
    play_table_game(client, finished, club["admin_token"])
    replay_ready(client, finished["id"], club["admin_token"])
    return club, players, league, finished


def mansion_hiring(client, club, players) -> dict:
    """A MacCreedy's Mansion table game in its first hiring: its pad asks how many of each resource."""
    game = post_as_admin(
        client,
        club,
        "games",
        {"engine": "maccreedys-mansion", "seats": [p["id"] for p in players], "dealer": "table"},
    )
    play_table_game(client, game, club["admin_token"], until=lambda view: view["waiting_for_chance"] is None)
    return game


def test_every_page_type_has_no_serious_violation_in_light_and_dark_mode(
    browser, server, broker_client, projections
):
    club, players, league, finished = finished_with_replay(broker_client)
    live = post_as_admin(
        broker_client,
        club,
        "games",
        {
            "engine": "chancellors",
            "seats": [p["id"] for p in players],
            "dealer": "table",
            "options": {"target": 10},
            "public": True,
        },
    )
    play_table_game(broker_client, live, club["admin_token"], until=lambda v: v["state"]["phase"] == "choose")
    hiring = mansion_hiring(broker_client, club, players)
    PlayerFactory(client=broker_client, club=club)
    admin = Api(broker_client, club["admin_token"])
    admin.post(f"/clubs/{club['id']}/apps", {"name": "Club website", "scopes": ["read", "results"]})
    axe = Axe()
    found: list[str] = []
    for scheme, context in in_both_schemes(browser, server):
        anonymous = context.new_page()
        for path in ("/", f"/game/{live['id']}", "/no/such/page"):
            found += [f"{scheme} {p}" for p in problems(axe, anonymous, path)]
        admin = context.new_page()
        sign_in(admin, club["admin_token"])
        for path in (
            f"/club/{club['id']}",
            f"/club/{club['id']}/players",
            f"/club/{club['id']}/leagues",
            f"/club/{club['id']}/apps",
            f"/club/{club['id']}/new-game?engine=chancellors",
            f"/league/{league['id']}",
            f"/league/{league['id']}/statistics",
            f"/game/{finished['id']}",
            f"/game/{finished['id']}/replay",
            f"/game/{live['id']}/scorepad",
            f"/game/{hiring['id']}/scorepad",
        ):
            found += [f"{scheme} {p}" for p in problems(axe, admin, path)]
        seat = browser.new_context(viewport=PHONE, base_url=server, color_scheme=scheme).new_page()
        sign_in(seat, live["seat_tokens"][0]["token"])
        found += [f"{scheme} {p}" for p in problems(axe, seat, f"/game/{live['id']}")]
        seat.context.close()
    assert not found, "\n".join(found)


def test_the_pages_added_since_have_no_serious_violation_in_light_and_dark_mode(
    browser, server, broker_client
):
    club, players, league, finished = table_game(broker_client, target=10)
    play_table_game(broker_client, finished, club["admin_token"])
    dealt = GameFactory(
        client=broker_client, club=club, players=players, engine="house-of-cronies", options={}
    )
    legal = Api(broker_client, club["admin_token"]).get(f"/games/{dealt['id']}/legal-actions").get_json()
    first = next(seat for seat, commands in legal["seats"].items() if commands)
    axe = Axe()
    found: list[str] = []
    for scheme, context in in_both_schemes(browser, server):
        admin = context.new_page()
        sign_in(admin, club["admin_token"])
        found += [f"{scheme} {p}" for p in problems(axe, admin, f"/game/{dealt['id']}?seat={first}")]
        assert admin.locator("#seat-actions .choice").count() > 0
        for path in (
            f"/club/{club['id']}/log-result",
            f"/player/{players[0]['id']}",
            f"/club/{club['id']}/games",
            "/ratings",
        ):
            found += [f"{scheme} {p}" for p in problems(axe, admin, path)]
            assert admin.request.get(path).status == 200, path
    assert not found, "\n".join(found)


def test_a_player_s_own_cards_pad_and_the_recorder_s_waiting_list_have_no_serious_violation(
    browser, server, broker_client
):
    """The pad a player enters their own cards on (a card chosen, copies
    counted) and the recorder's list of whom the game waits for, in light
    and in dark mode."""
    club, players, _, game = table_game(
        broker_client, engine="house-of-cronies", seats=4, league=False, sealed=True
    )
    view = Api(broker_client, club["admin_token"]).get(f"/games/{game['id']}").get_json()
    dealt_to = view["waiting_for_chance"]["dealt_to"]
    axe = Axe()
    found: list[str] = []
    for scheme, context in in_both_schemes(browser, server):
        recorder = context.new_page()
        sign_in(recorder, club["admin_token"])
        found += [f"{scheme} {p}" for p in problems(axe, recorder, f"/game/{game['id']}/scorepad")]
        assert recorder.locator(".waiting li").count() > 0
        player = browser.new_context(viewport=PHONE, base_url=server, color_scheme=scheme).new_page()
        sign_in(player, game["seat_tokens"][dealt_to]["token"])
        player.goto(f"/game/{game['id']}/scorepad")
        assert player.locator("#pad-table .choice .count").count() > 0, "copies are counted"
        player.locator("#pad-table a.choice").first.click()
        player.locator("#pad-table .card-chosen").wait_for()
        found += [
            f"{scheme} own cards: {v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in axe.run(player).response["violations"]
            if v["impact"] in SERIOUS
        ]
        player.context.close()
    assert not found, "\n".join(found)


#: Every control's tap target (a control inside a label: the label), in CSS
#: pixels, but for a link in a line of words (WCAG's inline exception: an
#: inline link whose parent says more than its links do).
SMALL_TARGETS = """() => {
  const words = el => { const line = el.parentElement.cloneNode(true);
    line.querySelectorAll('a, button').forEach(a => a.remove());
    return line.textContent.replace(/[\\s·,:]/g, '').length; };
  return Array.from(document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary'))
    .filter(el => el.getClientRects().length
                  && !(getComputedStyle(el).display.startsWith('inline') && words(el) > 0))
    .map(el => [el, (el.closest('label') || el).getBoundingClientRect()])
    .filter(([el, r]) => r.width < 44 || r.height < 44)
    .map(([el, r]) => `${el.tagName}.${el.className} "${(el.innerText || el.value || '').trim().slice(0, 24)}"`
                      + ` ${Math.round(r.width)}x${Math.round(r.height)}`); }"""


def test_every_control_a_member_taps_is_at_least_44_pixels_square(page, broker_client, projections):
    """A scorepad whose log is longer than it shows, and one asking for a number, among them."""
    club, players, league, finished = finished_with_replay(broker_client, seats=4)
    deck = post_as_admin(
        broker_client,
        club,
        "games",
        {"engine": "political-divide-and-conquer", "seats": [p["id"] for p in players], "dealer": "table"},
    )
    play_table_game(broker_client, deck, club["admin_token"], until=lambda view: view["version"] > 40)
    hiring = mansion_hiring(broker_client, club, players)
    sign_in(page, club["admin_token"])
    small: list[str] = []
    for path in (
        "/",
        f"/club/{club['id']}",
        f"/club/{club['id']}/players",
        f"/club/{club['id']}/games",
        f"/club/{club['id']}/log-result",
        f"/club/{club['id']}/leagues",
        f"/club/{club['id']}/apps",
        f"/club/{club['id']}/new-game?engine=chancellors",
        f"/league/{league['id']}",
        f"/league/{league['id']}/statistics",
        f"/player/{players[0]['id']}",
        "/ratings",
        f"/game/{finished['id']}",
        f"/game/{finished['id']}/replay",
        f"/game/{deck['id']}/scorepad",
        f"/game/{deck['id']}",
        f"/game/{hiring['id']}/scorepad",
        "/no/such/page",
    ):
        assert page.goto(path).status == (404 if "no/such" in path else 200), path
        small += [f"{path}: {found}" for found in page.evaluate(SMALL_TARGETS)]
        if path.endswith(f"{deck['id']}/scorepad"):
            assert page.get_by_role("link", name="The whole log").count() == 1
        if path.endswith(f"{hiring['id']}/scorepad"):
            assert page.get_by_label("Buy how many stone?").count() == 1
    assert not small, "\n".join(small)


def test_a_game_logged_by_its_result_alone_has_no_serious_violation_in_light_and_dark_mode(
    browser, server, broker_client
):
    """Its page (the places, the players, a missing score shown as missing) and
    its replay page (which says there is nothing to replay)."""
    club, players, _, _ = table_game(broker_client, target=10, league=False)
    body = {
        "engine": "chancellors",
        "played_on": "2025-03-14",
        "minutes": 95,
        "players": [{"player": p["id"], "place": place} for p, place in zip(players, [2, 1, 3], strict=True)],
    }
    result = Api(broker_client, club["admin_token"]).post(f"/clubs/{club['id']}/results", body).get_json()
    assert "id" in result, result
    axe = Axe()
    found: list[str] = []
    for scheme, context in in_both_schemes(browser, server):
        admin = context.new_page()
        sign_in(admin, club["admin_token"])
        found += [f"{scheme} {p}" for p in problems(axe, admin, f"/game/{result['id']}")]
        rows = admin.locator("#result-places tbody tr").all_inner_texts()
        assert [r.split("\t")[1] for r in rows] == [
            players[1]["name"],
            players[0]["name"],
            players[2]["name"],
        ]
        assert all(r.split("\t")[2] == "–" for r in rows), rows
        found += [f"{scheme} {p}" for p in problems(axe, admin, f"/game/{result['id']}/replay")]
        assert admin.locator("#result-only").count() == 1
    assert not found, "\n".join(found)


def test_the_tournament_pages_have_no_serious_violation_small_target_or_identifier(
    browser, server, broker_client
):
    """The club's tournaments, one tournament mid-round (a table ended, one
    playing, one to start or log; a player withdrawn) for its organiser and a
    member, and its page for the room's screen: axe in light and dark mode,
    every control 44 px, and no identifier in their words."""
    from tests.web.test_no_identifiers import offences, visible_text

    club = ClubFactory(client=broker_client)
    api = Api(broker_client, club["admin_token"])
    players = [PlayerFactory(client=broker_client, club=club) for _ in range(10)]
    tournament = api.post(
        f"/clubs/{club['id']}/tournaments",
        {"name": "Winter Cup", "engine": "chancellors", "rounds": 2, "final_table": 3},
    ).get_json()
    tid = tournament["id"]
    for p in players[:9]:
        api.post(f"/tournaments/{tid}/players", {"player": p["id"]})
    tables = api.post(f"/tournaments/{tid}/rounds").get_json()["played"][0]["tables"]
    first = [{"player": s["player"], "place": i} for i, s in enumerate(tables[0]["players"], start=1)]
    api.post(f"/tournaments/{tid}/tables/1/result", {"players": first})
    api.post(f"/tournaments/{tid}/tables/2/game", {"options": {"target": 10}})
    api.post(f"/tournaments/{tid}/players/{players[8]['id']}/withdraw")
    member = api.post(f"/clubs/{club['id']}/players/{players[0]['id']}/sign-in").get_json()["token"]
    paths = (f"/club/{club['id']}/tournaments", f"/tournament/{tid}", f"/tournament/{tid}/screen")
    axe = Axe()
    found: list[str] = []
    for scheme in ("light", "dark"):
        for token in (club["admin_token"], member):
            context = browser.new_context(viewport=PHONE, base_url=server, color_scheme=scheme)
            reader = context.new_page()
            sign_in(reader, token)
            for path in paths:
                found += [f"{scheme} {p}" for p in problems(axe, reader, path)]
                found += [f"{path}: {small}" for small in reader.evaluate(SMALL_TARGETS)]
                found += [f"{path}: {words}" for words in offences(visible_text(reader.content()), None)]
            context.close()


@pytest.mark.timeout(900)  # axe walks Redoc's whole page, every operation drawn, twice
def test_the_api_reference_reads_on_a_phone_with_no_serious_violation(browser, server):
    """``/docs`` at 390 px, light and dark: no horizontal scroll, no serious or
    critical violation, nothing loaded from elsewhere, no script error."""
    axe = Axe()
    found: list[str] = []
    for scheme, context in in_both_schemes(browser, server):
        page = context.new_page()
        elsewhere: list[str] = []
        errors: list[str] = []
        page.on("request", lambda r, out=elsewhere: None if local(r.url) else out.append(r.url))
        page.on("console", lambda m, out=errors: out.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e, out=errors: out.append(str(e)))
        page.goto("/docs")
        page.wait_for_selector("main#reference h1", timeout=120_000, state="attached")
        page.wait_for_selector('[id="tag/webhooks"]', state="attached")
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"{scheme}: {width}"
        found += [
            f"{scheme} /docs: {v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in axe.run(page).response["violations"]
            if v["impact"] in SERIOUS
        ]
        assert not elsewhere and not errors, (scheme, elsewhere, errors)
    assert not found, "\n".join(found)


def test_the_history_import_pages_have_no_serious_violation_in_light_and_dark_mode(
    browser, server, broker_client
):
    """The form, what comes in (games given a game, plays left out and
    refused), the progress and the report, at phone width, each with no
    serious violation and no sideways scrolling; the import answered in place."""
    from tests.workers.test_history_import import DATA

    found: list[str] = []
    for scheme, context in in_both_schemes(browser, server):
        club = ClubFactory(client=broker_client)
        LeagueFactory(client=broker_client, club=club, engine="house-of-cronies", name="Autumn")
        page = context.new_page()
        sign_in(page, club["admin_token"])
        found += [f"{scheme} {p}" for p in problems(Axe(), page, f"/club/{club['id']}/history")]
        for name in ("refused.csv", "plays.csv"):
            page.goto(f"/club/{club['id']}/history")
            page.set_input_files("#history-file", str(DATA / name))
            page.select_option("select[name=league]", label="Autumn")
            with page.expect_navigation():
                page.click("#look")
            found += [f"{scheme} {name}: {v}" for v in axe_now(page)]
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.locator("#players-added").inner_text() == "New to the club: Ann, Ben, Cleo, Dev."
        url = page.url
        page.locator("#import").click()
        page.locator("#report").wait_for()
        assert page.url == url  # answered in place
        assert page.locator("#imported").inner_text() == "2 plays came in, into the league Autumn."
        found += [f"{scheme} report: {v}" for v in axe_now(page)]
    assert not found, "\n".join(found)


def axe_now(page) -> list[str]:
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']})" for v in found if v["impact"] in SERIOUS]


def test_the_game_night_pages_have_no_serious_violation_small_target_or_identifier(
    browser, server, broker_client
):
    """The club's game nights and one night answered by two members, with who
    came, a table started and the others' tables proposed, for its organiser
    and for a member (their answer form): axe in light and dark mode, every
    control 44 px, and no identifier in their words."""
    import datetime as dt

    from tests.web.test_no_identifiers import offences, visible_text

    club = ClubFactory(client=broker_client)
    api = Api(broker_client, club["admin_token"])
    players = [PlayerFactory(client=broker_client, club=club) for _ in range(2)]
    day = dt.date.today().isoformat()
    body = {"day": day, "time": "19:30", "place": "Hall", "games": ["chancellors", "house-of-cronies"]}
    night = api.post(f"/clubs/{club['id']}/game-nights", body).get_json()
    tokens = [api.post(f"/clubs/{club['id']}/players/{p['id']}/sign-in").get_json()["token"] for p in players]
    for token, answer in zip(tokens, ("yes", "maybe"), strict=True):
        Api(broker_client, token).post(
            f"/game-nights/{night['id']}/answer", {"answer": answer, "games": ["chancellors"]}
        )
    players += [PlayerFactory(client=broker_client, club=club) for _ in range(5)]
    api.post(f"/game-nights/{night['id']}/present", {"players": [p["id"] for p in players]})
    table = {"engine": "chancellors", "players": [p["id"] for p in players[4:]]}
    api.post(f"/game-nights/{night['id']}/tables", table)
    paths = (
        f"/club/{club['id']}/game-nights",
        f"/game-night/{night['id']}",
        f"/game-night/{night['id']}?tables=balance",
    )
    axe = Axe()
    found: list[str] = []
    for scheme in ("light", "dark"):
        for token in (club["admin_token"], tokens[0]):
            context = browser.new_context(viewport=PHONE, base_url=server, color_scheme=scheme)
            reader = context.new_page()
            sign_in(reader, token)
            for path in paths:
                found += [f"{scheme} {p}" for p in problems(axe, reader, path)]
                found += [f"{path}: {small}" for small in reader.evaluate(SMALL_TARGETS)]
                found += [f"{path}: {words}" for words in offences(visible_text(reader.content()), None)]
            context.close()
    assert not found, "\n".join(found)
