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
from engines.base import GameConfig
from schemas.games import for_engine
from service.api.engines import json_schema, view_json_schema
from tests.engine_contract import play_random_game

#: Options per engine: the defaults, and variants that reach other shapes (shorter games where long).
GAMES = {
    "pig": [({"target": 30}, 2), ({"target": 20}, 4)],
    "chancellors": [({"target": 40}, 3), ({"target": 40, "extended_deck": True}, 4)],
    "house-of-cronies": [({}, 3), ({"first_speaker": 2}, 4)],
    "political-divide-and-conquer": [({}, 4), ({}, 6)],
    "final-decrees": [({}, 5), ({}, 4)],
    "maccreedys-mansion": [({"max_rounds": 3}, 3), ({"max_rounds": 2}, 5)],
}


def _config(engine_id: str, options: dict, seats: int, dealer: str) -> GameConfig:
    catalog = None
    if registry.get(engine_id).catalog_kind:
        from service.records.catalogs import default_catalog

        catalog = default_catalog(engine_id)
    return GameConfig(
        seats=seats, options=for_engine(engine_id).OPTIONS().load(options), dealer=dealer, catalog=catalog
    )


def _validator(schema: dict):
    return jsonschema_rs.Draft202012Validator(schema)


def _views(engine_id: str):
    module = for_engine(engine_id)
    shapes = [json_schema(s) for s in module.VIEWS]
    return _validator(shapes[0] if len(shapes) == 1 else {"oneOf": shapes})


def _refused(validator, value) -> list[str]:
    return [f"{e.instance_path}: {e.message}"[:300] for e in validator.iter_errors(value)][:5]


def _why(engine_id: str, view) -> dict[str, list[str]]:
    """Why each of the engine's view shapes refuses ``view``."""
    return {s.__name__: _refused(_validator(json_schema(s)), view) for s in for_engine(engine_id).VIEWS}


def _as_sent(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("dealer", ["server", "table"])
@pytest.mark.parametrize("engine_id", list(GAMES))
def test_every_view_of_a_random_game_fits_the_engines_view_schema(engine_id, dealer):
    engine = registry.get(engine_id)
    views, whole = _views(engine_id), _validator(json_schema(for_engine(engine_id).STATE))
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

    for seed, (options, seats) in enumerate(GAMES[engine_id]):
        config = _config(engine_id, options, seats, dealer)
        game = play_random_game(engine, config, seed, check_every=10**9, observe=observe)
        assert engine.outcome(game.state).finished
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


@pytest.mark.parametrize("engine_id", list(GAMES))
def test_a_view_schema_refuses_members_it_does_not_name(engine_id):
    schema = view_json_schema(engine_id)
    objects = list(_objects(schema))
    assert objects and all("additionalProperties" in o for o in objects)
    engine = registry.get(engine_id)
    options, seats = GAMES[engine_id][0]
    config = _config(engine_id, options, seats, "server")
    state = play_random_game(engine, config, 0, check_every=10**9).state
    view = _as_sent(engine.view(state, 0))
    assert _validator(schema).is_valid(view)
    assert not _validator(schema).is_valid({**view, "unexpected": 1})
