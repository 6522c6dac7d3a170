"""The kit's reading of a command's value as a seat or a position (``engines.kit.labels``)."""

from __future__ import annotations

import pytest

from engines.kit.labels import is_index, seat_name

NAMES = ["Ann", "Bob", "Cat"]


def test_a_seat_number_names_the_player_at_that_seat():
    assert [seat_name(NAMES, seat) for seat in range(3)] == NAMES


@pytest.mark.parametrize("value", [3, -1, True, False, None, "1", 1.0, [1], {"seat": 1}])
def test_what_is_not_a_seat_of_the_table_has_no_name(value):
    assert seat_name(NAMES, value) is None


def test_a_position_is_an_integer_in_range_and_never_a_boolean():
    assert is_index(0, 1) and is_index(4, 5)
    assert not is_index(5, 5) and not is_index(0, 0) and not is_index(True, 5) and not is_index(2.0, 5)
