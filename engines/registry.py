"""The game engines the service knows, by id.

Engines register lazily by module path so that importing the registry never
imports every game.
"""

from __future__ import annotations

import importlib
import importlib.util

from engines.base import Engine

ENGINE_MODULES: dict[str, str] = {
    "pig": "engines.pig",
    "chancellors": "engines.chancellors",
    "house-of-cronies": "engines.house_of_cronies",
    "political-divide-and-conquer": "engines.political_divide_and_conquer",
    "maccreedys-mansion": "engines.maccreedys_mansion",
}

_loaded: dict[str, Engine] = {}


class UnknownEngine(KeyError):
    pass


def get(engine_id: str) -> Engine:
    if engine_id not in ENGINE_MODULES:
        raise UnknownEngine(engine_id)
    if engine_id not in _loaded:
        _loaded[engine_id] = importlib.import_module(ENGINE_MODULES[engine_id]).ENGINE
    return _loaded[engine_id]


def available() -> list[str]:
    """Ids of the engines that are installed, in registry order."""
    ids = []
    for engine_id, module in ENGINE_MODULES.items():
        if importlib.util.find_spec(module) is None:
            continue
        if getattr(importlib.import_module(module), "ENGINE", None) is not None:
            ids.append(engine_id)
    return ids
