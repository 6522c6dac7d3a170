"""Who may supply each chance a table awaits (``ChanceRequest.dealt_to``):
the seat whose hidden hand a deal fills may enter it itself; a chance everyone
sees, or one no single seat sees alone, is the recorder's alone.

Walked through seeded games of every engine: each chance is dealt, and what
each seat may see of its events decides who could have entered it."""

from __future__ import annotations

import random

import pytest

from engines import registry
from engines.chance import deal
from tests.engine_contract import trial_config

#: The engines that deal cards into a hidden hand.
HANDS = {"chancellors", "house-of-cronies", "political-divide-and-conquer", "final-decrees"}


def _chances(engine_id: str, steps: int = 400):
    """Each chance of a seeded game, with the events recording a few of its
    possible answers (each answer's own fact, not what the game then does by itself)."""
    engine = registry.get(engine_id)
    config = trial_config(registry.game(engine_id), dealer="table")
    seats = config.seats
    state = engine.initial_state(config)
    for event in engine.setup(config):
        state = engine.evolve(state, event)
    rng = random.Random(5)
    for _ in range(steps):
        if engine.outcome(state).finished:
            return
        request = engine.chance(state)
        if request is None:
            command = rng.choice([c for s in range(seats) for c in engine.legal_commands(state, s)])
        else:
            answers = [engine.decide(state, deal(request, random.Random(k)))[:1] for k in range(ANSWERS)]
            yield request, answers, seats
            command = deal(request, rng)
        for event in engine.decide(state, command):
            state = engine.evolve(state, event)


#: The answers tried of each chance.
ANSWERS = 4


def _seeing(engine, events, seats) -> set:
    """The seats (None: a spectator) who see every event as it is."""
    return {s for s in [*range(seats), None] if all(engine.redact(e, s) == e for e in events)}


@pytest.mark.parametrize("engine_id", registry.available())
def test_a_seat_may_supply_only_the_cards_dealt_into_its_own_hidden_hand(engine_id):
    """Some answer is seen by that seat alone (a card may be public once
    drawn, as Final Decrees' decline card: the player still draws it first)."""
    engine = registry.get(engine_id)
    dealt = 0
    for request, answers, seats in _chances(engine_id):
        seeing = [_seeing(engine, events, seats) for events in answers]
        everyone = {*range(seats), None}
        if request.dealt_to is not None:
            dealt += 1
            assert all(seen in ({request.dealt_to}, everyone) for seen in seeing), (request, seeing)
            assert {request.dealt_to} in seeing, (request, seeing)
        else:
            assert not any(len(seen) == 1 and None not in seen for seen in seeing), (
                f"{request} fills one seat's hidden hand: it must name that seat"
            )
    assert (dealt > 0) == (engine_id in HANDS), f"{engine_id}: {dealt} deals into one hidden hand"


@pytest.mark.parametrize("engine_id", registry.available())
def test_a_public_chance_is_never_a_seat_s_to_supply(engine_id):
    engine = registry.get(engine_id)
    public = 0
    for request, answers, seats in _chances(engine_id):
        if all(_seeing(engine, events, seats) == {*range(seats), None} for events in answers):
            public += 1
            assert request.dealt_to is None, request
    assert public > 0
