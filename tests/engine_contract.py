"""Checks every engine must pass, reused by each engine's test module.

``play_random_game`` drives an engine with random legal commands and dealt
chance, checking after every step that replaying the log gives the live state
and that the state survives ``dump_state``/``load_state``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engines.base import Engine, Event, GameConfig, fold
from engines.chance import deal


@dataclass
class PlayedGame:
    config: GameConfig
    events: list[Event] = field(default_factory=list)
    state: object = None
    steps: int = 0


def as_stored(event: Event) -> Event:
    """The event as it comes back from the database: its data through JSON."""
    return Event(event.type, json.loads(json.dumps(event.data)))


def apply(engine: Engine, state, command) -> tuple[object, list[Event]]:
    """Decide and evolve, checking that evolving never alters an event's data
    (the service stores the data after evolving)."""
    events = engine.decide(state, command)
    for event in events:
        before = json.dumps(event.data, sort_keys=True)
        state = engine.evolve(state, event)
        assert json.dumps(event.data, sort_keys=True) == before, f"evolve altered {event.type}"
    return state, events


def play_random_game(
    engine: Engine,
    config: GameConfig,
    seed: int,
    max_steps: int = 5000,
    check_every: int = 1,
    observe: Callable[[object], None] | None = None,
) -> PlayedGame:
    """``observe``, when given, sees the state after setup and after every command."""
    rng = random.Random(seed)
    game = PlayedGame(config)
    state = engine.initial_state(config)
    for event in engine.setup(config):
        state = engine.evolve(state, event)
        game.events.append(event)
    if observe:
        observe(state)
    while not engine.outcome(state).finished:
        assert game.steps < max_steps, "game did not end"
        request = engine.chance(state)
        if request is not None:
            command = deal(request, rng)
        else:
            options = [c for seat in range(config.seats) for c in engine.legal_commands(state, seat)]
            assert options, "no seat has a legal command in an unfinished game"
            command = rng.choice(options)
        state, events = apply(engine, state, command)
        assert events, f"{command} produced no event"
        game.events.extend(events)
        game.steps += 1
        if observe:
            observe(state)
        if game.steps % check_every == 0:
            assert fold(engine, config, [as_stored(e) for e in game.events]) == state, (
                "replay of stored events differs"
            )
            assert engine.load_state(json.loads(json.dumps(engine.dump_state(state))), config) == state
    game.state = state
    assert fold(engine, config, [as_stored(e) for e in game.events]) == state, (
        "replay of stored events differs"
    )
    return game
