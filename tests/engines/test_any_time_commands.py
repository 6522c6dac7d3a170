"""Whom the game waits for tells nothing of a hidden hand: a command a seat may
send at any time (``Engine.any_time``: an event card played whenever its holder
likes) is never counted as the game waiting for that seat."""

from __future__ import annotations

import random

import pytest

from engines import registry
from engines.chance import deal
from service.records.scorepad.turns import awaited
from tests.engine_contract import trial_config


@pytest.mark.parametrize("engine_id", registry.available())
def test_any_time_commands_are_commands_of_the_game(engine_id):
    game = registry.game(engine_id)
    assert game.engine.any_time <= set(game.commands)


def _states(game, seed: int, steps: int = 400):
    """The states of one random game of ``game``'s first trial: every legal
    command or chance taken at random."""
    engine, seats, rng = game.engine, game.trial.seats, random.Random(seed)
    config = trial_config(game)
    state = engine.initial_state(config)
    for event in engine.setup(config):
        state = engine.evolve(state, event)
    for _ in range(steps):
        yield state
        request = engine.chance(state)
        if request is None:
            options_now = [c for s in range(seats) for c in engine.legal_commands(state, s)]
            if not options_now:
                return
            command = rng.choice(options_now)
        else:
            command = deal(request, rng)
        for event in engine.decide(state, command):
            state = engine.evolve(state, event)
        if engine.outcome(state).finished:
            return


def test_a_seat_holding_an_event_card_is_not_waited_for_out_of_turn():
    """Political Divide & Conquer: a seat that may play an event at any time is
    awaited only for what the game itself waits for (its turn, a window's pass)."""
    game = registry.game("political-divide-and-conquer")
    engine = game.engine
    found = 0
    for seed in range(6):
        for state in _states(game, seed):
            for seat in range(game.trial.seats):
                commands = engine.legal_commands(state, seat)
                if commands and all(c["type"] == "PlayEvent" for c in commands):
                    found += 1
                    assert awaited(engine, state, seat) == []
    assert found > 0, "no state in which a seat could only play an event"
