"""Marshmallow schemas for each engine's options, commands and views.

Each module ``schemas.games.<engine_module>`` defines ``OPTIONS`` (a Schema
class for the game options), ``COMMANDS`` (command type -> Schema class
for that command's fields, ``type`` and ``seat`` excluded), ``VIEWS`` (the
shapes ``view`` returns: during play and, when it differs, once the game is
finished) and ``STATE`` (the shape of ``dump_state``: the whole state, which
the recorder sees).
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType

from marshmallow import Schema, fields, validate

from engines.registry import ENGINE_MODULES


def for_engine(engine_id: str) -> ModuleType:
    module = ENGINE_MODULES[engine_id].split(".")[-1]
    return importlib.import_module(f"schemas.games.{module}")


def schema_prefix(engine_id: str) -> str:
    """The engine's prefix for its schema names: ``house-of-cronies`` -> ``HouseOfCronies``."""
    return "".join(part.capitalize() for part in engine_id.split("-"))


@functools.cache
def typed_commands(engine_id: str) -> dict[str, type[Schema]]:
    """Each command of the engine as one whole schema, ``type`` included.

    The service loads an action's command with it and the OpenAPI document
    publishes it, so the contract and the check are the same schema."""
    prefix = schema_prefix(engine_id)
    return {
        name: type(
            f"{prefix}{name}",
            (shape,),
            {"type": fields.String(required=True, validate=validate.OneOf([name]))},
        )
        for name, shape in for_engine(engine_id).COMMANDS.items()
    }


def view_schemas(engine_id: str) -> tuple[type[Schema], ...]:
    """Every shape a game view's ``state`` takes for this engine: each view,
    then the whole state (without repeats, for an engine whose view is its
    whole state)."""
    module = for_engine(engine_id)
    return tuple(dict.fromkeys((*module.VIEWS, module.STATE)))
