import pytest

from engines.base import GameConfig, RuleViolation
from engines.pig import ENGINE as pig
from tests.engine_contract import apply, play_random_game


def new_game(seats=2, target=30):
    config = GameConfig(seats=seats, options={"target": target})
    return config, pig.initial_state(config)


def test_a_one_loses_the_turn_total():
    _, state = new_game()
    state, _ = apply(pig, state, {"type": "Roll", "seat": 0})
    state, _ = apply(pig, state, {"type": "ResolveRoll", "seat": None, "dice": [5]})
    state, _ = apply(pig, state, {"type": "Roll", "seat": 0})
    state, events = apply(pig, state, {"type": "ResolveRoll", "seat": None, "dice": [1]})
    assert [e.type for e in events] == ["DieRolled", "TurnBusted"]
    assert state.turn == 1 and state.scores == (0, 0)


def test_only_the_seat_to_act_may_roll():
    _, state = new_game()
    with pytest.raises(RuleViolation) as err:
        pig.decide(state, {"type": "Roll", "seat": 1})
    assert err.value.code == "not-your-turn"


def test_a_die_of_seven_is_impossible():
    _, state = new_game()
    state, _ = apply(pig, state, {"type": "Roll", "seat": 0})
    with pytest.raises(RuleViolation) as err:
        pig.decide(state, {"type": "ResolveRoll", "seat": None, "dice": [7]})
    assert err.value.code == "impossible-die"


@pytest.mark.parametrize("seed", range(20))
def test_random_games_end_and_replay_equals_live_state(seed):
    game = play_random_game(pig, GameConfig(seats=3, options={"target": 20}), seed)
    assert pig.outcome(game.state).finished
