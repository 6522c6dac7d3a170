"""The rating members read: the model's handling of shared places, the
1500-based scale, its uncertainty and the change in a game."""

from __future__ import annotations

import itertools

import pytest
from openskill.models import PlackettLuce

from service.records.reading import ratings
from service.records.reading.ratings import Rating, rate, shown, signed, uncertainty

NEW = ratings.initial()


def _shown_after(places, before=None):
    before = before or [NEW] * len(places)
    return [shown(mu, sigma) for mu, sigma in rate(before, places)]


def test_everyone_starts_at_1500_with_a_glicko_like_350_uncertainty():
    assert shown(*NEW) == 1500
    assert uncertainty(NEW[1]) == 350


def test_the_shown_rating_is_1500_plus_42_times_the_ordinal():
    assert shown(30.0, 5.0) == 1500 + 42 * 15
    assert shown(20.0, 8.0) == 1500 - 42 * 4


def test_plackett_luce_rates_a_third_place_above_two_tied_winners():
    """Why the league does not use openskill's default model."""
    model = PlackettLuce()
    after = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 1, 3, 4])
    ordinals = [t[0].mu - 3 * t[0].sigma for t in after]
    assert ordinals[2] > ordinals[0]


def test_two_tied_winners_stay_above_the_third_place():
    after = _shown_after([1, 1, 3, 4])
    assert after[0] == after[1] > after[2] > after[3]


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_from_level_ratings_a_better_place_never_gains_less_and_a_shared_place_gains_the_same(seats):
    for places in itertools.product(range(1, seats + 1), repeat=seats):
        if 1 not in places:
            continue
        after = _shown_after(list(places))
        for i, j in itertools.permutations(range(seats), 2):
            if places[i] < places[j]:
                assert after[i] > after[j], (places, after)
            elif places[i] == places[j]:
                assert after[i] == after[j], (places, after)


def test_the_change_is_the_shown_rating_after_minus_before():
    before = (27.0, 6.0)
    mu, sigma = rate([before, NEW, NEW], [1, 2, 3])[0]
    rating = Rating.of(mu, sigma, before)
    assert rating.change == shown(mu, sigma) - shown(*before) > 0
    assert rating.value == shown(mu, sigma) and rating.uncertainty == uncertainty(sigma)
    assert Rating.of(mu, sigma).change is None


def test_a_change_is_written_as_members_write_it():
    assert [signed(c) for c in (12, -8, 0, None)] == ["+12", "\u22128", "±0", ""]
