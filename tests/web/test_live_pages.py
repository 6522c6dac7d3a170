"""Pages that follow the game: three phones at 390 px (the recorder and two
seats), each on its own sign-in, in light and dark mode. An entry on one
appears on the others without a reload, the seat whose move it is sees so at
once, and a phone whose stream was cut catches up from where it stood.

The pages and their streams are served on one origin, as ``make run`` serves
them: the stream process in front, passing every other request to the app."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import Api
from tests.streams import StreamServer
from tests.web.conftest import PHONE
from tests.web.helpers import table_game
from tests.web.test_browser import sign_in, tap


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


def on_the_pad(phones, tokens, game) -> None:
    for phone, token in zip(phones, tokens, strict=True):
        sign_in(phone, token)
        phone.goto(f"/game/{game['id']}/scorepad")
        phone.evaluate("() => { window.notReloaded = true }")


def whose_move(client, game, seat_tokens) -> int | None:
    """The seat the game waits for, as the API says (None: the table's dice)."""
    for seat, token in enumerate(seat_tokens):
        if Api(client, token).get(f"/games/{game['id']}/legal-actions").get_json()["seats"].get(str(seat)):
            return seat
    return None


def test_an_entry_on_one_phone_appears_on_the_others_and_the_seat_to_move_sees_so_at_once(
    phones, front, broker_client
):
    club, players, _, game = table_game(broker_client, engine="pig", seats=2, league=False, target=100)
    seats = [t["token"] for t in game["seat_tokens"]]
    recorder, ana, ben = phones
    on_the_pad(phones, [club["admin_token"], *seats], game)
    for _ in range(4):  # four entries on the recorder's phone
        tap(recorder, recorder.locator(".pad form button.choice.final").first)
        latest = recorder.locator("#log li").first.inner_text()
        to_move = whose_move(broker_client, game, seats)
        for seat, phone in enumerate((ana, ben)):
            expect(phone.locator("#log li").first).to_have_text(latest)
            if seat == to_move:
                expect(phone.locator(".pad .pad-who")).to_contain_text(players[seat]["name"])
                expect(phone.locator(".pad form button.choice.final").first).to_be_visible()
            else:
                expect(phone.locator(".pad")).to_have_count(0)
    # and an entry on a seat's own phone reaches the recorder's
    while whose_move(broker_client, game, seats) is None:
        tap(recorder, recorder.locator(".pad form button.choice.final").first)
    mover = (ana, ben)[whose_move(broker_client, game, seats)]
    tap(mover, mover.locator(".pad form button.choice.final").first)
    expect(recorder.locator("#log li").first).to_have_text(mover.locator("#log li").first.inner_text())
    assert all(phone.evaluate("() => window.notReloaded === true") for phone in phones), (
        "no page was reloaded"
    )


def test_a_phone_whose_stream_was_cut_catches_up_from_where_it_stood(phones, front, broker_client):
    club, players, _, game = table_game(broker_client, engine="pig", seats=2, league=False, target=100)
    seats = [t["token"] for t in game["seat_tokens"]]
    recorder, ana, _ = phones
    on_the_pad(phones[:2], [club["admin_token"], seats[0]], game)
    tap(recorder, recorder.locator(".pad form button.choice.final").first)
    expect(ana.locator("#log li").first).to_have_text(recorder.locator("#log li").first.inner_text())
    front.cut()  # the stream is cut, and entries are made while it is down
    api = Api(broker_client, club["admin_token"])
    for _ in range(2):
        legal = api.get(f"/games/{game['id']}/legal-actions").get_json()
        action = next(a for actions in legal["seats"].values() for a in actions)
        assert api.post(f"/games/{game['id']}/actions", action).status_code == 201
    front.resume()
    recorder.reload()
    expect(ana.locator("#log li").first).to_have_text(recorder.locator("#log li").first.inner_text())
    assert ana.locator("#log li").count() == recorder.locator("#log li").count()
    assert ana.evaluate("() => window.notReloaded === true"), "it caught up in place"
