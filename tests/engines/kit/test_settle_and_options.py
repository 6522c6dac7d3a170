"""The settle loop and options read through a game's schema."""

import pytest
from marshmallow import Schema, fields

from engines.base import Event, RuleViolation
from engines.kit import read_options, settle
from engines.kit.settle import MAX_AUTOMATIC_STEPS


def count_up(state, event):
    return state + event.data["by"]


def up_to_ten(state):
    return [Event("CountedUp", {"by": 1})] if state < 10 else []


def test_settle_adds_the_automatic_events_until_the_game_waits():
    events = settle(7, [Event("CountedUp", {"by": 1})], count_up, up_to_ten)
    assert [e.data["by"] for e in events] == [1, 1, 1]


def test_settle_adds_nothing_when_the_game_already_waits():
    assert settle(10, [], count_up, up_to_ten) == []


def test_automatic_steps_that_never_settle_are_an_error():
    with pytest.raises(RuntimeError):
        settle(0, [], count_up, lambda state: [Event("CountedUp", {"by": 1})])
    assert MAX_AUTOMATIC_STEPS >= 1000


class Options(Schema):
    target = fields.Integer(load_default=30)


def test_options_take_their_defaults_from_the_schema():
    assert read_options(Options, {}) == {"target": 30}
    assert read_options(Options, {"target": 50}) == {"target": 50}


def test_options_the_schema_refuses_are_a_rule_violation():
    with pytest.raises(RuleViolation) as refusal:
        read_options(Options, {"target": "many"})
    assert refusal.value.code == "invalid-options"
