"""Pages that follow the club: its page (live and latest games), a league's
page (standings and latest results) and a tournament's room screen, each on
a phone at 390 px on its own sign-in. A game started, a result logged or a
table's result entered from another phone (or through the API) appears on
them without a reload, each page showing only what its sign-in may see; a page
whose stream was cut catches up from where it stood.

What a page shows is checked against what the same sign-in is shown on a
fresh load, and against the figures themselves (rows, counts, points), so a
page that does not update cannot pass."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.web.conftest import PHONE
from tests.web.test_browser import click, sign_in
from tests.web.test_live_pages import RECONNECTED, Front
from tests.web.test_sessions import member_token


@pytest.fixture
def front(server, pool, database_url):
    """The stream process in front of the app's server, which a test may cut and start again."""
    front = Front(server, pool, database_url)
    yield front
    front.streams.stop()


@pytest.fixture
def phones(browser, front):
    """Two phones, each its own browser context at 390 px, through the stream process in front."""
    contexts = [browser.new_context(viewport=PHONE, base_url=front.url) for _ in range(2)]
    for context in contexts:
        context.set_default_timeout(15_000)
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def following(phone: Page, token: str, path: str) -> None:
    """``phone`` signed in with ``token`` and left on ``path``, its stream open."""
    sign_in(phone, token)
    phone.goto(path)
    phone.evaluate("() => { window.notReloaded = true }")


def as_loaded_afresh(phone: Page, path: str, selector: str) -> list[str]:
    fresh = phone.context.new_page()
    try:
        fresh.goto(path)
        return fresh.locator(selector).all_text_contents()
    finally:
        fresh.close()


def shows_as_afresh(phone: Page, path: str, selector: str, within: float = 5_000) -> list[str]:
    """``phone``'s page, as loaded and left, shows under ``selector`` what a fresh load shows."""
    rows = as_loaded_afresh(phone, path, selector)
    expect(phone.locator(selector)).to_have_text(rows, timeout=within)
    return rows


def not_reloaded(*phones: Page) -> None:
    assert all(p.evaluate("() => window.notReloaded === true") for p in phones), "no page was reloaded"


