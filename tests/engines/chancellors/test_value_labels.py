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
from tests.engine_contract import play_random_game

from .builders import config, table

NAMES = ["Ann", "Bob", "Cy", "Di"]
CARD_FIELDS = ("card", "cards")
SEAT_FIELDS = ("seat", "player")


def _values(command: dict[str, Any]) -> list[tuple[str, Any]]:
    """Each (field, value) the pad may offer: one item at a time for a list field."""
    pairs = []
    for field, value in command.items():
        if field != "type":
            pairs += [(field, item) for item in value] if isinstance(value, list) else [(field, value)]
    return pairs


def _offered(state: ChancellorsState) -> list[tuple[str, Any]]:
    """Every value of every legal command of every seat (and the table), and the awaited draw's pool."""
    commands = [c for seat in [None, *range(state.seats)] for c in ENGINE.legal_commands(state, seat)]
    pairs = [pair for command in commands for pair in _values(command)]
    request = ENGINE.chance(state)
    if request is not None:
        pairs += [("cards", card) for card in request.pool]
    return pairs


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_every_card_and_seat_a_seeded_game_offers_has_words_and_nothing_raises(seats, seed):
    named: Counter[str] = Counter()

    def check(state: ChancellorsState) -> None:
        names = NAMES[:seats]
        for field, value in _offered(state):
            words = ENGINE.label_value(state, field, value, names)
            if field in CARD_FIELDS or (field in SEAT_FIELDS and isinstance(value, int)):
                assert isinstance(words, str) and words and words != str(value), (field, value, words)
                named[field] += 1
            else:
                assert words is None or isinstance(words, str), (field, value, words)

    play_random_game(ENGINE, config(seats, target=40, extended_deck=True), seed, observe=check)
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
