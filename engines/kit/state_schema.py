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
from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields

SHAPE = "shape"


def shaped(shape: fields.Field, **options: Any) -> Any:
    """A dataclass field published with ``shape``; ``options`` are ``dataclasses.field``'s."""
    return dataclasses.field(metadata={SHAPE: shape}, **options)


def state_schema(record: type, name: str | None = None) -> type[Schema]:
    """The schema of a state dataclass: each field's shape, named after the class (or ``name``)."""
    return Schema.from_dict(
        {f.name: f.metadata[SHAPE] for f in dataclasses.fields(record)}, name=name or record.__name__
    )


def dump(state: Any) -> Any:
    """A state (a dataclass) as plain JSON."""
    return _dumper(type(state))(state)


def load(record: type, data: Any) -> Any:
    """Inverse of ``dump`` for a value of type ``record``."""
    return _loader(record)(data)


# Each type's converter is worked out once from its type hints, then reused:
# snapshots and whole-state views dump and load often.


def _same(value: Any) -> Any:
    return value


def _parts(kind: Any) -> tuple[Any, tuple[Any, ...]]:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (types.UnionType, typing.Union):
        kinds = [k for k in args if k is not type(None)]
        return ("optional", (kinds[0],)) if len(kinds) == 1 else ("any", ())
    if origin is tuple:
        return ("many", (args[0],)) if len(args) == 2 and args[1] is Ellipsis else ("row", args)
    return ("record", (kind,)) if dataclasses.is_dataclass(kind) else ("any", ())


@functools.cache
def _dumper(kind: Any) -> Callable[[Any], Any]:
    shape, args = _parts(kind)
    if shape == "record":
        hints = typing.get_type_hints(kind)
        fields_ = [(f.name, _dumper(hints[f.name])) for f in dataclasses.fields(kind)]
        return lambda value: {name: convert(getattr(value, name)) for name, convert in fields_}
    if shape == "optional":
        inner = _dumper(args[0])
        if inner is _same:  # None passes as it is
            return _same
        return lambda value: None if value is None else inner(value)
    if shape == "many":
        inner = _dumper(args[0])
        return list if inner is _same else lambda value: [inner(item) for item in value]
    if shape == "row":
        inner_row = [_dumper(k) for k in args]
        return lambda value: [convert(item) for convert, item in zip(inner_row, value, strict=True)]
    return _same


@functools.cache
def _loader(kind: Any) -> Callable[[Any], Any]:
    shape, args = _parts(kind)
    if shape == "record":
        hints = typing.get_type_hints(kind)
        fields_ = [(f.name, _loader(hints[f.name])) for f in dataclasses.fields(kind)]
        return lambda data: kind(**{name: convert(data[name]) for name, convert in fields_ if name in data})
    if shape == "optional":
        inner = _loader(args[0])
        if inner is _same:  # None passes as it is
            return _same
        return lambda data: None if data is None else inner(data)
    if shape == "many":
        inner = _loader(args[0])
        return tuple if inner is _same else lambda data: tuple(inner(item) for item in data)
    if shape == "row":
        inner_row = [_loader(k) for k in args]
        return lambda data: tuple(convert(item) for convert, item in zip(inner_row, data, strict=True))
    return _same
