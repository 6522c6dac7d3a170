"""Who may supply each chance a table awaits (``ChanceRequest.dealt_to``):
the seat whose hidden hand a deal fills may enter it itself; a chance everyone
sees, or one no single seat sees alone, is the recorder's alone.

Walked through seeded games of every engine: each chance is dealt, and what
each seat may see of its events decides who could have entered it."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

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


def _dealt_to_one_seat(engine_id: str, games: int = 3, steps: int = 400):
    """Each chance of seeded games that a seat may enter itself, with the
    game's events so far and its config."""
    engine = registry.get(engine_id)
    config = trial_config(registry.game(engine_id), dealer="table")
    for seed in range(games):
        state = engine.initial_state(config)
        events = list(engine.setup(config))
        for event in events:
            state = engine.evolve(state, event)
        rng = random.Random(seed)
        for _ in range(steps):
            if engine.outcome(state).finished:
                break
            request = engine.chance(state)
            if request is None:
                command = rng.choice(
                    [c for s in range(config.seats) for c in engine.legal_commands(state, s)]
                )
            else:
                if request.dealt_to is not None:
                    yield request, state, list(events), config
                command = deal(request, rng)
            for event in engine.decide(state, command):
                state = engine.evolve(state, event)
                events.append(event)


@pytest.mark.parametrize("engine_id", sorted(HANDS))
def test_a_seat_entering_its_own_cards_is_offered_every_card_the_draw_may_bring(engine_id):
    offered = 0
    for request, *_ in _dealt_to_one_seat(engine_id):
        if request.unseen:
            offered += 1
            assert set(request.pool) <= set(request.unseen), request
    assert offered


def _swapped(node, a: str, b: str):
    if node == a:
        return b
    if node == b:
        return a
    if isinstance(node, dict):
        return {k: _swapped(v, a, b) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return type(node)(_swapped(v, a, b) for v in node)
    return node


@pytest.mark.parametrize("engine_id", sorted(HANDS))
def test_what_a_seat_is_offered_for_its_own_cards_tells_it_nothing_of_the_other_hands(engine_id):
    """Swap a card another seat holds unseen with one of the deck, all
    through the game's events: the seat entering its own draw sees the same
    game, and is offered the same cards (what is left of the deck alone
    would differ, and would tell it what the other holds)."""
    engine = registry.get(engine_id)
    compared = 0
    for request, state, events, config in _dealt_to_one_seat(engine_id):
        seat = request.dealt_to
        held = sorted(set(request.unseen) - set(request.pool))
        if not held:
            continue
        other = held[0]
        twin = _twin(engine, config, events, other, [c for c in sorted(set(request.pool)) if c != other])
        if twin is None or engine.view(twin, seat) != engine.view(state, seat):
            continue  # the seat once saw one of the two cards, or they play apart (a special card)
        compared += 1
        again = engine.chance(twin)
        assert Counter(again.pool) != Counter(request.pool)
        assert Counter(again.unseen) == Counter(request.unseen), other
    assert compared, f"{engine_id}: no draw into a hand while another hand held an unseen card"


def _twin(engine, config, events, held: str, in_deck: list[str]):
    """The game whose events name ``held`` and the first card of ``in_deck``
    the other way round (None when no card of it can take the other's place)."""
    for card in in_deck:
        twin = engine.initial_state(config)
        try:
            for event in events:
                twin = engine.evolve(twin, dataclasses.replace(event, data=_swapped(event.data, held, card)))
        except ValueError:  # the deck keeps this card apart (Final Decrees' decline card)
            continue
        return twin
    return None
