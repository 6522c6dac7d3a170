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
from typing import Any

from engines.base import Engine, Event, GameConfig, fold
from engines.chance import deal
from engines.kit.game import Game, Trial


def trial_config(game: Game, trial: Trial | None = None, dealer: str = "server") -> GameConfig:
    """The config of one of the game's trial setups (default: its first), with its shipped catalog."""
    trial = trial or game.trial
    catalog = json.loads(game.default_catalog.read_text()) if game.default_catalog else None
    return GameConfig(trial.seats, game.options().load(dict(trial.options)), dealer, catalog)


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


def offered_values(engine: Engine, state: Any) -> list[tuple[str, Any]]:
    """Every (field, value) the scorepad may ask about in ``state``: each field
    of every seat's and the table's legal commands (a list field item by item),
    and each card of the awaited draw's pool; for the engine's ``label_value``."""
    commands = [c for seat in [None, *range(state.seats)] for c in engine.legal_commands(state, seat)]
    pairs = [
        (name, item)
        for command in commands
        for name, value in command.items()
        if name != "type"
        for item in (value if isinstance(value, list) else [value])
    ]
    request = engine.chance(state)
    if request is not None:
        pairs += [("cards", card) for card in request.pool]
    return pairs


def worded_values(
    engine: Engine, state: Any, names: list[str], kind: Callable[[str, Any], str | None]
) -> list[tuple[str, str]]:
    """Checks ``label_value`` on every value ``offered_values`` lists: one of a
    kind the engine names (``kind(field, value)``: a card, a seat...) has
    words, never the value as it is; any other has words or None. Returns the
    (kind, field) of each value worded."""
    worded = []
    for name, value in offered_values(engine, state):
        words = engine.label_value(state, name, value, names)
        what = kind(name, value)
        if what is None:
            assert words is None or isinstance(words, str), (name, value, words)
        else:
            assert isinstance(words, str) and words and words != str(value), (name, value, words)
            worded.append((what, name))
    return worded
