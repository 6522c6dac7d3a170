"""Changing one seat's record in a tuple of frozen records."""

from dataclasses import dataclass

from engines.kit.items import add_at, replace_at


@dataclass(frozen=True)
class Seat:
    name: str = ""
    wins: int = 0


def test_one_record_changes_and_the_others_stay_the_same_objects():
    seats = (Seat("a"), Seat("b"), Seat("c"))
    changed = replace_at(seats, 1, name="B")
    assert changed == (Seat("a"), Seat("B"), Seat("c"))
    assert changed[0] is seats[0] and changed[2] is seats[2]
    assert seats[1] == Seat("b")


def test_a_counter_is_raised_by_the_amount():
    assert add_at((Seat(wins=1), Seat(wins=2)), 1, "wins", 3) == (Seat(wins=1), Seat(wins=5))
