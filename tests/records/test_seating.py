"""Seating a tournament round at tables of the game's own sizes."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import registry
from service.records.competitions.seating import Field, cost, seat, table_sizes

SEAT_RANGES = sorted({(g.min_seats, g.max_seats) for g in registry.games()})


def names(n: int) -> tuple[str, ...]:
    return tuple(f"P{i:02}" for i in range(n))


def play_round(field: Field, tables) -> Field:
    """The field of the next round: meetings counted, short tables remembered."""
    met = Counter(field.met)
    for table in tables:
        met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    largest = max(len(t) for t in tables)
    short = frozenset(p for t in tables if len(t) < largest for p in t)
    return Field(field.players, field.min_seats, field.max_seats, dict(met), short, field.sat_out)


def fewest_repeats(players: list[str], sizes: tuple[int, ...], met) -> int:
    """By brute force: the fewest repeat meetings any seating of these tables has."""
    best = [sum(met.values()) * 2 + 1]

    def place(rest: list[str], sizes_left: tuple[int, ...], so_far: int) -> None:
        if so_far >= best[0]:
            return
        if not rest:
            best[0] = so_far
            return
        first, others = rest[0], rest[1:]
        for size in set(sizes_left):
            left = list(sizes_left)
            left.remove(size)
            for mates in itertools.combinations(others, size - 1):
                table = (first, *mates)
                repeats = sum(met.get(frozenset(p), 0) for p in itertools.combinations(table, 2))
                place([p for p in others if p not in mates], tuple(left), so_far + repeats)

    place(players, sizes, 0)
    return best[0]


def test_nine_players_of_chancellors_sit_at_three_tables_of_three():
    assert table_sizes(9, 2, 4) == (3, 3, 3)


def test_ten_players_of_house_of_cronies_sit_at_a_table_of_four_and_two_of_three():
    assert table_sizes(10, 3, 4) == (4, 3, 3)


def test_a_field_no_tables_seat_whole_leaves_the_fewest_out_lowest_seeds_first():
    # House of Cronies seats 3 or 4: five players fill one table of four.
    round_ = seat(Field(names(5), 3, 4))
    assert round_.tables == (names(4),)
    assert round_.sitting_out == ("P04",)


def test_who_sat_out_before_plays_before_sitting_out_again():
    round_ = seat(Field(names(5), 3, 4, sat_out={"P04": 1}))
    assert "P04" not in round_.sitting_out
    assert round_.sitting_out == ("P03",)


def test_round_one_seats_by_seed_largest_tables_first():
    assert seat(Field(names(10), 3, 4)).tables == (names(10)[:4], names(10)[4:7], names(10)[7:])


def test_round_two_avoids_every_meeting_of_round_one_where_it_can():
    field = Field(names(9), 2, 4)
    first = seat(field)
    second = seat(play_round(field, first.tables))
    assert cost(second.tables, play_round(field, first.tables)).repeats == 0
    assert all(len(set(a) & set(b)) <= 1 for a in first.tables for b in second.tables)


def test_no_one_sits_at_a_short_table_twice_running_where_it_can_be_helped():
    # Ten of House of Cronies: 4 + 3 + 3; the three lowest seeds sat short last round.
    short = frozenset({"P07", "P08", "P09"})
    round_ = seat(Field(names(10), 3, 4, short_last_round=short))
    assert set(round_.tables[0]) >= short


def test_meeting_new_opponents_comes_before_a_table_of_full_size():
    # Eleven of House of Cronies, 4 + 4 + 3 twice. From round one's three tables, each
    # table of four must seat two who met (2 repeats at least); a table of three with no
    # repeat takes one player from each of round one's tables, the short one's too: one
    # player sits short twice rather than a third meeting repeated.
    field = Field(names(11), 3, 4)
    second = play_round(field, seat(field).tables)
    round_cost = cost(seat(second).tables, second)
    assert (round_cost.repeats, round_cost.short_twice) == (2, 1)


def test_a_round_seats_a_bounded_field():
    with pytest.raises(ValueError):
        seat(Field(names(121), 4, 8))


@settings(max_examples=60, deadline=None)
@given(
    ranges=st.sampled_from(SEAT_RANGES),
    n=st.integers(2, 12),
    sat_out=st.dictionaries(st.sampled_from(names(12)), st.integers(0, 2), max_size=3),
)
def test_every_player_present_is_seated_once_a_round_at_a_table_of_legal_size(ranges, n, sat_out):
    field = Field(names(n), *ranges, sat_out=sat_out)
    for _ in range(3):
        round_ = seat(field)
        seated = [p for t in round_.tables for p in t]
        assert sorted(seated + list(round_.sitting_out)) == sorted(field.players)
        assert len(seated) == len(set(seated))
        assert all(ranges[0] <= len(t) <= ranges[1] for t in round_.tables)
        assert seat(field) == round_  # the same field always gets the same tables
        if not round_.tables:
            break
        field = play_round(field, round_.tables)


@settings(max_examples=40, deadline=None)
@given(ranges=st.sampled_from(SEAT_RANGES), n=st.integers(2, 12))
def test_on_a_small_field_repeat_meetings_are_within_one_of_the_fewest_possible(ranges, n):
    field = Field(names(n), *ranges)
    for _ in range(3):
        round_ = seat(field)
        if not round_.tables:
            break
        seated = [p for t in round_.tables for p in t]
        fewest = fewest_repeats(seated, tuple(len(t) for t in round_.tables), field.met)
        assert cost(round_.tables, field).repeats <= fewest + 1
        field = play_round(field, round_.tables)
