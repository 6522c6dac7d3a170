"""The scorepad in a real browser at the table: a deal entered as a set in any
order, each player's secrets entered on their own phone, and two phones
recording one game."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from uuid import UUID

import pytest
from playwright.sync_api import expect

from engines import registry
from engines.chancellors.cards import label as card_label
from service.records.pages import entries, game_page, scorepad_page
from service.records.recording import states
from service.records.recording.games import get_game
from service.records.scorepad.labels import engine_value_labels
from tests.engine_contract import trial_config
from tests.factories import Api
from tests.web.conftest import PHONE
from tests.web.helpers import play_table_game, table_game
from tests.web.test_browser import sign_in, tap


@pytest.fixture
def phone(browser, server):
    """Another phone at the same table: its own browser context (its own sign-in)."""
    context = browser.new_context(viewport=PHONE, base_url=server)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def words(card: str) -> str:
    """A House of Cronies card as the pad names it."""
    game = registry.game("house-of-cronies")
    config = trial_config(game, dealer="table")
    return engine_value_labels(game.engine, game.engine.initial_state(config), NAMES)("cards", card)


NAMES = ["Ana", "Ben", "Cat", "Dan"]


def test_a_house_of_cronies_deal_is_entered_in_any_order_and_recorded_by_its_last_card(page, broker_client):
    club, players, _, game = table_game(broker_client, engine="house-of-cronies", seats=4, league=False)
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{game['id']}/scorepad")
    pad = page.locator("#pad-table")
    expect(pad.locator(".pad-who")).to_contain_text(players[0]["name"])
    assert page.evaluate("() => getComputedStyle(document.querySelector('.pad-who')).position") == "sticky"

    rng = random.Random(26)
    wanted = []
    while pad.locator(".buttons form").count() == 0:
        cards = pad.locator(".buttons a.choice")
        chosen = cards.nth(rng.randrange(cards.count()))
        wanted.append(chosen.get_attribute("data-name"))
        tap(page, chosen)
    assert "The last of 6" in pad.locator(".question").inner_text()
    # change it: take one back, choose another
    taken = pad.locator(".card-chosen").first
    wanted.remove(taken.get_attribute("data-name"))
    tap(page, taken)
    other = pad.locator(".buttons a.choice").last
    wanted.append(other.get_attribute("data-name"))
    tap(page, other)
    last = pad.locator(".buttons form[data-name]").first  # the last card records the set: no confirmation
    wanted.append(last.get_attribute("data-name"))
    tap(page, last.locator("button"))

    hand_line = page.locator("#log li").first.inner_text()
    assert players[0]["name"] in hand_line
    events = Api(broker_client, club["admin_token"]).get(f"/games/{game['id']}/events").get_json()["events"]
    drawn = next(e for e in events if e["type"] == "CardsDrawn")["data"]
    assert drawn["seat"] == 0
    assert Counter(words(c).lower() for c in drawn["cards"]) == Counter(wanted), "the hand is the set chosen"


def test_a_player_enters_their_own_hand_and_sealed_choice_and_the_recorder_sees_neither(
    page, phone, broker_app, broker_client
):
    club, players, _, sealed = table_game(broker_client, seats=3, league=False, sealed=True, target=10)
    admin = Api(broker_client, club["admin_token"])
    gid = sealed["id"]
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{gid}/scorepad")
    while (
        page.locator("#waiting").count() == 0 or "to enter their" not in page.locator("#waiting").inner_text()
    ):
        tap(page, page.locator("#pad-table .choice").first)
    ana = admin.get(f"/games/{gid}").get_json()["waiting_for_chance"]["dealt_to"]
    expect(page.locator("#waiting")).to_contain_text(f"Waiting for {players[ana]['name']} to enter their")

    sign_in(phone, sealed["seat_tokens"][ana]["token"])
    phone.goto(f"/game/{gid}/scorepad")
    own = phone.locator("#pad-table")
    while own.locator(".buttons form").count() == 0:
        cards = own.locator(".buttons a.choice")
        tap(phone, cards.nth(cards.count() - 1))
    tap(phone, own.locator(".buttons form button").last)
    player = Api(broker_client, sealed["seat_tokens"][ana]["token"])
    hand = player.get(f"/games/{gid}").get_json()["state"]["hand"]
    assert hand
    names = [card_label(c) for c in hand]

    page.reload()
    expect(page.locator("#log li").first).to_contain_text(players[ana]["name"])
    recorder_text = page.locator("body").inner_text()
    assert not [n for n in names if re.search(rf"\b{re.escape(n)}\b", recorder_text, re.I)], names

    # the rest of the deal, then each player's card chosen face down
    for _ in range(40):
        view = admin.get(f"/games/{gid}").get_json()
        if view["state"].get("phase") == "choose" or view.get("waiting_for_chance") is None:
            break
        chance = view["waiting_for_chance"]
        token = (
            club["admin_token"]
            if chance["dealt_to"] is None
            else sealed["seat_tokens"][chance["dealt_to"]]["token"]
        )
        with broker_app.extensions["tablerecord.records"].pool.connection() as conn:
            record = get_game(conn, UUID(gid))
            request = record.engine.chance(states.load_state(conn, record))
        entry = {"type": request.command, **dict(request.fixed)}
        if request.draw:  # the recorder's legal actions list no card of the deck
            entry["cards"] = sorted(request.pool)[: request.draw]
        if request.dice:
            entry["dice"] = [1] * request.dice
        assert (
            Api(broker_client, token)
            .post(f"/games/{gid}/actions", {"seat": None, "command": entry})
            .status_code
            == 201
        )
    phone.goto(f"/game/{gid}/scorepad")
    mine = phone.locator(f"#pad-{ana} .choice")
    assert mine.count() > 0, "the player chooses a card face down on their own phone"
    page.reload()
    expect(page.locator("#waiting")).to_contain_text(f"Waiting for {players[ana]['name']}")
    assert page.locator(f"#pad-{ana}").count() == 0, "the recorder is not offered the player's hand"
    command = json.loads(phone.locator(f"#pad-{ana} form input[name=command]").first.get_attribute("value"))
    tap(phone, mine.first)
    page.reload()
    expect(page.locator("#log li").first).to_contain_text(players[ana]["name"])
    assert not re.search(
        rf"\b{re.escape(card_label(command['card']))}\b", page.locator("body").inner_text(), re.I
    )


def test_a_second_phone_s_entry_is_applied_after_the_first_phone_s(page, phone, broker_client):
    club, players, _, game = table_game(broker_client, target=10, league=False)
    play_table_game(broker_client, game, club["admin_token"], until=lambda v: v["state"]["phase"] == "choose")
    for tab in (page, phone):
        sign_in(tab, club["admin_token"])
        tab.goto(f"/game/{game['id']}/scorepad")
    version = int(page.locator("#status").get_attribute("data-version"))
    tap(page, page.locator("#pad-0 .choice").first)
    tap(phone, phone.locator("#pad-1 .choice").first)  # chosen on the version before the first phone's entry
    assert phone.locator(".flash.refused").count() == 0
    assert int(phone.locator("#status").get_attribute("data-version")) > version + 1
    assert phone.locator("#pad-0").count() == 0 and phone.locator("#pad-1").count() == 0


def _card_ids(value) -> set[str]:
    """Every string in a view (the ids of the cards it shows, among others)."""
    if isinstance(value, str):
        return {value}
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return set().union(set(), *(_card_ids(v) for v in items))


def _hidden_from(engine, state, viewer: int | None) -> set[str]:
    """The cards another seat sees and ``viewer`` (None: a spectator) may
    not, each seat's view being the truth: their ids, and their names less
    any the viewer sees on a card it may see, or among the cards of a draw
    its pad offers for its own draw (every card it cannot see, by name: the
    draw awaited, or one that a command of its own leads to, entered with it)."""
    theirs = set().union(*(_card_ids(engine.view(state, s)) for s in range(4) if s != viewer))
    mine = _card_ids(engine.view(state, viewer))
    requests = [engine.chance(state)]
    if requests[0] is None and viewer is not None:
        for command in engine.legal_commands(state, viewer):
            after = state
            for event in engine.decide(state, {**command, "seat": viewer}):
                after = engine.evolve(after, event)
            requests.append(engine.chance(after))
    pools = {c for r in requests if r is not None and r.dealt_to == viewer for c in r.unseen or r.pool}
    hidden = {c for c in theirs - mine - pools if engine.label_value(state, "cards", c, NAMES)}
    seen = {words(c) for c in mine | pools if engine.label_value(state, "cards", c, NAMES)}
    return hidden | ({words(c) for c in hidden} - seen)


def _shown(names: set[str], text: str) -> set[str]:
    return {n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text, re.I)}


def _choice(pad, rng: random.Random, drawn: tuple[str, ...] = ()):
    """A button of ``pad`` to tap: a final entry (a pass or an end of turn
    first, so that the round ends soon), else a card or an answer at random.
    A player entering their own cards is offered every card they cannot see,
    and taps, by name, cards the deck holds (``drawn``: the cards they drew)."""
    finals = pad.locator(".buttons form")
    if finals.count():
        values = finals.locator("input[name=command]").evaluate_all("els => els.map(e => e.value)")
        commands = [json.loads(v) for v in values]
        short = [i for i, c in enumerate(commands) if c["type"] in ("PassReaction", "PassBid", "EndTurn")]
        deck = Counter(map(words, drawn))
        held = [
            i
            for i, c in enumerate(commands)
            if not drawn or not Counter(map(words, c.get("cards", ()))) - deck
        ]
        return finals.nth(short[0] if short else rng.choice(held)).locator("button")
    links = pad.locator(".buttons a.choice")
    names = links.evaluate_all("els => els.map(e => e.dataset.name || '')")
    deck = {words(c).lower() for c in drawn}
    return links.nth(rng.choice([i for i, n in enumerate(names) if not drawn or n in deck]))


def test_a_table_of_four_enters_each_hand_on_its_own_phone_and_no_screen_shows_another_s(
    page, browser, server, broker_app, broker_client
):
    """The first round of a House of Cronies game at a table of four, the
    recorder seeing only public information: each player enters the cards
    dealt to them and every entry of their own on their own phone, and after
    every tap no phone shows a card another seat holds hidden (but in the
    log's public lines; by name or by id, the game's details opened), while
    each player's phone shows their own hidden cards."""
    club, players, _, game = table_game(
        broker_client, engine="house-of-cronies", seats=4, league=False, sealed=True
    )
    admin = Api(broker_client, club["admin_token"])
    gid = game["id"]
    who = [p["name"] for p in players]
    phones = {None: page}
    sign_in(page, club["admin_token"])
    for seat, player in enumerate(players):
        context = browser.new_context(viewport=PHONE, base_url=server)
        context.set_default_timeout(15_000)
        phones[seat] = context.new_page()
        member = admin.post(f"/clubs/{club['id']}/players/{player['id']}/sign-in").get_json()["token"]
        sign_in(phones[seat], member)
    pool = broker_app.extensions["tablerecord.records"].pool
    rng = random.Random(26)
    own_secrets_shown = set()
    others_secrets = set()

    def look(key: int | None):
        """The phone's screen against the game as stored (returned)."""
        with pool.connection() as conn:
            game = get_game(conn, gid)
            state = states.load_state(conn, game)
            public = game_page.log_lines(
                game, entries.newest_events(conn, game), None, who, scorepad_page.SCOREPAD_LINES
            )
        phones[key].evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        text = phones[key].locator("body").inner_text()
        for line in public:
            text = text.replace(line["text"], "")
        hidden = _hidden_from(game.engine, state, key)
        shown = _shown(hidden, text)
        assert not shown, f"{'the recorder' if key is None else who[key]}'s phone shows {shown}"
        if hidden:
            others_secrets.add(key)
        if key is not None:
            engine = game.engine
            others = set().union(*(_card_ids(engine.view(state, s)) for s in (None, *range(4)) if s != key))
            own = {
                c
                for c in _card_ids(engine.view(state, key)) - others
                if engine.label_value(state, "cards", c, NAMES)
            }
            if own and all(_shown({c, words(c)}, text) for c in own):
                own_secrets_shown.add(key)
        return game, state

    try:
        page.goto(f"/game/{gid}/scorepad")
        game, state = look(None)
        engine = game.engine
        for _ in range(400):
            if engine.dump_state(state)["round"] > 1:
                break
            request = engine.chance(state)
            key = (
                request.dealt_to
                if request is not None
                else next(s for s in range(4) if engine.legal_commands(state, s))
            )
            tab = phones[key]
            if (
                "/scorepad" not in tab.url
                or int(tab.locator("#status").get_attribute("data-version")) != game.version
            ):
                tab.goto(f"/game/{gid}/scorepad")
            pad = tab.locator("#pad-table" if request is not None else f"#pad-{key}")
            tap(tab, _choice(pad, rng, request.pool if request is not None else ()))
            game, state = look(key)
        else:
            raise AssertionError("the first round did not end")
        page.goto(f"/game/{gid}/scorepad")
        look(None)
    finally:
        for seat in range(4):
            phones[seat].context.close()
    assert others_secrets == {None, 0, 1, 2, 3}, "every phone had others' hidden cards not to show"
    assert own_secrets_shown == {0, 1, 2, 3}, "each player's own phone shows their own hidden cards"
