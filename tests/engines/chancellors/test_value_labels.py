"""The scorepad's words for one value of a command: a card as the log names it
("the 9 of Leaves and Knots"), a seat by its player's name, a problem by its
number and the dice still on it; None for what has no better words (dice
faces, booleans, unknown cards), so the pad shows the value as it is."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engines.chancellors import ENGINE
from engines.chancellors.state import ChancellorsState, Problem
from tests.engine_contract import play_random_game, worded_values

from .builders import config, table

NAMES = ["Ann", "Bob", "Cy", "Di"]
CARD_FIELDS = ("card", "cards")
SEAT_FIELDS = ("seat", "player")


def _named(field: str, value: Any) -> str | None:
    """A card, or a seat (a number in a seat's field)."""
    if field in CARD_FIELDS:
        return "card"
    return "seat" if field in SEAT_FIELDS and isinstance(value, int) else None


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_every_card_and_seat_a_seeded_game_offers_has_words_and_nothing_raises(seats, seed):
    named: Counter[str] = Counter()

    def check(state: ChancellorsState) -> None:
        worded = worded_values(ENGINE, state, NAMES[:seats], _named)
        named.update(field for _, field in worded)

    play_random_game(
        ENGINE, config(seats, target=40, extended_deck=True), seed, check_every=10_000, observe=check
    )
    assert {"card", "cards", "seat", "player"} <= set(named)


def test_a_card_is_named_as_the_log_names_it():
    state = table()
    assert ENGINE.label_value(state, "card", "merchant", NAMES) == "The 9 of Leaves and Knots"
    assert ENGINE.label_value(state, "cards", "windfall", NAMES) == "The Crown of Knots"
    assert ENGINE.label_value(state, "cards", "excuse", NAMES) == "The Excuse"


def test_a_seat_is_named_by_its_player():
    state = table(3)
    assert ENGINE.label_value(state, "player", 2, NAMES) == "Cy"
    assert ENGINE.label_value(state, "seat", 0, NAMES) == "Ann"


def test_a_problem_is_named_by_its_number_and_the_dice_still_to_solve():
    state = table(problems=[(3, 4), (6, 6), (1, 5), (2, 2)])
    assert ENGINE.label_value(state, "problem", 1, NAMES) == "Problem 2: 6 and 6"
    partly = state.with_(problems=(Problem((3, 4), "part"), *state.problems[1:]))
    assert ENGINE.label_value(partly, "problem", 0, NAMES) == "Problem 1: 3"


def test_a_problem_not_yet_rolled_is_named_by_its_number():
    state = ENGINE.initial_state(config(3))
    assert ENGINE.label_value(state, "problem", 3, NAMES) == "Problem 4"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("card", "joker"),
        ("cards", {"card": "merchant"}),
        ("card", None),
        ("card", ["merchant"]),
        ("player", 3),
        ("player", -1),
        ("seat", None),
        ("player", True),
        ("player", "Ann"),
        ("problem", 4),
        ("problem", {}),
        ("set_aside", 3),
        ("dice", 6),
        ("excuse", True),
        ("abdicate", False),
        ("type", "ChooseCard"),
        ("nonsense", "merchant"),
    ],
)
def test_what_has_no_better_words_is_left_as_it_is(field, value):
    assert ENGINE.label_value(table(3), field, value, NAMES[:3]) is None


def test_a_seat_beyond_the_names_given_is_left_as_it_is():
    assert ENGINE.label_value(table(3), "player", 2, NAMES[:2]) is None
