"""The kit's required step by one seat, possibly during another's turn."""

import pytest

from engines.base import RuleViolation
from engines.kit.awaiting import Awaiting, check, check_answer

STEP = Awaiting(seat=2, command="RemoveBlame", rule="FD-39", amount=10)


def code(fn, *args, **kw):
    with pytest.raises(RuleViolation) as info:
        fn(*args, **kw)
    return info.value.code


def test_only_the_awaited_seats_answer_moves_the_game_on():
    check(STEP, {"type": "RemoveBlame", "seat": 2})
    assert check_answer(STEP, {"type": "RemoveBlame", "seat": 2}) == STEP
    assert code(check, STEP, {"type": "RemoveBlame", "seat": 1}) == "awaiting-seat"
    assert code(check, STEP, {"type": "EndTurn", "seat": 0}) == "awaiting-seat"


def test_the_refusal_names_the_seat_and_the_command_awaited():
    with pytest.raises(RuleViolation) as info:
        check(STEP, {"type": "EndTurn", "seat": 0})
    assert info.value.details == {"seat": 2, "command": "RemoveBlame", "rule": "FD-39", "amount": 10}


def test_free_commands_pass_while_a_step_is_awaited():
    check(STEP, {"type": "OfferTrade", "seat": 4}, free=("OfferTrade",))


def test_nothing_awaited_lets_everything_through_but_refuses_an_answer():
    check(None, {"type": "EndTurn", "seat": 0})
    assert code(check_answer, None, {"type": "RemoveBlame", "seat": 2}) == "nothing-awaited"


def test_the_step_round_trips_as_json():
    assert Awaiting.from_json(STEP.to_json()) == STEP
    assert Awaiting.from_json(None) is None
