"""Seats that close, re-open and go out for good (engines/kit/seats.py)."""

import pytest

from engines.base import RuleViolation
from engines.kit.seats import CLOSED, OPEN, OUT, SeatStatus, clockwise, last_standing, places, rank


def test_a_seat_closes_reopens_and_goes_out_for_good():
    seat = SeatStatus()
    assert seat.is_open and seat.in_game
    closed = seat.close(3)
    assert (closed.status, closed.since) == (CLOSED, 3) and closed.in_game and closed.is_closed
    reopened = closed.reopen(4)
    assert (reopened.status, reopened.since) == (OPEN, 4)
    out = closed.close_for_good(5)
    assert (out.status, out.since) == (OUT, 5) and not out.in_game and out.is_closed


@pytest.mark.parametrize(
    "status, move",
    [
        (SeatStatus(CLOSED, 1), "close"),
        (SeatStatus(), "reopen"),
        (SeatStatus(OUT, 2), "reopen"),
        (SeatStatus(OUT, 2), "close_for_good"),
    ],
)
def test_an_impossible_change_of_status_is_a_rule_violation(status, move):
    with pytest.raises(RuleViolation):
        getattr(status, move)(6)


def test_a_status_survives_json():
    status = SeatStatus(CLOSED, 7)
    assert SeatStatus.from_json(status.to_json()) == status


def test_clockwise_starts_at_the_given_seat_and_skips_excluded_seats():
    assert clockwise(2, 4) == [2, 3, 0, 1]
    assert clockwise(2, 4, lambda s: s != 3) == [2, 0, 1]


def test_the_last_standing_seat_is_the_only_one_not_out():
    statuses = [SeatStatus(OUT, 2), SeatStatus(CLOSED, 3), SeatStatus(OUT, 1)]
    assert last_standing(statuses) == 1
    assert last_standing([SeatStatus(), SeatStatus(CLOSED, 1)]) is None


def test_ranking_shares_tied_places_and_skips_the_next():
    assert rank([(5,), (9,), (5,), (1,)]) == (2, 1, 2, 4)


def test_seats_still_in_the_game_rank_above_seats_out_for_good_whatever_their_score():
    statuses = [SeatStatus(OUT, 4), SeatStatus(CLOSED, 2), SeatStatus()]
    assert places([(100,), (5,), (10,)], statuses) == (3, 2, 1)


def test_among_seats_out_for_good_the_later_one_ranks_higher_on_a_tied_score():
    statuses = [SeatStatus(OUT, 2), SeatStatus(OUT, 5), SeatStatus(), SeatStatus(OUT, 5)]
    assert places([(0, 1), (0, 1), (3, 0), (0, 1)], statuses) == (4, 2, 1, 2)
