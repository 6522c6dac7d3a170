"""Marshmallow schemas for each engine's options and commands.

Each module ``schemas.games.<engine_module>`` defines ``OPTIONS`` (a Schema
class for the game options) and ``COMMANDS`` (command type -> Schema class
for that command's fields, ``type`` and ``seat`` excluded).
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
