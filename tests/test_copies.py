"""A draw is entered by what its cards read as: a copy the deck no longer
holds is taken as one it holds that reads alike (a player entering their own
cards cannot know which copies the other hands hold)."""

from __future__ import annotations

import random
from collections import Counter

from engines import registry
from engines.chance import deal
from service.records.recording.copies import from_pool
from tests.engine_contract import trial_config


def _draw_with_a_copy_elsewhere(engine_id: str):
    """A House of Cronies state awaiting a draw, a card of the pool, and an
    alike copy of it the pool does not hold."""
    engine = registry.get(engine_id)
    config = trial_config(registry.game(engine_id), dealer="table")
    state = engine.initial_state(config)
    for event in engine.setup(config):
        state = engine.evolve(state, event)
    rng = random.Random(3)
    for _ in range(300):
        request = engine.chance(state)
        if request is not None and request.unseen:
            words = {c: engine.label_value(state, "cards", c, ()) for c in request.unseen}
            for card in sorted(set(request.pool)):
                elsewhere = [c for c in set(request.unseen) - set(request.pool) if words[c] == words[card]]
                if elsewhere:
                    return engine, state, request, card, min(elsewhere)
        command = (
            deal(request, rng)
            if request is not None
            else rng.choice([c for s in range(config.seats) for c in engine.legal_commands(state, s)])
        )
        for event in engine.decide(state, command):
            state = engine.evolve(state, event)
    raise AssertionError("no draw while an alike copy was held elsewhere")


def test_a_card_entered_by_its_name_is_taken_as_a_copy_the_deck_holds():
    engine, state, request, in_pool, elsewhere = _draw_with_a_copy_elsewhere("house-of-cronies")
    others = [c for c in sorted(request.pool) if c != in_pool][: request.draw - 1]
    command = {"type": request.command, "seat": None, **dict(request.fixed), "cards": [elsewhere, *others]}
    taken = from_pool(engine, state, command)
    assert Counter(taken["cards"]) == Counter([in_pool, *others])
    assert engine.decide(state, taken)


def test_a_draw_the_deck_holds_is_entered_as_it_is():
    engine, state, request, in_pool, _ = _draw_with_a_copy_elsewhere("house-of-cronies")
    cards = sorted(request.pool)[: request.draw]
    command = {"type": request.command, "seat": None, **dict(request.fixed), "cards": cards}
    assert from_pool(engine, state, command) == command


def test_a_card_with_no_copy_in_the_deck_is_left_for_the_rules_to_refuse():
    engine, state, request, _, _ = _draw_with_a_copy_elsewhere("house-of-cronies")
    others = sorted(request.pool)[: request.draw - 1]
    command = {
        "type": request.command,
        "seat": None,
        **dict(request.fixed),
        "cards": ["no-such-card", *others],
    }
    assert from_pool(engine, state, command)["cards"] == ["no-such-card", *others]
