"""``Game``: a game declared as one object (boardgame.io's ``Game({...})``).

Each game folder declares one ``Game`` in its ``__init__``: its rules (the
``Engine``), the marshmallow schemas of its options, commands, views and
state, its catalog schema and shipped default catalog when it uses cards
from a catalog, how a game of it ends (its ``Termination`` enumeration), and
the trial setups a test can start a game with. The
registry (``engines.registry``) lists these objects; nothing of a game is
found by its module's name.

A ``Game`` imports nothing of the service: the domain, the API and the tests
read a game's parts from it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from marshmallow import Schema, fields, validate

from engines.base import Engine
from engines.kit.outcome import OutcomeRule


@dataclass(frozen=True)
class Trial:
    """Seats and options a test can start a game with (options as a client sends them)."""

    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Game:
    engine: Engine
    options: type[Schema]
    commands: Mapping[str, type[Schema]]  # command type -> its fields (``type`` and ``seat`` excluded)
    views: tuple[type[Schema], ...]  # what ``view`` returns: during play and, when it differs, once finished
    state: type[Schema]  # the shape of ``dump_state``: the whole state, which the recorder sees
    #: How a game ends: the words of ``GameDecided``'s and ``Outcome``'s ``ended_by``.
    terminations: type[StrEnum]
    trials: tuple[Trial, ...]  # the first is short; the others reach other shapes
    catalog: type[Schema] | None = None  # validates a catalog of ``engine.catalog_kind``
    default_catalog: Path | None = None  # the shipped catalog's JSON file
    outcome: OutcomeRule | None = None  # how a result recorded alone is judged (``outcome.py``)

    def __post_init__(self) -> None:
        if not self.trials:
            raise ValueError(f"{self.id}: a game declares at least one trial setup")
        if (self.catalog is None) != (self.engine.catalog_kind is None) or (self.catalog is None) != (
            self.default_catalog is None
        ):
            raise ValueError(f"{self.id}: a catalog kind, its schema and its default come together")

    @property
    def id(self) -> str:
        return self.engine.id

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def min_seats(self) -> int:
        return self.engine.min_seats

    @property
    def max_seats(self) -> int:
        return self.engine.max_seats

    @property
    def catalog_kind(self) -> str | None:
        return self.engine.catalog_kind

    @property
    def trial(self) -> Trial:
        return self.trials[0]

    @property
    def schema_prefix(self) -> str:
        """The prefix of this game's schema names: ``house-of-cronies`` -> ``HouseOfCronies``."""
        return "".join(part.capitalize() for part in self.id.split("-"))

    @functools.cached_property
    def typed_commands(self) -> dict[str, type[Schema]]:
        """Each command as one whole schema, ``type`` included.

        The service loads an action's command with it and the OpenAPI document
        publishes it, so the contract and the check are the same schema."""
        return {
            name: type(
                f"{self.schema_prefix}{name}",
                (shape,),
                {"type": fields.String(required=True, validate=validate.OneOf([name]))},
            )
            for name, shape in self.commands.items()
        }

    @property
    def view_schemas(self) -> tuple[type[Schema], ...]:
        """Every shape a game view's ``state`` takes: each view, then the whole
        state (without repeats, for a game whose view is its whole state)."""
        return tuple(dict.fromkeys((*self.views, self.state)))
