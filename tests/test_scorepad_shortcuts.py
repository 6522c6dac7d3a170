"""The scorepad's shortcuts: "Nobody else reacts" records every remaining
seat's pass with one tap, and an entry after which only one command is
possible has it recorded too. Each entry is still a command of its own,
judged by the engine; a refused tap stores nothing."""

from __future__ import annotations

from uuid import UUID

import pytest

from engines.base import ChanceRequest, RuleViolation
from service.records import access
from service.records.access import Principal
from service.records.errors import Conflict, Invalid
from service.records.log.context import Records
from service.records.pages import entries, scorepad_page
from service.records.scorepad import shortcuts
from tests.factories import Api
from tests.helpers import event_count
from tests.web.helpers import csrf_token, play_table_game, sign_in, table_game

PASS = {"type": "PassReaction"}
PLAY = {"type": "PlayTactic", "card": "hawks"}


class Table:
    """A stand-in engine: the state is what each seat may enter, and passing takes a seat out."""

    def legal_commands(self, state, seat):
        return [{**c, "seat": seat} for c in state["legal"].get(seat, [])]

    def chance(self, state):
        return state.get("chance")

    def outcome(self, state):
        class Open:
            finished = False

        return Open()

    def decide(self, state, command):
        return [("Passed", command["seat"])]

    def evolve(self, state, event):
        _, seat = event
        return {**state, "legal": {s: c for s, c in state["legal"].items() if s != seat}}


def test_nobody_else_reacts_passes_every_seat_that_may_still_answer():
    state = {"legal": {0: [PASS], 1: [PLAY, PASS], 3: [PASS]}}
    window = shortcuts.pass_window(Table(), state, 4)
    assert window is not None and window.entries == ((0, PASS), (1, PASS), (3, PASS))


def test_there_is_no_pass_window_when_a_seat_that_may_act_cannot_pass():
    assert shortcuts.pass_window(Table(), {"legal": {0: [PASS], 1: [PLAY]}}, 2) is None


def test_there_is_no_pass_window_for_one_seat_alone_or_while_chance_is_awaited():
    assert shortcuts.pass_window(Table(), {"legal": {0: [PASS]}}, 2) is None
    waiting = {"legal": {0: [PASS], 1: [PASS]}, "chance": ChanceRequest("RollDice", dice=1)}
    assert shortcuts.pass_window(Table(), waiting, 2) is None


def test_an_entry_is_forced_when_it_is_the_only_one_anyone_may_make():
    assert shortcuts.forced(Table(), {"legal": {1: [PASS]}}, 2) == (1, PASS)
    assert shortcuts.forced(Table(), {"legal": {1: [PASS, PLAY]}}, 2) is None
    assert shortcuts.forced(Table(), {"legal": {0: [PASS], 1: [PASS]}}, 2) is None
    assert (
        shortcuts.forced(Table(), {"legal": {1: [PASS]}, "chance": ChanceRequest("RollDice", dice=1)}, 2)
        is None
    )


def _recorder(pool, token):
    with pool.connection() as conn:
        return access.principal_for(conn, access.hash_token(token))


def _in_window(view) -> bool:
    return view["state"].get("reaction") is not None


@pytest.fixture
def reacting(client):
    """A House of Cronies table game of four, at a window where several seats may react."""
    club, _, _, game = table_game(client, engine="house-of-cronies", seats=4, league=False)
    api = Api(client, club["admin_token"])

    def window(view):
        legal = api.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]
        passing = [
            s
            for s, commands in legal.items()
            if any(c["command"]["type"] == "PassReaction" for c in commands)
        ]
        return len(passing) >= 2

    play_table_game(client, game, club["admin_token"], until=window)
    return club, game, api


def test_nobody_else_reacts_records_each_seat_s_pass_as_its_own_entry(pool, reacting):
    club, game, api = reacting
    records, recorder = Records(pool), _recorder(pool, club["admin_token"])
    legal = api.get(f"/games/{game['id']}/legal-actions").get_json()
    passing = [
        s
        for s, commands in legal["seats"].items()
        if any(c["command"]["type"] == "PassReaction" for c in commands)
    ]
    written = entries.record_pass_window(records, game["id"], recorder, legal["version"], None)
    events = api.get(f"/games/{game['id']}/events").get_json()["events"]
    new = [e for e in events if e["version"] > legal["version"]]
    assert written is not None and len(new) >= len(passing)
    after = api.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]
    assert not any(c["command"]["type"] == "PassReaction" for commands in after.values() for c in commands)


def test_nobody_else_reacts_on_a_version_since_moved_stores_nothing(pool, reacting):
    club, game, api = reacting
    records, recorder = Records(pool), _recorder(pool, club["admin_token"])
    version = api.get(f"/games/{game['id']}/legal-actions").get_json()["version"]
    before = event_count(pool, game["id"])
    with pytest.raises(Conflict):
        entries.record_pass_window(records, game["id"], recorder, version - 1, None)
    assert event_count(pool, game["id"]) == before


def test_nobody_else_reacts_outside_a_window_is_refused_and_stores_nothing(pool, client):
    club, _, _, game = table_game(client, engine="pig", seats=2, league=False, target=20)
    records, recorder = Records(pool), _recorder(pool, club["admin_token"])
    version = Api(client, club["admin_token"]).get(f"/games/{game['id']}").get_json()["version"]
    before = event_count(pool, game["id"])
    with pytest.raises(Invalid) as refused:
        entries.record_pass_window(records, game["id"], recorder, version, None)
    assert refused.value.code == "no-pass-window"
    assert event_count(pool, game["id"]) == before


