"""The shape checks of a game's options and commands (its marshmallow schemas
in ``schemas/games/``), run before the engine judges the rules."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError

from engines import registry
from schemas.games import for_engine
from service.records.errors import Invalid


def known_engine(engine_id: str) -> str:
    if engine_id not in registry.available():
        raise Invalid("unknown-engine", f"No engine {engine_id!r}.", errors={"engine": registry.available()})
    return engine_id


def options(engine_id: str, given: dict[str, Any]) -> dict[str, Any]:
    """The game's options with their defaults filled in."""
    try:
        return for_engine(engine_id).OPTIONS().load(given)
    except ValidationError as err:
        raise Invalid("invalid-options", "The game options are not valid.", errors=err.messages) from err


def command(engine_id: str, given: dict[str, Any]) -> dict[str, Any]:
    """A command of the game, well formed for its type."""
    shapes = for_engine(engine_id).COMMANDS
    kind = given["type"]
    if kind not in shapes:
        raise Invalid(
            "unknown-command", f"This game has no command {kind!r}.", errors={"type": sorted(shapes)}
        )
    fields = {k: v for k, v in given.items() if k != "type"}
    try:
        loaded = shapes[kind]().load(fields)
    except ValidationError as err:
        raise Invalid(
            "invalid-command", f"The {kind} command is not well formed.", errors=err.messages
        ) from err
    return {"type": kind, **loaded}
