"""At a table, a player may enter the cards dealt into their own hand on their
own phone (their seat token); never another seat's, never a public chance.
A refused entry stores nothing. Walked through a table game of every engine."""

from __future__ import annotations

from uuid import UUID

import pytest

from engines import registry
from service.records.recording import states
from service.records.recording.games import get_game
from tests.factories import Api
from tests.helpers import event_count
from tests.web.helpers import csrf_token, sign_in, table_game

HANDS = {"chancellors", "house-of-cronies", "political-divide-and-conquer", "final-decrees"}


def _refused(api, gid, entry, pool) -> str:
    before = event_count(pool, gid)
    response = api.post(f"/games/{gid}/actions", entry)
    assert response.status_code == 403, response.get_json()
    assert event_count(pool, gid) == before
    return response.get_json()["code"]


@pytest.mark.parametrize("engine_id", registry.available())
def test_a_seat_enters_its_own_cards_and_nobody_else_s(client, pool, engine_id):
    trial = registry.game(engine_id).trial
    options, seats = dict(trial.options), trial.seats
    club, _, _, game = table_game(client, engine=engine_id, seats=seats, league=False, **options)
    gid = game["id"]
    recorder = Api(client, club["admin_token"])
    token = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    own = public = 0
    for k in range(400):
        view = recorder.get(f"/games/{gid}").get_json()
        if view["status"] != "active" or (own and public):
            break
        legal = recorder.get(f"/games/{gid}/legal-actions").get_json()
        chance = view["waiting_for_chance"]
        if chance is not None:
            entry = {**legal["seats"]["dealer"][0], "expected_version": legal["version"]}
            dealt_to = chance["dealt_to"]
            others = [s for s in range(seats) if s != dealt_to]
            refused = _refused(Api(client, token[others[0]]), gid, entry, pool)
            assert refused == ("recorder-only" if dealt_to is None else "not-your-cards")
            if dealt_to is None:
                public += 1
            else:
                own += 1
                response = Api(client, token[dealt_to]).post(f"/games/{gid}/actions", entry)
                assert response.status_code == 201, response.get_json()
                continue
        options_now = [c for commands in legal["seats"].values() for c in commands]
        option = options_now[k % len(options_now)]
        assert (
            recorder.post(
                f"/games/{gid}/actions", {**option, "expected_version": legal["version"]}
            ).status_code
            == 201
        )
    assert public, "a public chance was met"
    assert bool(own) == (engine_id in HANDS)


def test_a_recorder_who_sees_only_public_information_may_not_enter_a_player_s_cards(client, pool):
    club, _, _, game = table_game(client, seats=3, league=False, target=10)
    gid = game["id"]
    club_game = Api(client, club["admin_token"])
    response = club_game.post(
        f"/clubs/{club['id']}/games",
        {
            "engine": "chancellors",
            "seats": [s["player"] for s in game["seats"]],
            "dealer": "table",
            "options": {"target": 10},
            "admin_spectator": True,
        },
    )
    assert response.status_code == 201, response.get_json()
    sealed = response.get_json()
    gid = sealed["id"]
    for _ in range(50):
        view = club_game.get(f"/games/{gid}").get_json()
        assert view["viewer"] is None, "the recorder sees what a spectator sees"
        chance = view["waiting_for_chance"]
        legal = club_game.get(f"/games/{gid}/legal-actions").get_json()
        if chance["dealt_to"] is not None:
            assert not legal["seats"]["dealer"], "no card of the deck is listed to the recorder"
            with pool.connection() as conn:
                record = get_game(conn, UUID(gid))
                request = record.engine.chance(states.load_state(conn, record))
            cards = sorted(request.pool)[: request.draw]
            entry = {
                "seat": None,
                "command": {"type": request.command, **dict(request.fixed), "cards": cards},
            }
            assert _refused(club_game, gid, entry, pool) == "sealed-from-recorder"
            return
        entry = {**legal["seats"]["dealer"][0], "expected_version": legal["version"]}
        assert club_game.post(f"/games/{gid}/actions", entry).status_code == 201
    raise AssertionError("no player's cards were dealt")


def _second_draw(client, pool, sealed: bool):
    """A Chancellors table game in which a first seat entered its cards and a
    second seat's draw is awaited: the game, its club, the cards the first
    holds, the second seat and the request awaited."""
    club, players, _, game = table_game(client, seats=3, league=False, target=10, sealed=sealed)
    recorder = Api(client, club["admin_token"])
    gid = game["id"]
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    held = None
    for _ in range(40):
        with pool.connection() as conn:
            record = get_game(conn, UUID(gid))
            request = record.engine.chance(states.load_state(conn, record))
        if request.dealt_to is not None and held is not None:
            return game, club, held, request
        if request.dealt_to is not None:
            held = sorted(request.pool)[: request.draw]
            entry = {"type": request.command, **dict(request.fixed), "cards": held}
            answer = Api(client, tokens[request.dealt_to]).post(
                f"/games/{gid}/actions", {"seat": None, "command": entry}
            )
            assert answer.status_code == 201, answer.get_json()
            continue
        legal = recorder.get(f"/games/{gid}/legal-actions").get_json()
        assert recorder.post(f"/games/{gid}/actions", legal["seats"]["dealer"][0]).status_code == 201
    raise AssertionError("no second seat's cards were awaited")


def test_a_refused_entry_of_ones_own_cards_names_no_card_and_tries_are_few(client, pool):
    """A player entering their own draw is offered every card they cannot
    see: an entry naming a card another seat holds gets the same answer as a
    made-up card, naming and counting none; after three refused entries of
    the draw, even the right cards are refused until the recorder lets them
    try again."""
    game, club, held, request = _second_draw(client, pool, sealed=False)
    gid = game["id"]
    seat = request.dealt_to
    member = Api(client, game["seat_tokens"][seat]["token"])
    right = sorted(request.pool)[: request.draw]
    base = {"type": request.command, **dict(request.fixed)}
    answers = []
    for wrong in (held[0], "nonexistent", held[-1]):
        cards = [wrong, *right[1:]]
        response = member.post(f"/games/{gid}/actions", {"seat": None, "command": {**base, "cards": cards}})
        body = response.get_json()
        answers.append(
            (response.status_code, {k: body.get(k) for k in ("code", "detail", "details", "rule")})
        )
        assert not {*held, "nonexistent"} & set(str(body).replace("'", " ").split()), body
    assert answers[0] == answers[1] == answers[2], answers
    assert answers[0][0] == 422 and answers[0][1]["code"] == "impossible-cards"
    before = event_count(pool, gid)
    spent = member.post(f"/games/{gid}/actions", {"seat": None, "command": {**base, "cards": right}})
    assert spent.status_code == 403 and spent.get_json()["code"] == "entry-tries-spent"
    assert event_count(pool, gid) == before

    recorder = client.application.test_client()
    sign_in(recorder, club["admin_token"])
    pad = recorder.get(f"/game/{gid}/scorepad").get_data(as_text=True)
    assert "Let them enter their cards again" in pad
    assert (
        recorder.post(f"/game/{gid}/scorepad/let-try-again", data={"csrf_token": csrf_token(pad)}).status_code
        == 303
    )
    entered = member.post(f"/games/{gid}/actions", {"seat": None, "command": {**base, "cards": right}})
    assert entered.status_code == 201, entered.get_json()
