"""Property: whatever well-formed command arrives, an engine either accepts it
or refuses it with a RuleViolation; it never fails otherwise (which the API
would turn into a 500) and a refusal leaves the state as it was.

Commands are legal ones with their fields mutated (other cards, numbers out
of range, repeated list items), kept only when the game's marshmallow schema
accepts them, exactly as the API would pass them on."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from engines import registry
from engines.base import RuleViolation
from engines.chance import deal
from tests.engine_contract import trial_config


def _strings(state_json) -> list[str]:
    found: set[str] = set()

    def walk(value):
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(state_json)
    return sorted(s for s in found if len(s) < 40)[:300] + ["bogus"]


def _mutate(command: dict, rng: random.Random, strings: list[str]) -> dict:
    mutated = copy.deepcopy(command)
    keys = [k for k in mutated if k not in ("type",)]
    if not keys:
        return mutated
    key = rng.choice(keys)
    value = mutated[key]
    if key == "seat":
        mutated[key] = rng.choice([None, -1, 0, 1, 2, 3, 7])
    elif isinstance(value, bool):
        mutated[key] = not value
    elif isinstance(value, int):
        mutated[key] = rng.choice([-1, 0, 1, 2, 3, 5, 6, 7, 12, 99])
    elif isinstance(value, str):
        mutated[key] = rng.choice(strings)
    elif isinstance(value, list):
        if value and rng.random() < 0.5:
            mutated[key] = value + [rng.choice(value)]
        elif value and isinstance(value[0], int):
            mutated[key] = [rng.choice([0, 1, 6, 7, -1]) for _ in range(rng.randint(0, 4))]
        else:
            mutated[key] = [rng.choice(strings) for _ in range(rng.randint(0, 4))]
    return mutated


def _well_formed(engine_id: str, command: dict) -> bool:
    schema = registry.game(engine_id).commands.get(command["type"])
    if schema is None:
        return False
    try:
        schema().load({k: v for k, v in command.items() if k not in ("type", "seat")})
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("engine_id", registry.available())
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from(["server", "table"]))
def test_no_well_formed_command_corrupts_state(engine_id, seed, dealer):
    engine = registry.get(engine_id)
    config = trial_config(registry.game(engine_id), dealer=dealer)
    rng = random.Random(seed)
    state = engine.initial_state(config)
    for event in engine.setup(config):
        state = engine.evolve(state, event)
    for _ in range(250):
        if engine.outcome(state).finished:
            break
        request = engine.chance(state)
        seats = [None] if request is not None else list(range(config.seats))
        legal = [c for s in seats for c in engine.legal_commands(state, s)]
        if request is not None and (dealer == "server" or not legal):
            legal = [deal(request, rng)]
        before = engine.dump_state(state)
        strings = _strings(before)
        for _ in range(3):
            attempt = _mutate(rng.choice(legal), rng, strings)
            if not _well_formed(engine_id, attempt):
                continue
            try:
                events = engine.decide(state, attempt)
            except RuleViolation as violation:
                assert violation.code and violation.message
                assert engine.dump_state(state) == before
                continue
            after = state
            for event in events:
                json.dumps(event.data)
                after = engine.evolve(after, event)  # in order: each event follows the one before
        command = rng.choice(legal)
        for event in engine.decide(state, command):
            state = engine.evolve(state, event)
