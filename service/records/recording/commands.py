"""The shape checks of a game's options and commands (its marshmallow schemas
in each game folder's ``schemas.py``), run before the engine judges the rules."""

from __future__ import annotations

import functools
import json
from typing import Any

from marshmallow import Schema, ValidationError

from engines import registry
from service.records.errors import Invalid


def known_engine(engine_id: str) -> str:
    if engine_id not in registry.available():
        raise Invalid("unknown-engine", f"No engine {engine_id!r}.", errors={"engine": registry.available()})
    return engine_id


def options(engine_id: str, given: dict[str, Any]) -> dict[str, Any]:
    """The game's options with their defaults filled in."""
    try:
        return registry.game(engine_id).options().load(given)
    except ValidationError as err:
        raise Invalid("invalid-options", "The game options are not valid.", errors=err.messages) from err


@functools.cache
def _loader(engine_id: str, kind: str) -> Schema:
    """One schema instance per command type (a marshmallow schema loads many times)."""
    return registry.game(engine_id).typed_commands[kind]()


def command(engine_id: str, given: dict[str, Any]) -> dict[str, Any]:
    """A command of the game, well formed for its type."""
    shapes = registry.game(engine_id).typed_commands
    kind = given["type"]
    if kind not in shapes:
        raise Invalid(
            "unknown-command", f"This game has no command {kind!r}.", errors={"type": sorted(shapes)}
        )
    try:
        text = json.dumps(given, sort_keys=True)
    except (TypeError, ValueError):
        return _load(engine_id, kind, given)  # not JSON: nothing to remember it by
    return json.loads(_loaded(engine_id, kind, text))


@functools.lru_cache(maxsize=1 << 16)
def _loaded(engine_id: str, kind: str, text: str) -> str:
    """The command ``text`` (JSON) loaded, as JSON. A schema's load is a
    function of its input, and the same commands come back again and again
    (dice, passes, draws), above all when games are imported: each is loaded
    once. A refusal raises and is not remembered."""
    return json.dumps(_load(engine_id, kind, json.loads(text)))


def _load(engine_id: str, kind: str, given: dict[str, Any]) -> dict[str, Any]:
    try:
        return _loader(engine_id, kind).load(given)
    except ValidationError as err:
        raise Invalid(
            "invalid-command", f"The {kind} command is not well formed.", errors=err.messages
        ) from err
