"""Property: every view an engine shows is one its published schema describes.

In random games of every engine, in both dealer modes, each seat's view, a
spectator's view and the whole state (the recorder's) are checked after
every command against the JSON Schema ``GET /engines/{id}`` serves, which is
generated from the marshmallow schemas in ``schemas/games/<game>.py``. The
schemas refuse unknown members, so a view that gains a member its schema
lacks fails here."""

from __future__ import annotations

import json

import jsonschema_rs
import pytest

from engines import registry
from service.api.routes.engines import json_schema, view_json_schema
from tests.engine_contract import play_random_game, trial_config


def _validator(schema: dict):
    return jsonschema_rs.Draft202012Validator(schema)


def _views(engine_id: str):
    shapes = [json_schema(s) for s in registry.game(engine_id).views]
    return _validator(shapes[0] if len(shapes) == 1 else {"oneOf": shapes})


def _refused(validator, value) -> list[str]:
    return [f"{e.instance_path}: {e.message}"[:300] for e in validator.iter_errors(value)][:5]


def _why(engine_id: str, view) -> dict[str, list[str]]:
    """Why each of the engine's view shapes refuses ``view``."""
    return {s.__name__: _refused(_validator(json_schema(s)), view) for s in registry.game(engine_id).views}


def _as_sent(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("dealer", ["server", "table"])
@pytest.mark.parametrize("engine_id", registry.available())
def test_every_view_of_a_random_game_fits_the_engines_view_schema(engine_id, dealer):
    engine = registry.get(engine_id)
    views, whole = _views(engine_id), _validator(json_schema(registry.game(engine_id).state))
    served = _validator(view_json_schema(engine_id))
    checked = 0

    def observe(state):
        nonlocal checked
        for viewer in [*range(config.seats), None]:
            view = _as_sent(engine.view(state, viewer))
            assert views.is_valid(view), (viewer, _why(engine_id, view))
            assert served.is_valid(view)
        dumped = _as_sent(engine.dump_state(state))
        assert not _refused(whole, dumped), _refused(whole, dumped)
        assert served.is_valid(dumped)
        checked += 1

    game = registry.game(engine_id)
    for seed, trial in enumerate(game.trials):
        config = trial_config(game, trial, dealer)
        played = play_random_game(engine, config, seed, check_every=10**9, observe=observe)
        assert engine.outcome(played.state).finished
    assert checked > 20


def _objects(schema: dict):
    """Every object shape in a JSON Schema."""
    if isinstance(schema, dict):
        if schema.get("type") == "object" or "properties" in schema:
            yield schema
        for value in schema.values():
            yield from _objects(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _objects(value)


@pytest.mark.parametrize("engine_id", registry.available())
def test_a_view_schema_refuses_members_it_does_not_name(engine_id):
    schema = view_json_schema(engine_id)
    objects = list(_objects(schema))
    assert objects and all("additionalProperties" in o for o in objects)
    engine = registry.get(engine_id)
    config = trial_config(registry.game(engine_id))
    state = play_random_game(engine, config, 0, check_every=10**9).state
    view = _as_sent(engine.view(state, 0))
    assert _validator(schema).is_valid(view)
    assert not _validator(schema).is_valid({**view, "unexpected": 1})
