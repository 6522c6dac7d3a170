"""The kit's words for a command's values: a seat or a position (``engines.kit.labels``), a count of a noun (``engines.kit.table.counted``)."""

from __future__ import annotations

import pytest

from engines.kit.labels import is_index, seat_name
from engines.kit.table import counted

NAMES = ["Ann", "Bob", "Cat"]


def test_a_seat_number_names_the_player_at_that_seat():
    assert [seat_name(NAMES, seat) for seat in range(3)] == NAMES


@pytest.mark.parametrize("value", [3, -1, True, False, None, "1", 1.0, [1], {"seat": 1}])
def test_what_is_not_a_seat_of_the_table_has_no_name(value):
    assert seat_name(NAMES, value) is None


def test_a_position_is_an_integer_in_range_and_never_a_boolean():
    assert is_index(0, 1) and is_index(4, 5)
    assert not is_index(5, 5) and not is_index(0, 0) and not is_index(True, 5) and not is_index(2.0, 5)


def test_one_of_a_counted_noun_is_singular_and_a_word_ending_in_ss_stays_whole():
    assert [counted(1, "pipes"), counted(3, "pipes"), counted(1, "glass"), counted(1, "stone")] == [
        "1 pipe",
        "3 pipes",
        "1 glass",
        "1 stone",
    ]
