"""A half-entered set of cards on the scorepad is its maker's until it is
entered: a refused last card keeps the cards already chosen, and a reload,
another phone's entry or the same sign-in on another phone shows the set
as it was left."""

from __future__ import annotations

import html
import json
import re
from uuid import UUID

from service.records.recording import states
from service.records.recording.games import get_game
from service.records.scorepad.choice import encode
from tests.factories import Api
from tests.web.helpers import csrf_token, sign_in, table_game

CHOSEN = re.compile(r'(?s)<div class="chosen"[^>]*>(.*?)</div>')


def chosen(page: str) -> str:
    """The cards a pad shows as chosen, as read ("1 influence ×2 ✕ …"), or ""."""
    found = CHOSEN.search(html.unescape(page))
    text = re.sub(r"<[^>]+>", " ", found.group(1)) if found else ""
    return " ".join(text.replace("No card chosen yet", "").split())


def _state(pool, game):
    with pool.connection() as conn:
        record = get_game(conn, UUID(game["id"]))
        return record, states.load_state(conn, record)


def _until_own_draw(client, club, game, pool):
    """The recorder deals until a player's own draw is awaited from someone whose
    other players already hold cards (a card they cannot see that the deck no longer holds)."""
    for _ in range(60):
        record, state = _state(pool, game)
        request = record.engine.chance(state)
        held = {c for s, p in enumerate(state.players) if s != request.dealt_to for c in p.hand}
        if request.dealt_to is not None and held - set(request.pool):
            return record, state, request
        entry = {
            "type": request.command,
            **dict(request.fixed),
            "cards": sorted(request.pool)[: request.draw],
        }
        token = (
            club["admin_token"]
            if request.dealt_to is None
            else game["seat_tokens"][request.dealt_to]["token"]
        )
        assert (
            Api(client, token)
            .post(f"/games/{game['id']}/actions", {"seat": None, "command": entry})
            .status_code
            == 201
        )
    raise AssertionError("no player's own draw came after another's")


def test_a_refused_last_card_keeps_the_cards_chosen_and_the_set_survives_a_reload(app, client, pool):
    club, players, _, game = table_game(client, engine="house-of-cronies", seats=4, league=False, sealed=True)
    record, state, request = _until_own_draw(client, club, game, pool)
    seat = request.dealt_to
    phone = app.test_client()
    sign_in(phone, game["seat_tokens"][seat]["token"])
    path = f"/game/{game['id']}/scorepad"
    first = sorted(request.pool)[: request.draw - 1]
    picks = [encode("card", c) for c in first]
    pad = html.unescape(phone.get(path, query_string={"actor": "table", "p": picks}).get_data(as_text=True))
    assert "The last of" in pad, re.findall(r"<p class=\"question\"[^>]*>[^<]*", pad)
    shown = chosen(pad)
    assert shown.count("✕") >= 1

    held = sorted({c for s, p in enumerate(state.players) if s != seat for c in p.hand} - set(request.pool))
    refused_entry = {"type": request.command, **dict(request.fixed), "cards": sorted([*first, held[0]])}
    answer = phone.post(
        path,
        data={
            "csrf_token": csrf_token(pad),
            "seat": "table",
            "command": json.dumps(refused_entry),
            "version": str(record.version),
        },
        headers={"HX-Request": "true"},
    )
    after = html.unescape(answer.get_data(as_text=True))
    assert 'class="flash refused"' in after, "the entry is refused"
    assert chosen(after) == shown, "the cards already chosen are kept"
    assert "The last of" in after

    reloaded = html.unescape(phone.get(path).get_data(as_text=True))
    assert chosen(reloaded) == shown, "a reload shows the set as it was left"
    other = app.test_client()  # the same sign-in on another phone
    sign_in(other, game["seat_tokens"][seat]["token"])
    assert chosen(html.unescape(other.get(path).get_data(as_text=True))) == shown

    recorder = app.test_client()  # nobody else's pad shows it
    sign_in(recorder, club["admin_token"])
    assert not chosen(recorder.get(path).get_data(as_text=True))

    last = {
        "type": request.command,
        **dict(request.fixed),
        "cards": sorted([*first, sorted(request.pool)[request.draw - 1]]),
    }
    entered = phone.post(
        path,
        data={
            "csrf_token": csrf_token(pad),
            "seat": "table",
            "command": json.dumps(last),
            "version": str(record.version),
        },
        headers={"HX-Request": "true"},
    )
    assert 'class="flash refused"' not in entered.get_data(as_text=True)
    assert not chosen(phone.get(path).get_data(as_text=True)), "an entered set is shown no more"
