"""Pages that follow the game: three phones at 390 px (the recorder and two
seats of a sealed House of Cronies game, whose recorder sees only public
information), each on its own sign-in, in light and dark mode. An entry on
one appears on the others without a reload, the seat whose move it is sees so
at once, and a phone whose stream was cut catches up from where it stood.

What each phone must show is what the same phone shows on a fresh load of its
page (the log's rows, the waiting line's words), so that a page which does not
update cannot pass.

The pages and their streams are served on one origin, as ``make run`` serves
them: the stream process in front, passing every other request to the app."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from tests.factories import Api
from tests.streams import StreamServer
from tests.web.conftest import PHONE
from tests.web.helpers import table_game
from tests.web.test_browser import sign_in, tap
from tests.web.test_scorepad_phones import _choice
from tests.web.test_sealed_entries import _awaited


class Front:
    """The stream process in front of the app's server, which a test may cut and start again."""

    def __init__(self, server: str, pool, database_url: str):
        self.server, self.pool, self.database_url = server, pool, database_url
        self.streams = StreamServer(pool, database_url, upstream=server)
        self.url = self.streams.url

    def cut(self) -> None:
        """Every open stream (and every request through the front) ends here."""
        self.streams.stop()

    def resume(self) -> None:
        self.streams = StreamServer(
            self.pool, self.database_url, upstream=self.server, port=self.streams.port
        )


@pytest.fixture
def front(server, pool, database_url):
    front = Front(server, pool, database_url)
    yield front
    front.streams.stop()


@pytest.fixture(params=["light", "dark"])
def phones(request, browser, front):
    """Three phones: their own browser contexts, at 390 px, in one colour scheme."""
    contexts = [
        browser.new_context(viewport=PHONE, base_url=front.url, color_scheme=request.param) for _ in range(3)
    ]
    for context in contexts:
        context.set_default_timeout(15_000)
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


#: Milliseconds within which a page whose stream was cut has caught up: htmx's SSE
#: extension opens a stream again after a backoff that doubles from half a second.
RECONNECTED = 15_000


def on_the_pad(phones, tokens, game) -> None:
    for phone, token in zip(phones, tokens, strict=True):
        sign_in(phone, token)
        phone.goto(f"/game/{game['id']}/scorepad")
        phone.evaluate("() => { window.notReloaded = true }")


def as_loaded_afresh(phone: Page, game) -> tuple[list[str], list[str]]:
    """The log's rows and the waiting line's words that ``phone``'s sign-in is shown on a fresh load."""
    fresh = phone.context.new_page()
    try:
        fresh.goto(f"/game/{game['id']}/scorepad")
        return fresh.locator("#log li").all_inner_texts(), fresh.locator("#waiting li").all_inner_texts()
    finally:
        fresh.close()


def shows_the_game_as_it_stands(phone: Page, game, within: float = 5_000) -> None:
    """``phone``'s page, as it was loaded and left, shows what a fresh load
    shows (within ``within`` milliseconds)."""
    rows, waiting = as_loaded_afresh(phone, game)
    expect(phone.locator("#log li")).to_have_text(rows, timeout=within)
    expect(phone.locator("#waiting li")).to_have_text(waiting, timeout=within)


def enter_own_cards(phone: Page, request, rng: random.Random) -> None:
    """The cards ``request`` awaits, tapped on the seat's own pad from those the deck holds."""
    pad = phone.locator("#pad-table")
    version = int(phone.locator("#status").get_attribute("data-version"))
    for _ in range(request.draw + 2):
        tap(phone, _choice(pad, rng, request.pool))
        if int(phone.locator("#status").get_attribute("data-version")) > version:
            return
    raise AssertionError("the cards chosen were not recorded")


def entry_of(request) -> dict:
    """The cards (or dice) ``request`` awaits, as the API takes them."""
    entry = {"type": request.command, **dict(request.fixed)}
    if request.draw:
        entry["cards"] = sorted(request.pool)[: request.draw]
    if request.dice:
        entry["dice"] = [1] * request.dice
    return {"seat": None, "command": entry}


def test_every_phone_follows_the_deal_the_seat_dealt_to_sees_so_at_once_and_a_cut_stream_catches_up(
    phones, front, pool, broker_client
):
    club, players, _, game = table_game(
        broker_client, engine="house-of-cronies", seats=3, league=False, sealed=True
    )
    names = [p["name"] for p in players]
    tokens = [t["token"] for t in game["seat_tokens"]]
    recorder, ana, ben = phones
    seated = {0: ana, 1: ben}
    on_the_pad(phones, [club["admin_token"], tokens[0], tokens[1]], game)
    rng = random.Random(35)
    entered_by = []
    cut = False
    for _ in range(12):  # the deal: a hand for each of three seats, and what the table turns up
        _, request = _awaited(pool, game)
        if request is None:
            break
        dealt_to = request.dealt_to
        # whom the game waits for is said on every phone at once
        for seat, phone in seated.items():
            if seat == dealt_to:
                expect(phone.locator("#pad-table .pad-who")).to_contain_text(f"Your cards: {names[seat]}")
            else:
                expect(phone.locator("#pad-table")).to_have_count(0)
        if dealt_to is not None:
            expect(recorder.locator("#waiting")).to_contain_text(
                f"Waiting for {names[dealt_to]} to enter their"
            )
        for phone in phones:
            shows_the_game_as_it_stands(phone, game)
        just_cut = False
        if dealt_to is not None and dealt_to in seated:
            enter_own_cards(seated[dealt_to], request, rng)
        else:
            if not cut:  # the stream is cut, and this entry is made while it is down
                front.cut()
            token = club["admin_token"] if dealt_to is None else tokens[dealt_to]
            assert (
                Api(broker_client, token).post(f"/games/{game['id']}/actions", entry_of(request)).status_code
                == 201
            )
            just_cut = not cut
            if just_cut:
                front.resume()
                cut = True
        entered_by.append(dealt_to)
        for phone in phones:
            shows_the_game_as_it_stands(phone, game, within=RECONNECTED if just_cut else 5_000)
    else:
        raise AssertionError("the deal did not end")
    assert {0, 1} <= set(entered_by) and cut, "both seats entered their own cards, and a stream was cut"
    assert all(phone.evaluate("() => window.notReloaded === true") for phone in phones), (
        "no page was reloaded"
    )
