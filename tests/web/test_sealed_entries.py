"""Each player enters their own secrets on their own phone: the recorder of a
game where it sees only public information is told whom the game waits for,
never what they entered."""

from __future__ import annotations

import html
import json
import re
from uuid import UUID

from engines.chancellors.cards import label as card_label
from service.records.recording import states
from service.records.recording.games import get_game
from tests.factories import Api
from tests.helpers import event_count
from tests.web.helpers import csrf_token, sign_in, table_game

PAD = re.compile(r'<section class="pad" id="pad-(\w+)">')


def sealed_game(client):
    """A Chancellors table game whose recorder sees only public information."""
    club, players, _, game = table_game(client, target=10, league=False, sealed=True)
    return club, players, game


def until_dealt(client, club, game) -> dict:
    """The recorder enters the public chance until a player's own cards are awaited."""
    api = Api(client, club["admin_token"])
    for _ in range(20):
        view = api.get(f"/games/{game['id']}").get_json()
        if view["waiting_for_chance"]["dealt_to"] is not None:
            return view
        legal = api.get(f"/games/{game['id']}/legal-actions").get_json()
        assert api.post(f"/games/{game['id']}/actions", legal["seats"]["dealer"][0]).status_code == 201
    raise AssertionError("no player's cards were awaited")


def _enter_on_pad(phone, game, pad: str, command: dict, version) -> object:
    """The table's entry ``command`` posted from the scorepad ``pad`` as it was shown at ``version``."""
    return phone.post(
        f"/game/{game['id']}/scorepad",
        data={
            "csrf_token": csrf_token(pad),
            "seat": "table",
            "command": json.dumps(command),
            "version": str(version),
        },
    )


def _awaited(pool, game):
    """The game as stored, and the chance it awaits."""
    with pool.connection() as conn:
        record = get_game(conn, UUID(game["id"]))
        return record, record.engine.chance(states.load_state(conn, record))


def _dealt(request) -> dict:
    """An entry of the cards ``request`` awaits (the recorder who sees only public information is not offered them)."""
    return {"type": request.command, **dict(request.fixed), "cards": sorted(request.pool)[: request.draw]}


def test_the_recorder_is_told_whom_the_game_waits_for_and_never_sees_their_cards(app, client, pool):
    club, players, game = sealed_game(client)
    view = until_dealt(client, club, game)
    ana = view["waiting_for_chance"]["dealt_to"]
    count = view["waiting_for_chance"]["draw"]
    sign_in(client, club["admin_token"])
    page = html.unescape(client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True))
    assert f"Waiting for {players[ana]['name']} to enter their {count} cards" in page
    assert "table" not in PAD.findall(page)

    phone = app.test_client()
    sign_in(phone, game["seat_tokens"][ana]["token"])
    pad = phone.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    assert PAD.findall(pad) == ["table"], "the player's phone offers their own cards"
    assert f"Your cards: {players[ana]['name']} draws" in html.unescape(pad)
    record, request = _awaited(pool, game)
    command = _dealt(request)
    entered = _enter_on_pad(phone, game, pad, command, record.version)
    assert entered.status_code == 303
    hand = command["cards"]

    page = html.unescape(client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True))
    assert f"{players[ana]['name']} draws" in page or f"{players[ana]['name']} is dealt" in page
    names = {card_label(c) for c in hand}
    assert not [n for n in names if re.search(rf"\b{re.escape(n)}\b", page, re.I)], (
        "no card reaches the recorder"
    )


def test_another_player_may_not_enter_a_player_s_cards_and_nothing_is_stored(app, client, pool):
    club, players, game = sealed_game(client)
    view = until_dealt(client, club, game)
    other = (view["waiting_for_chance"]["dealt_to"] + 1) % len(players)
    phone = app.test_client()
    sign_in(phone, game["seat_tokens"][other]["token"])
    pad = phone.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    assert "table" not in PAD.findall(pad)
    record, request = _awaited(pool, game)
    before = event_count(pool, game["id"])
    _enter_on_pad(phone, game, pad, _dealt(request), record.version)
    refused = html.unescape(phone.get(f"/game/{game['id']}/scorepad").get_data(as_text=True))
    assert "only the cards dealt into their own hand" in refused
    assert event_count(pool, game["id"]) == before


def _pad_text(page: str) -> str:
    """The words of a scorepad's own-cards pad: its question, buttons and counts."""
    section = re.search(r'<section class="pad" id="pad-table">(.*?)</section>', page, re.S)
    assert section, "the pad asks for the player's cards"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", section.group(1))).split())


def test_a_player_entering_their_cards_is_offered_the_same_cards_whatever_the_others_hold(app, client, pool):
    """What is left of the deck would tell a player what the others hold: a
    player's own pad offers every card they cannot see, so two games in which
    the first player was dealt different cards read alike to the second."""
    pads = []
    for game_number in range(2):
        club, players, game = sealed_game(client)
        view = until_dealt(client, club, game)
        first = view["waiting_for_chance"]["dealt_to"]
        _, request = _awaited(pool, game)
        deck = sorted(request.pool)
        cards = deck[: request.draw] if game_number == 0 else deck[-request.draw :]
        command = {"seat": None, "command": {"type": request.command, **dict(request.fixed), "cards": cards}}
        entered = Api(client, game["seat_tokens"][first]["token"]).post(
            f"/games/{game['id']}/actions", command
        )
        assert entered.status_code == 201, entered.get_json()
        second = Api(client, club["admin_token"]).get(f"/games/{game['id']}").get_json()["waiting_for_chance"]
        assert second["dealt_to"] not in (None, first)
        phone = app.test_client()
        sign_in(phone, game["seat_tokens"][second["dealt_to"]]["token"])
        text = _pad_text(phone.get(f"/game/{game['id']}/scorepad").get_data(as_text=True))
        pads.append(text.replace(players[second["dealt_to"]]["name"], "the second player"))
    assert pads[0] == pads[1]


def test_a_player_who_enters_a_card_another_holds_is_told_in_plain_words_and_nothing_is_stored(
    app, client, pool
):
    """Their pad offers every card they cannot see, so a mistaken tap can
    name a card another player holds: the entry is refused as any card
    the deck does not hold, and they enter their cards again."""
    club, players, game = sealed_game(client)
    view = until_dealt(client, club, game)
    first = view["waiting_for_chance"]["dealt_to"]
    record, request = _awaited(pool, game)
    held = sorted(request.pool)[: request.draw]
    command = {"type": request.command, **dict(request.fixed), "cards": held}
    assert (
        Api(client, game["seat_tokens"][first]["token"])
        .post(f"/games/{game['id']}/actions", {"seat": None, "command": command})
        .status_code
        == 201
    )
    record, request = _awaited(pool, game)
    second = request.dealt_to
    phone = app.test_client()
    sign_in(phone, game["seat_tokens"][second]["token"])
    pad = phone.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    mistaken = [held[0], *sorted(request.pool)[: request.draw - 1]]
    before = event_count(pool, game["id"])
    _enter_on_pad(
        phone, game, pad, {"type": request.command, **dict(request.fixed), "cards": mistaken}, record.version
    )
    assert event_count(pool, game["id"]) == before
    page = html.unescape(phone.get(f"/game/{game['id']}/scorepad").get_data(as_text=True))
    assert "These cards cannot be the ones drawn: check them and enter them again." in page
    assert f"Your cards: {players[second]['name']} draws" in page, "they may enter their cards again"
