"""A game's options, read through the schema that validates them.

The schema in ``engines/<game>/schemas.py`` (``OPTIONS``) is the one place a
game's options and their defaults are declared: the service validates a
new game's options with it, and the engine reads them through it, so an
engine never writes ``options.get("target", 30)`` with a default of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError

from engines.base import RuleViolation


def read_options(schema: type[Schema], options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with every default filled in; refused as ``invalid-options``."""
    try:
        return schema().load(dict(options))
    except ValidationError as exc:
        raise RuleViolation(
            "invalid-options", "The game's options are not valid.", {"errors": exc.messages}
        ) from exc
