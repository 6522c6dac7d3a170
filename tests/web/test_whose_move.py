"""Whose move, said once: the scorepad and the game page of every phone at a
table agree on whom the game waits for, and a player whose own cards are
awaited is told it is their move on both."""

from __future__ import annotations

import html
import re
from uuid import UUID

from service.records.recording import states
from service.records.recording.games import get_game
from service.records.scorepad.turns import awaited
from tests.factories import Api
from tests.web.helpers import sign_in, table_game
from tests.web.test_sealed_entries import _awaited

HEADING = re.compile(r'<h2 id="seat-actions-title">([^<]+)</h2>')
WAITING = re.compile(r'(?s)<ul class="\w+" id="waiting">(.*?)</ul>')


def _waiting(page: str) -> list[str]:
    found = WAITING.search(page)
    return re.findall(r"<li>([^<]+)</li>", found.group(1)) if found else []


def record_of(pool, game):
    return _awaited(pool, game)[0]


def state_of(pool, game):
    with pool.connection() as conn:
        return states.load_state(conn, get_game(conn, UUID(game["id"])))


def test_the_game_page_and_the_scorepad_agree_on_whose_move_it_is_at_every_step(app, client, pool):
    club, players, _, game = table_game(client, engine="house-of-cronies", seats=4, league=False, sealed=True)
    api = Api(client, club["admin_token"])
    phones = []
    for seat in range(4):
        phone = app.test_client()
        sign_in(phone, game["seat_tokens"][seat]["token"])
        phones.append(phone)
    told_own_cards, told_to_act = set(), set()
    for step in range(40):
        view = api.get(f"/games/{game['id']}").get_json()
        dealt_to = (view["waiting_for_chance"] or {}).get("dealt_to")
        for seat, phone in enumerate(phones):
            name = players[seat]["name"]
            page = html.unescape(phone.get(f"/game/{game['id']}").get_data(as_text=True))
            pad = html.unescape(phone.get(f"/game/{game['id']}/scorepad").get_data(as_text=True))
            assert _waiting(page) == _waiting(pad), (step, name)
            if dealt_to == seat:
                assert HEADING.search(page).group(1) == f"Your move, {name}", step
                assert 'id="own-cards"' in page and f"/game/{game['id']}/scorepad" in page
                assert re.search(
                    rf"Enter the (card|\d+ cards) dealt to {re.escape(name)} on the scorepad",
                    re.sub(r"<[^>]+>", "", page),
                )
                assert f"Your cards: {name}" in pad
                told_own_cards.add(seat)
            elif dealt_to is None and view["waiting_for_chance"] is None:
                yours = "Your move" in HEADING.search(page).group(1)
                assert yours == bool(awaited(record_of(pool, game).engine, state_of(pool, game), seat)), step
                told_to_act |= {seat} if yours else set()
            elif dealt_to is not None:
                assert HEADING.search(page).group(1) == f"Not your move, {name}"
                assert f"Waiting for {players[dealt_to]['name']} to enter their" in " ".join(_waiting(page))
        record, request = _awaited(pool, game)
        if request is not None:
            entry = {"type": request.command, **dict(request.fixed)}
            if request.draw:
                entry["cards"] = sorted(request.pool)[: request.draw]
            if request.dice:
                entry["dice"] = [1] * request.dice
            token = club["admin_token"] if dealt_to is None else game["seat_tokens"][dealt_to]["token"]
            body = {"seat": None, "command": entry}
        else:
            seat = next(s for s in range(4) if record.engine.legal_commands(state_of(pool, game), s))
            token = game["seat_tokens"][seat]["token"]
            body = (
                Api(client, token)
                .get(f"/games/{game['id']}/legal-actions")
                .get_json()["seats"][str(seat)][-1]
            )
        assert Api(client, token).post(f"/games/{game['id']}/actions", body).status_code == 201, step
    assert told_own_cards and told_to_act, "players' own cards and their entries were awaited"
