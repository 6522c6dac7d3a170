"""A result recorded without its actions is judged by the game's own outcome
rule (engines/<game>/outcome.py): one scenario per rule, and the rules every
engine shares walked over the registry."""

from __future__ import annotations

import pytest

from engines import registry
from engines.base import GameConfig, RuleViolation

ENGINES = [e for e in registry.available() if registry.game(e).outcome is not None]


def judge(engine_id: str, scores=None, places=None, ended_by=None, seats=None, **options):
    engine = registry.get(engine_id)
    n = seats or len(scores or places)
    config = GameConfig(seats=n, options=options, dealer="table")
    return registry.game(engine.id).outcome.judge(engine, config, scores, places, ended_by)


def refused(code: str, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        judge(*args, **kwargs)
    assert caught.value.code == code, caught.value
    return caught.value


def test_every_club_game_declares_its_outcome_rule():
    assert set(ENGINES) >= {
        "pig",
        "chancellors",
        "house-of-cronies",
        "political-divide-and-conquer",
        "final-decrees",
        "maccreedys-mansion",
    } & set(registry.available())


@pytest.mark.parametrize("engine_id", ENGINES)
def test_a_result_ends_in_one_of_the_ways_the_game_ends(engine_id):
    game = registry.game(engine_id)
    assert sorted(e.name for e in game.outcome.endings) == sorted(t.value for t in game.terminations)


@pytest.mark.parametrize("engine_id", ENGINES)
def test_a_result_needs_a_seat_count_the_game_allows(engine_id):
    engine = registry.get(engine_id)
    too_many = engine.max_seats + 1
    refused("result-seat-count", engine_id, places=list(range(1, too_many + 1)))
    if engine.min_seats > 1:
        refused(
            "result-seat-count", engine_id, places=[1] * (engine.min_seats - 1), seats=engine.min_seats - 1
        )


@pytest.mark.parametrize("engine_id", ENGINES)
def test_a_result_gives_scores_or_places(engine_id):
    refused("result-needs-scores-or-places", engine_id, seats=registry.get(engine_id).min_seats)


@pytest.mark.parametrize("engine_id", ENGINES)
def test_places_are_a_ranking_where_tied_players_skip_the_next_places(engine_id):
    n = max(3, registry.get(engine_id).min_seats)
    refused("result-places-not-a-ranking", engine_id, places=[1, 3, 3, *range(4, n + 1)][:n])
    refused("result-places-not-a-ranking", engine_id, places=[0, *range(1, n)])


@pytest.mark.parametrize("engine_id", ENGINES)
def test_a_score_is_a_whole_number(engine_id):
    n = registry.get(engine_id).min_seats
    refused("result-score-impossible", engine_id, scores=[10.5, *[1] * (n - 1)])


@pytest.mark.parametrize("engine_id", ENGINES)
def test_an_ending_the_game_does_not_have_is_refused(engine_id):
    n = registry.get(engine_id).min_seats
    refused("result-unknown-ending", engine_id, places=[1, *[2] * (n - 1)], ended_by="resignation")


# -- Pig ---------------------------------------------------------------------------


def test_pig_has_one_winner_who_reached_the_target_and_everyone_else_comes_second():
    result = judge("pig", scores=[31, 12, 25], target=30)
    assert result.places == (1, 2, 2) and result.ended_by == "target-score"
    refused("pig-one-winner", "pig", places=[1, 1, 3])
    refused("pig-target-not-reached", "pig", scores=[29, 12, 25], target=30)
    refused("pig-target-not-reached", "pig", scores=[31, 30, 5], places=[1, 2, 2], target=30)


# -- Chancellors --------------------------------------------------------------------


def test_chancellors_on_score_the_highest_wins_and_equal_scores_share():
    result = judge("chancellors", scores=[100, 80, 80])
    assert result.places == (1, 2, 2) and result.ended_by == "target-score"


def test_chancellors_catastrophe_the_lowest_score_wins():
    result = judge("chancellors", scores=[40, 12, 25], places=[3, 1, 2])
    assert result.ended_by == "catastrophe"
    assert judge("chancellors", scores=[40, 12, 25], ended_by="catastrophe").places == (3, 1, 2)


def test_chancellors_places_that_follow_neither_ranking_are_refused():
    error = refused("result-places-contradict-scores", "chancellors", scores=[40, 12, 25], places=[2, 1, 3])
    assert "catastrophe" in error.message


def test_chancellors_a_game_won_on_score_reached_the_target():
    refused("chancellors-target-not-reached", "chancellors", scores=[90, 12, 25], target=100)


# -- House of Cronies ---------------------------------------------------------------


def test_house_of_cronies_the_most_votes_win_and_equal_totals_share():
    assert judge("house-of-cronies", scores=[7, 9, 9]).places == (3, 1, 1)
    refused("result-places-contradict-scores", "house-of-cronies", scores=[7, 9, 9], places=[3, 1, 2])


# -- Political Divide & Conquer ------------------------------------------------------


def test_pdc_equal_scores_may_be_split_by_the_cards_in_the_base():
    assert judge("political-divide-and-conquer", scores=[5, 5, 3, 1], places=[2, 1, 3, 4]).places == (
        2,
        1,
        3,
        4,
    )
    assert judge("political-divide-and-conquer", scores=[5, 5, 3, 1]).places == (1, 1, 3, 4)
    refused(
        "result-places-contradict-scores",
        "political-divide-and-conquer",
        scores=[5, 6, 3, 1],
        places=[1, 2, 3, 4],
    )


# -- Final Decrees --------------------------------------------------------------------


def test_final_decrees_the_least_personal_blame_wins():
    result = judge("final-decrees", scores=[3, 0, 7, 3])
    assert result.places == (2, 1, 4, 2)
    refused("result-places-contradict-scores", "final-decrees", scores=[3, 0, 7, 3], places=[2, 4, 1, 2])
    refused("result-score-impossible", "final-decrees", scores=[-1, 0, 7, 3])


# -- MacCreedy's Mansion ------------------------------------------------------------


def test_maccreedys_mansion_a_company_still_in_business_outranks_a_richer_closed_one():
    result = judge("maccreedys-mansion", scores=[-2000, 15000, 9000], places=[2, 3, 1])
    assert result.places == (2, 3, 1)
