"""Marshmallow schemas for each engine's options and commands.

Each module ``schemas.games.<engine_module>`` defines ``OPTIONS`` (a Schema
class for the game options) and ``COMMANDS`` (command type -> Schema class
for that command's fields, ``type`` and ``seat`` excluded).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engines.registry import ENGINE_MODULES


def for_engine(engine_id: str) -> ModuleType:
    module = ENGINE_MODULES[engine_id].split(".")[-1]
    return importlib.import_module(f"schemas.games.{module}")
