"""The engine kit's guards: one code per kind of refusal, in one order."""

import pytest

from engines.base import ChanceRequest, RuleViolation
from engines.kit import check_chance, check_seat_command, expect_turn

ROLL = ChanceRequest("RollDice", dice=2, fixed={"problem": 1})
DRAW = ChanceRequest("DrawCards", draw=2, pool=("a", "b", "b"), fixed={"player": 0})


def refusal(call, *args, **kwargs) -> str:
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.code


def guard(command, *, over=False, chance=None):
    return check_seat_command(
        "Test", command, seats=3, over=over, commands={"Play"}, chance_commands={"RollDice"}, chance=chance
    )


def test_nothing_is_accepted_after_the_game_ended():
    assert refusal(guard, {"type": "Play", "seat": 0}, over=True) == "game-over"


def test_a_command_the_game_does_not_have_is_unknown():
    assert refusal(guard, {"type": "Fly", "seat": 0}) == "unknown-command"


def test_only_the_dealer_sends_chance():
    assert refusal(guard, {"type": "RollDice", "seat": 1}, chance=ROLL) == "dealer-only"


def test_chance_that_is_not_awaited_is_refused():
    assert refusal(guard, {"type": "RollDice", "seat": None}) == "no-chance-pending"
    assert refusal(guard, {"type": "RollDice", "seat": None}, chance=DRAW) == "no-chance-pending"


@pytest.mark.parametrize("seat", [None, -1, 3, True, 0.5, "0"])
def test_a_player_command_names_a_seat_of_the_game(seat):
    assert refusal(guard, {"type": "Play", "seat": seat}) == "no-such-seat"


def test_no_player_acts_while_chance_is_awaited():
    assert refusal(guard, {"type": "Play", "seat": 0}, chance=ROLL) == "chance-pending"


def test_commands_that_pass_every_guard_reach_the_game():
    guard({"type": "Play", "seat": 2})
    guard({"type": "RollDice", "seat": None}, chance=ROLL)


def test_a_seat_acts_on_its_own_turn():
    expect_turn(1, 1)
    assert refusal(expect_turn, 0, 1) == "not-your-turn"


def test_chance_repeats_the_fixed_fields_of_its_request():
    assert refusal(check_chance, ROLL, {"problem": 0, "dice": [1, 2]}) == "wrong-chance"
    assert refusal(check_chance, ROLL, {"problem": True, "dice": [1, 2]}) == "wrong-chance"
    assert check_chance(ROLL, {"problem": 1, "dice": [1, 6]}) == ([1, 6], [])


@pytest.mark.parametrize("dice", [[1], [1, 2, 3], "12", None])
def test_exactly_the_dice_asked_for(dice):
    assert refusal(check_chance, ROLL, {"problem": 1, "dice": dice}) == "wrong-dice-count"


@pytest.mark.parametrize("dice", [[0, 1], [1, 7], [1, "2"], [1, True]])
def test_a_die_shows_one_to_six(dice):
    assert refusal(check_chance, ROLL, {"problem": 1, "dice": dice}) == "impossible-die"


def test_exactly_the_cards_asked_for():
    assert refusal(check_chance, DRAW, {"player": 0, "cards": ["a"]}) == "wrong-card-count"
    assert refusal(check_chance, DRAW, {"player": 0, "cards": ["a", 1]}) == "wrong-card-count"


def test_drawn_cards_come_from_the_pool_as_a_multiset():
    assert check_chance(DRAW, {"player": 0, "cards": ["b", "b"]}) == ([], ["b", "b"])
    assert refusal(check_chance, DRAW, {"player": 0, "cards": ["a", "a"]}) == "card-not-in-pool"
    assert refusal(check_chance, DRAW, {"player": 0, "cards": ["a", "z"]}) == "card-not-in-pool"