def _pig_turn_to_hold(client, pool):
    """A Pig table game where seat 0 has rolled once and may hold: after it, seat 1 may only roll."""
    club, _, _, game = table_game(client, engine="pig", seats=2, league=False, target=20)
    api = Api(client, club["admin_token"])
    records, recorder = Records(pool), _recorder(pool, club["admin_token"])
    version = api.get(f"/games/{game['id']}").get_json()["version"]
    if "Roll" in [
        c["command"]["type"] for c in api.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]["0"]
    ]:
        version = entries.record_entry(
            records,
            game["id"],
            recorder,
            0,
            {"type": "Roll"},
            version,
            None,
            {"type": "ResolveRoll", "dice": [4]},
        ).body["version"]
    return club, game, api, records, version


def test_the_only_entry_possible_after_a_tap_is_recorded_with_it_and_undone_with_it(pool, client):
    club, game, api, records, version = _pig_turn_to_hold(client, pool)
    recorder = _recorder(pool, club["admin_token"])
    written = entries.record_entry(records, game["id"], recorder, 0, {"type": "Hold"}, version, None)
    events = api.get(f"/games/{game['id']}/events").get_json()["events"]
    assert [e["type"] for e in events if e["version"] > version] == ["TurnHeld", "RollStarted"]
    legal = api.get(f"/games/{game['id']}/legal-actions").get_json()
    assert legal["seats"].get("1", []) == []  # seat 1's roll is in: the table's die is awaited
    pad = scorepad_page.scorepad(records, game["id"], recorder, entered=True)
    assert len(pad["forced"]) == 1 and pad["forced"][0].endswith(" rolls.")
    entries.undo_last_entry(records, game["id"], recorder, written.body["version"], None)
    after = api.get(f"/games/{game['id']}/legal-actions").get_json()
    assert {c["command"]["type"] for c in after["seats"]["0"]} == {"Roll", "Hold"}


def test_an_entry_is_not_forced_on_a_seat_the_caller_may_not_act_for(pool, client):
    club, game, api, records, version = _pig_turn_to_hold(client, pool)
    seat_zero = Principal(
        _recorder(pool, club["admin_token"]).club_id, "seat", game_id=UUID(game["id"]), seat=0
    )
    written = entries.record_entry(records, game["id"], seat_zero, 0, {"type": "Hold"}, version, None)
    legal = api.get(f"/games/{game['id']}/legal-actions").get_json()
    assert [c["command"]["type"] for c in legal["seats"]["1"]] == ["Roll"]
    assert written.body["version"] == legal["version"]


@pytest.fixture
def attacking(client):
    """A Political Divide & Conquer table game of four, at the window before an attack roll."""
    club, _, _, game = table_game(client, engine="political-divide-and-conquer", seats=4, league=False)
    api = Api(client, club["admin_token"])

    def window(view):
        legal = api.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]
        passing = [s for s, cs in legal.items() if any(c["command"]["type"] == "PassWindow" for c in cs)]
        return len(passing) >= 2

    play_table_game(client, game, club["admin_token"], until=window)
    return club, game, api


def test_nobody_else_reacts_and_the_attack_roll_are_entered_with_one_tap(pool, attacking):
    club, game, api = attacking
    records, recorder = Records(pool), _recorder(pool, club["admin_token"])
    pad = scorepad_page.scorepad(records, game["id"], recorder, None, [])
    window, version = pad["window"], pad["game"]["version"]
    assert window["rolls"]["grid"] == 6 and len(window["passes"]) == len(window["entries"]) >= 2
    roll = window["rolls"]["options"][8].then  # 2 and 3
    entries.record_pass_window(records, game["id"], recorder, version, None, roll)
    events = api.get(f"/games/{game['id']}/events").get_json()["events"]
    new = [e for e in events if e["version"] > version]
    assert len(new) > len(window["entries"])
    assert any(e["data"].get("dice") == [2, 3] for e in new), [e["type"] for e in new]


def test_a_roll_the_rules_refuse_refuses_the_passes_too(pool, attacking):
    club, game, api = attacking
    records, recorder = Records(pool), _recorder(pool, club["admin_token"])
    pad = scorepad_page.scorepad(records, game["id"], recorder, None, [])
    roll = {**pad["window"]["rolls"]["options"][0].then, "dice": [9, 9]}
    before = event_count(pool, game["id"])
    with pytest.raises((Invalid, RuleViolation)):
        entries.record_pass_window(records, game["id"], recorder, pad["game"]["version"], None, roll)
    assert event_count(pool, game["id"]) == before


def test_what_an_entry_forced_is_said_once_in_the_answer_to_its_tap(pool, client):
    club, game, api, _, version = _pig_turn_to_hold(client, pool)
    sign_in(client, club["admin_token"])
    path = f"/game/{game['id']}/scorepad"
    pad = client.get(path).get_data(as_text=True)
    answer = client.post(
        path,
        data={
            "csrf_token": csrf_token(pad),
            "seat": "0",
            "command": '{"type": "Hold"}',
            "version": str(version),
        },
        headers={"HX-Request": "true"},
    ).get_data(as_text=True)
    assert "Recorded with it, as the only entry anyone could make" in answer
    for _ in range(2):  # the next tap (a reload, a pick) no longer says it
        assert "Recorded with it" not in client.get(path, headers={"HX-Request": "true"}).get_data(
            as_text=True
        )
    assert "Recorded with it" not in client.get(path).get_data(as_text=True)
