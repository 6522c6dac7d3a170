"""A game's state written once: its dataclass declares each field's published
shape, and its schema, ``dump_state`` and ``load_state`` are derived from it.

A field of a state dataclass is ``shaped(v.count(...), default=0)``: the
``engines.kit.shapes`` field it is published with, and the dataclass field's
own options. ``state_schema`` builds the marshmallow schema (named after the
class, as the OpenAPI document publishes it); ``dump`` turns a state into
plain JSON (tuples become lists, nested records objects) and ``load`` rebuilds
it from the type hints (lists become tuples, objects their records).

A helper of the kit rather than a library: the published shapes keep their
descriptions, strict integers and closed sets (``engines.kit.shapes``), which a
converter from type hints alone cannot know.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any

from marshmallow import Schema, fields

SHAPE = "shape"


def shaped(shape: fields.Field, **options: Any) -> Any:
    """A dataclass field published with ``shape``; ``options`` are ``dataclasses.field``'s."""
    return dataclasses.field(metadata={SHAPE: shape}, **options)


def state_schema(record: type) -> type[Schema]:
    """The schema of a state dataclass: each field's shape, named after the class."""
    return Schema.from_dict(
        {f.name: f.metadata[SHAPE] for f in dataclasses.fields(record)}, name=record.__name__
    )


def dump(value: Any) -> Any:
    """A state (or any part of one) as plain JSON."""
    if dataclasses.is_dataclass(value):
        return {f.name: dump(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [dump(item) for item in value]
    return value


def load(record: type, data: Any) -> Any:
    """Inverse of ``dump`` for a value of type ``record``."""
    return _load(record, data)


@functools.cache
def _hints(record: type) -> dict[str, Any]:
    return typing.get_type_hints(record)


def _load(kind: Any, data: Any) -> Any:
    if data is None:
        return None
    if dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(
            **{f.name: _load(hints[f.name], data[f.name]) for f in dataclasses.fields(kind) if f.name in data}
        )
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (types.UnionType, typing.Union):
        kinds = [k for k in args if k is not type(None)]
        return _load(kinds[0], data) if len(kinds) == 1 else data
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_load(args[0], item) for item in data)
        return tuple(_load(k, item) for k, item in zip(args, data, strict=True))
    return data
