"""A game's state written once: its dataclass declares each field's published
shape, and its schema, ``dump_state`` and ``load_state`` are derived from it.

A field of a state dataclass is ``shaped(v.count(...), default=0)``: the
``engines.kit.shapes`` field it is published with, and the dataclass field's
own options. ``state_schema`` builds the marshmallow schema (named after the
class, as the OpenAPI document publishes it); ``dump`` turns a state into
plain JSON (tuples become lists, nested records objects) and ``load`` rebuilds
it from the type hints (lists become tuples, objects their records).

A field the state carries but does not publish (a game's catalog, which its
config already holds) is ``kept_out()``: it is in neither the schema nor the
dump, and ``load`` takes its value as an argument. A class with its own
``to_json``/``from_json`` is converted by them; a union of records is tagged
with its record's ``kind`` (the class's name in lower case).

A helper of the kit rather than a library: the published shapes keep their
descriptions, strict integers and closed sets (``engines.kit.shapes``), which a
converter from type hints alone cannot know.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Collection
from typing import Any

from marshmallow import Schema, fields

from engines.kit import shapes

SHAPE = "shape"


def shaped(shape: fields.Field, **options: Any) -> Any:
    """A dataclass field published with ``shape``; ``options`` are ``dataclasses.field``'s."""
    return dataclasses.field(metadata={SHAPE: shape}, **options)


def kept_out(**options: Any) -> Any:
    """A dataclass field left out of the schema and the dump; ``options`` are ``dataclasses.field``'s."""
    return dataclasses.field(metadata={SHAPE: None}, **options)


def state_schema(record: type, name: str | None = None, exclude: Collection[str] = ()) -> type[Schema]:
    """The schema of a state dataclass: each field's shape, named after the class (or ``name``).

    ``exclude`` leaves fields out: the part of a state a view shares with it."""
    return Schema.from_dict(
        {f.name: f.metadata[SHAPE] for f in _published(record) if f.name not in exclude},
        name=name or record.__name__,
    )


def tagged_schema(record: type, name: str | None = None) -> type[Schema]:
    """The schema of a record dumped as one of a union: its ``kind`` tag, then its fields."""
    return Schema.from_dict(
        {"kind": shapes.string([_tag(record)]), **state_schema(record)._declared_fields},
        name=name or record.__name__,
    )


def dump(state: Any) -> Any:
    """A state (a dataclass) as plain JSON."""
    return _dumper(type(state))(state)


def load(record: type, data: Any, **kept: Any) -> Any:
    """Inverse of ``dump`` for a value of type ``record``; ``kept`` gives its kept-out fields."""
    return _loader(record)(data, **kept)


def _published(record: type) -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(record) if f.metadata.get(SHAPE, True) is not None]


# Each type's converter is worked out once from its type hints, then reused:
# snapshots and whole-state views dump and load often.


def _same(value: Any) -> Any:
    return value


def _parts(kind: Any) -> tuple[str, tuple[Any, ...]]:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (types.UnionType, typing.Union):
        kinds = [k for k in args if k is not type(None)]
        if len(kinds) < len(args):
            optional = kinds[0] if len(kinds) == 1 else typing.Union[tuple(kinds)]  # noqa: UP007
            return ("optional", (optional,))
        if all(dataclasses.is_dataclass(k) for k in kinds):
            return ("tagged", tuple(kinds))
        return ("any", ())
    if origin is tuple:
        return ("many", (args[0],)) if len(args) == 2 and args[1] is Ellipsis else ("row", args)
    if hasattr(kind, "to_json") and hasattr(kind, "from_json"):
        return ("own", (kind,))
    return ("record", (kind,)) if dataclasses.is_dataclass(kind) else ("any", ())


def _tag(record: type) -> str:
    return record.__name__.lower()


@functools.cache
def _dumper(kind: Any) -> Callable[[Any], Any]:
    shape, args = _parts(kind)
    if shape == "record":
        hints = typing.get_type_hints(kind)
        fields_ = [(f.name, _dumper(hints[f.name])) for f in _published(kind)]
        return lambda value: {name: convert(getattr(value, name)) for name, convert in fields_}
    if shape == "own":
        return lambda value: value.to_json()
    if shape == "tagged":
        inner_by_type = {k: _dumper(k) for k in args}
        return lambda value: {"kind": _tag(type(value)), **inner_by_type[type(value)](value)}
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
def _loader(kind: Any) -> Callable[..., Any]:
    shape, args = _parts(kind)
    if shape == "record":
        hints = typing.get_type_hints(kind)
        fields_ = [(f.name, _loader(hints[f.name])) for f in _published(kind)]
        return lambda data, **kept: kind(
            **kept, **{name: convert(data[name]) for name, convert in fields_ if name in data}
        )
    if shape == "own":
        return kind.from_json
    if shape == "tagged":
        inner_by_tag = {_tag(k): _loader(k) for k in args}
        return lambda data: inner_by_tag[data["kind"]]({k: v for k, v in data.items() if k != "kind"})
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
