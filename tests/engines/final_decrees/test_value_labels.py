"""The scorepad's words for one value of a command: a card by the name printed on
it, a seat by its player's name, a department by its title, a decree by its name
and blame spread as the log words it; anything else (amounts, offers, the blame
removed from each seat) is left for the pad to show as it is."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engines.final_decrees import ENGINE
from engines.final_decrees.state import FdState
from tests.engine_contract import play_random_game, worded_values

from .builders import DECLINE, act, cmd, config, started, table

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
KINDS = {
    **dict.fromkeys(["card", "cards", "give_cards"], "card"),
    **dict.fromkeys(["seat", "player", "target_seat"], "seat"),
    **dict.fromkeys(["department", "target_department", "posts", "arrow"], "department"),
    "decree": "decree",
    "moves": "move",
}


def _kind(field: str, value: Any) -> str | None:
    """What the value names (None: nothing the pad can word). ``to`` is the seat a
    trade is offered to, or the department a decree or an arrow goes to."""
    if field == "to":
        return "department" if isinstance(value, str) else "seat"
    if KINDS.get(field) == "seat" and value is None:  # the table's chance commands have no seat
        return None
    return KINDS.get(field)


def _check_labels(state: FdState, seen: Counter) -> None:
    seen.update(worded_values(ENGINE, state, NAMES[: state.seats], _kind))


@pytest.mark.parametrize(("seats", "seed"), [(5, 1), (4, 2)])
def test_every_card_seat_department_and_decree_a_whole_game_offers_reads_as_the_table_names_it(seats, seed):
    seen: Counter = Counter()
    play_random_game(
        ENGINE, config(seats), seed, check_every=10_000, observe=lambda state: _check_labels(state, seen)
    )
    assert set(seen) == {(kind, field) for field, kind in KINDS.items()} | {
        ("seat", "to"),
        ("department", "to"),
    }


def test_a_card_is_named_as_the_log_names_it_when_played():
    state = table(hands=[["overtime-1"], [], [], [], []])
    _, events = act(state, cmd("PlayCard", 0, card="overtime-1"))
    named = ENGINE.label_value(state, "card", "overtime-1", NAMES)
    assert named == "Overtime"
    assert ENGINE.describe(events[0], NAMES) == f"Ann plays {named}."


@pytest.mark.parametrize("field", ["card", "cards", "give_cards"])
def test_the_decline_card_is_named_in_full(field):
    assert ENGINE.label_value(started(), field, DECLINE, NAMES) == "Stagnation and Decline"


@pytest.mark.parametrize("field", ["seat", "player", "target_seat", "to"])
def test_a_seat_is_named_by_its_player(field):
    assert ENGINE.label_value(started(), field, 2, NAMES) == "Cy"


@pytest.mark.parametrize("field", ["department", "target_department", "posts", "arrow", "from", "to"])
def test_a_department_is_named_by_its_title(field):
    assert ENGINE.label_value(started(), field, "treasury", NAMES) == "the Treasury"


def test_to_is_the_player_offered_a_trade_or_the_department_a_decree_goes_to():
    state = started()
    assert ENGINE.label_value(state, "to", 3, NAMES) == "Di"
    assert ENGINE.label_value(state, "to", "secret-service", NAMES) == "the Secret Service"


def test_a_decree_is_named_as_printed_on_it():
    assert ENGINE.label_value(started(), "decree", "granary-decree", NAMES) == "The Granary Decree"


def test_blame_spread_reads_as_the_log_words_it():
    state = table(blame={"executive": 3})
    move = {"from": "executive", "to": "human-resources", "amount": 2}
    _, events = act(state, cmd("SpreadBlame", 0, moves=[move]))
    named = ENGINE.label_value(state, "moves", move, NAMES)
    assert named == "2 from the Executive Branch to Human Resources"
    assert ENGINE.describe(events[0], NAMES) == f"Ann spreads the blame: {named}."


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("card", "no-such-card"),
        ("card", {"id": "overtime-1"}),
        ("card", None),
        ("cards", 3),
        ("decree", "no-such-decree"),
        ("decree", ["granary-decree"]),
        ("department", "no-such-department"),
        ("posts", None),
        ("arrow", {"treasury": 1}),
        ("moves", {"from": "executive", "to": "nowhere", "amount": 1}),
        ("moves", {"from": "executive", "to": "treasury"}),
        ("moves", "executive"),
        ("seat", 5),
        ("player", True),
        ("to", None),
        ("players", 2),  # the blame removed from one seat, not a seat
        ("departments", {"treasury": 2}),
        ("amount", 3),
        ("offer", 1),
        ("change", "move"),
        ("type", "PlayCard"),
        ("no-such-field", "overtime-1"),
    ],
)
def test_what_has_no_better_words_is_left_as_it_is(field, value):
    assert ENGINE.label_value(started(), field, value, NAMES) is None


@pytest.mark.parametrize("value", [None, True, -1, 2.5, "", [], ["overtime-1"], {}, {"from": []}, object()])
def test_whatever_a_field_holds_the_words_never_fail(value):
    state = started()
    for field in [*KINDS, "to", "from", "players", "departments", "amount", "", "no-such-field"]:
        label = ENGINE.label_value(state, field, value, NAMES)
        assert label is None or isinstance(label, str), (field, value, label)
