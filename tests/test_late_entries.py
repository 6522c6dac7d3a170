"""Several phones on one table game: an entry chosen on a version the game has
since moved past is applied when it still means what it meant, and refused,
storing nothing and saying what changed, when it does not."""

from __future__ import annotations

import pytest

from engines.base import ChanceRequest, Event
from service.records import access
from service.records.errors import Conflict
from service.records.log.context import Records
from service.records.log.store import StoredEvent
from service.records.pages import entries
from service.records.recording import late_entries
from tests.factories import Api
from tests.helpers import event_count
from tests.web.helpers import play_table_game, table_game


class Table:
    """A stand-in engine whose state is what each seat may enter and the chance awaited."""

    def legal_commands(self, state, seat):
        return [{**c, "seat": seat} for c in state["legal"].get(seat, [])]

    def chance(self, state):
        return state.get("chance")

    def describe(self, event, names):
        return f"{names[event.data['seat']]} {event.data['did']}."

    def redact(self, event, seat):
        return event


def entered(seat, did="passes", version=5):
    return StoredEvent(
        0, None, version, "Entered", {"seat": seat, "did": did}, {"command": {"seat": seat}}, None
    )


NAMES = ["Ana", "Ben", "Cat"]
PASS = {"type": "Pass"}


def test_an_entry_is_applied_when_another_seat_s_entry_left_its_choices_as_they_were():
    then = {"legal": {0: [PASS], 1: [PASS]}}
    now = {"legal": {0: [PASS]}}
    verdict = late_entries.judge(Table(), then, now, [entered(1)], 0, PASS, NAMES)
    assert verdict.applies


def test_an_entry_is_refused_when_its_own_actor_entered_something_meanwhile():
    state = {"legal": {0: [PASS]}}
    verdict = late_entries.judge(Table(), state, state, [entered(0)], 0, PASS, NAMES)
    assert not verdict.applies
    assert verdict.changed == "Meanwhile: Ana passes. Choose again."


def test_an_entry_is_refused_when_what_its_actor_answered_has_changed():
    then = {"legal": {0: [PASS, {"type": "Bid", "amount": 3}]}}
    now = {"legal": {0: [PASS]}}
    verdict = late_entries.judge(Table(), then, now, [entered(1, "bids 4")], 0, PASS, NAMES)
    assert not verdict.applies and "Ben bids 4" in verdict.changed


def test_the_table_s_chance_is_applied_only_while_the_same_chance_is_awaited():
    roll = ChanceRequest("RollDice", dice=2, fixed={"problem": 0})
    other = ChanceRequest("RollDice", dice=2, fixed={"problem": 1})
    command = {"type": "RollDice", "problem": 0, "dice": [3, 4]}
    same = late_entries.judge(Table(), {"chance": roll}, {"chance": roll}, [entered(1)], None, command, NAMES)
    moved = late_entries.judge(
        Table(), {"chance": roll}, {"chance": other}, [entered(1)], None, command, NAMES
    )
    assert same.applies and not moved.applies


def test_an_entry_taken_back_meanwhile_refuses_the_late_entry():
    state = {"legal": {0: [PASS]}}
    undo = StoredEvent(0, None, 6, "ActionsRetracted", {"to_version": 4}, {}, None)
    verdict = late_entries.judge(Table(), state, state, [entered(1), undo], 0, PASS, NAMES)
    assert not verdict.applies and verdict.changed.startswith("An entry was taken back")


def test_the_line_says_what_a_seat_may_see_only():
    class Hiding(Table):
        def redact(self, event, seat):
            return Event(event.type, {**event.data, "did": "draws a card"})

    state = {"legal": {0: [PASS]}}
    between = [entered(0, "draws the Leak")]
    verdict = late_entries.judge(Hiding(), state, state, between, 0, PASS, NAMES, viewer=0)
    assert "Leak" not in verdict.changed and "Ana draws a card" in verdict.changed


def _recorder(pool, token):
    with pool.connection() as conn:
        return access.principal_for(conn, access.hash_token(token))


@pytest.fixture
def choosing(client):
    """A Chancellors table game where every seat chooses a card face down."""
    club, _, _, game = table_game(client, target=10, league=False)
    play_table_game(client, game, club["admin_token"], until=lambda v: v["state"]["phase"] == "choose")
    legal = Api(client, club["admin_token"]).get(f"/games/{game['id']}/legal-actions").get_json()
    return club, game, legal


def _entry(legal, seat):
    command = dict(legal["seats"][str(seat)][0]["command"])
    return command


def test_a_second_phone_s_entry_for_another_seat_is_applied_after_the_first_s(pool, choosing):
    club, game, legal = choosing
    records, recorder = Records(pool), _recorder(pool, club["admin_token"])
    seen = legal["version"]
    first = entries.record_entry(records, game["id"], recorder, 0, _entry(legal, 0), seen, None)
    second = entries.record_entry(records, game["id"], recorder, 1, _entry(legal, 1), seen, None)
    assert first.status == second.status == 201
    assert second.body["version"] > first.body["version"]


def test_a_second_phone_s_entry_for_the_same_seat_is_refused_and_stores_nothing(pool, choosing):
    club, game, legal = choosing
    records, recorder = Records(pool), _recorder(pool, club["admin_token"])
    seen = legal["version"]
    entries.record_entry(records, game["id"], recorder, 0, _entry(legal, 0), seen, None)
    before = event_count(pool, game["id"])
    with pytest.raises(Conflict) as refused:
        entries.record_entry(records, game["id"], recorder, 0, _entry(legal, 0), seen, None)
    assert refused.value.code == "game-moved" and refused.value.detail.endswith("Choose again.")
    assert event_count(pool, game["id"]) == before