def log_result(api: Api, club, players, places, league=None) -> dict:
    body = {
        "engine": "pig",
        "players": [{"player": p["id"], "place": n} for p, n in zip(players, places, strict=True)],
        **({"league": league["id"]} if league else {}),
    }
    answer = api.post(f"/clubs/{club['id']}/results", body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def test_the_club_page_follows_live_games_and_results_each_sign_in_seeing_its_own_and_catches_up(
    phones,
    front,
    broker_client,
    projections,
):
    club = ClubFactory(client=broker_client)
    api = Api(broker_client, club["admin_token"])
    ana, ben, cleo, dev = (
        PlayerFactory(client=broker_client, club=club, name=n) for n in ["Ana", "Ben", "Cleo", "Dev"]
    )
    organiser, member = phones
    path = f"/club/{club['id']}"
    following(organiser, club["admin_token"], path)
    following(member, member_token(broker_client, club, ana), path)
    for phone in phones:
        expect(phone.locator("#live li")).to_have_count(0)

    # A game with Ana seated and a private game of others: Ana's phone shows hers alone.
    GameFactory(client=broker_client, club=club, players=[ana, ben])
    GameFactory(client=broker_client, club=club, players=[cleo, dev])
    expect(organiser.locator("#live li")).to_have_count(2)
    expect(member.locator("#live li")).to_have_count(1)
    expect(member.locator("#live li")).to_contain_text("Ana")
    expect(member.locator("#live li")).not_to_contain_text("Cleo")
    for phone in phones:
        shows_as_afresh(phone, path, "#live li")

    # A result logged: its places show on the organiser's phone as they come.
    log_result(api, club, [cleo, dev], [1, 2])
    expect(organiser.locator("#recent li")).to_have_count(1)
    expect(organiser.locator("#recent li")).to_contain_text("1st Cleo, 2nd Dev")
    shows_as_afresh(organiser, path, "#recent li")

    # The stream is cut; a result with Ana is logged while it is down; both phones catch up.
    front.cut()
    log_result(api, club, [ben, ana], [1, 2])
    front.resume()
    expect(organiser.locator("#recent li")).to_have_count(2, timeout=RECONNECTED)
    expect(organiser.locator("#recent li").first).to_contain_text("1st Ben, 2nd Ana")
    for phone in phones:
        shows_as_afresh(phone, path, "#recent li", within=RECONNECTED)
        shows_as_afresh(phone, path, "#live li", within=RECONNECTED)
    not_reloaded(*phones)


def standings(phone: Page) -> list[tuple[str, str, str]]:
    """The standings' rows: (player, points, games as the places' counts)."""
    rows = phone.locator("#standings tbody tr")
    return [
        (
            rows.nth(i).locator(".name").inner_text(),
            rows.nth(i).locator(".points").inner_text(),
            rows.nth(i).get_attribute("data-games"),
        )
        for i in range(rows.count())
    ]


def test_a_league_page_shows_the_standings_once_a_logged_result_is_counted_and_catches_up(
    phones,
    front,
    broker_client,
    projections,
):
    club = ClubFactory(client=broker_client)
    api = Api(broker_client, club["admin_token"])
    ana, ben, cleo = (PlayerFactory(client=broker_client, club=club, name=n) for n in ["Ana", "Ben", "Cleo"])
    league = LeagueFactory(client=broker_client, club=club, engine="pig", public=False)
    path = f"/league/{league['id']}"
    organiser, member = phones
    following(organiser, club["admin_token"], path)
    following(member, member_token(broker_client, club, ben), path)
    for phone in phones:
        expect(phone.locator("#standings tbody tr")).to_have_text(["No finished game yet."])

    log_result(api, club, [ana, ben], [1, 2], league)
    for phone in phones:
        expect(phone.locator("#standings tbody tr[data-player]")).to_have_count(2)
        expect(phone.locator("#results li")).to_have_count(1)
        expect(phone.locator("#results li")).to_contain_text("1st Ana")
        assert [(name, games) for name, _, games in standings(phone)] == [("Ana", "1"), ("Ben", "1")]
        shows_as_afresh(phone, path, "#standings tbody tr")
    first = standings(organiser)
    assert float(first[0][1]) > float(first[1][1]), "the winner has more points"

    # Cut: two more results while the stream is down; the pages catch up with both.
    front.cut()
    log_result(api, club, [cleo, ana], [1, 2], league)
    log_result(api, club, [cleo, ben], [1, 2], league)
    front.resume()
    for phone in phones:
        expect(phone.locator("#results li")).to_have_count(3, timeout=RECONNECTED)
        expect(phone.locator("#standings tbody tr[data-player]")).to_have_count(3)
        assert dict((n, g) for n, _, g in standings(phone)) == {"Ana": "2", "Ben": "2", "Cleo": "2"}
        assert standings(phone)[0][0] == "Cleo", "two wins of two lead"
        shows_as_afresh(phone, path, "#standings tbody tr", within=RECONNECTED)
        shows_as_afresh(phone, path, "#results li", within=RECONNECTED)
    not_reloaded(*phones)


def test_the_rooms_screen_follows_each_tables_result_entered_on_the_organisers_phone_and_catches_up(
    phones,
    front,
    broker_client,
):
    club = ClubFactory(client=broker_client)
    api = Api(broker_client, club["admin_token"])
    names = ["Ann", "Ben", "Cleo", "Dev", "Eli", "Fay"]
    players = [PlayerFactory(client=broker_client, club=club, name=n) for n in names]
    cup = api.post(
        f"/clubs/{club['id']}/tournaments", {"name": "Winter Cup", "engine": "chancellors", "rounds": 2}
    ).get_json()
    for p in players:
        assert api.post(f"/tournaments/{cup['id']}/players", {"player": p["id"]}).status_code in (200, 201)
    organiser, screen = phones
    sign_in(organiser, club["admin_token"])
    organiser.goto(f"/tournament/{cup['id']}")
    click(organiser, organiser.locator("#seat-round"))
    screen_path = f"/tournament/{cup['id']}/screen"
    following(screen, club["admin_token"], screen_path)
    tables = screen.locator("#round .tn-table")
    expect(tables).to_have_count(2)
    expect(screen.locator("#round .tn-state")).to_have_text(["Not started", "Not started"])

    def enter_result(number: int) -> list[str]:
        table = organiser.locator(f"#table-{number}-title + ol .tn-name").all_inner_texts()
        organiser.locator(f"#log-{number}").click()
        form = organiser.locator(f"form[action$='/tables/{number}/result']")
        for place, name in enumerate(table, start=1):
            form.locator("fieldset", has_text=name).get_by_text(
                f"{place}{'stndrd'[2 * place - 2 : 2 * place]}", exact=True
            ).click()
        click(organiser, organiser.locator(f"#record-{number}"))
        return table

    first = enter_result(1)
    expect(screen.locator("#table-1-title + ol .tn-place")).to_have_text(["1st", "2nd", "3rd"])
    expect(screen.locator("#round .tn-state")).to_have_text(["Ended", "Not started"])
    expect(screen.locator("#standings tbody tr:not(.tn-why) th").first).to_contain_text(first[0])
    shows_as_afresh(screen, screen_path, "#standings tbody tr")

    # The screen's stream is cut while table 2's result is logged through the API: it catches up.
    second = screen.locator("#table-2-title + ol .tn-name").all_inner_texts()
    by_name = {p["name"]: p["id"] for p in players}
    front.cut()
    body = {"players": [{"player": by_name[n], "place": k} for k, n in enumerate(second, start=1)]}
    assert api.post(f"/tournaments/{cup['id']}/tables/2/result", body).status_code == 200
    front.resume()
    expect(screen.locator("#table-2-title + ol .tn-place")).to_have_text(
        ["1st", "2nd", "3rd"], timeout=RECONNECTED
    )
    expect(screen.locator("#round .tn-state")).to_have_text(["Ended", "Ended"])
    points = screen.locator("#standings tbody tr:not(.tn-why) td:nth-child(3)").all_inner_texts()
    assert len(points) == 6 and points.count(points[0]) == 2, "the two winners lead, level"
    assert set(screen.locator("#standings tbody tr:not(.tn-why) th").all_inner_texts()[:2]) == {
        first[0],
        second[0],
    }
    shows_as_afresh(screen, screen_path, "#standings tbody tr", within=RECONNECTED)
    not_reloaded(screen)
