"""Field makers for the schemas of what engines show: a game's view and its whole state.

These schemas describe what the service sends, never what it reads, so every
member is required unless ``optional`` (a member only some viewers get), and a
member that may be null says so. Integers are strict, enums list a closed set,
and no schema takes an unknown member: a view that grows a member its schema
lacks fails the tests that check every view of random games against it.

Two shapes marshmallow has no field for are made here: ``Row`` (a fixed-length
array whose places have their own types, such as ``[seat, card]``) and
``Either`` (one value of several types, such as a seat or ``"table"``). The
service's OpenAPI converter gives both their JSON Schema.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from marshmallow import Schema, fields, validate

from engines.kit.numbers import INT64_MAX

#: JSON Schema metadata marking a member that only some viewers get.
ONLY_SEATS = "Only in a seat's view (its own hidden information); absent for a spectator."


def _member(field_class: type[fields.Field], *, null: bool, optional: bool, description: str | None, **kw):
    metadata = {"description": description} if description else {}
    return field_class(required=not optional, allow_none=null, metadata=metadata, **kw)


def integer(
    minimum: int | None = None,
    maximum: int | None = None,
    *,
    null: bool = False,
    optional: bool = False,
    description: str | None = None,
) -> fields.Integer:
    bounds = validate.Range(min=minimum, max=maximum) if minimum is not None or maximum is not None else None
    return _member(
        fields.Integer,
        null=null,
        optional=optional,
        description=description,
        strict=True,
        validate=bounds,
    )


def count(*, null: bool = False, optional: bool = False, description: str | None = None) -> fields.Integer:
    """A number of things (cards, rounds, points spent): never negative."""
    return integer(0, INT64_MAX, null=null, optional=optional, description=description)


def seat(*, null: bool = False, optional: bool = False, description: str | None = None) -> fields.Integer:
    """A seat number (0-based)."""
    return integer(0, null=null, optional=optional, description=description)


def number(*, null: bool = False, optional: bool = False, description: str | None = None) -> fields.Float:
    return _member(fields.Float, null=null, optional=optional, description=description)


def string(
    values: Iterable[str] | None = None,
    *,
    null: bool = False,
    optional: bool = False,
    description: str | None = None,
) -> fields.String:
    """A string; with ``values``, one of them (a closed set: an enum)."""
    return _member(
        fields.String,
        null=null,
        optional=optional,
        description=description,
        validate=validate.OneOf(list(values)) if values is not None else None,
    )


def boolean(
    value: bool | None = None, *, null: bool = False, optional: bool = False, description: str | None = None
) -> fields.Boolean:
    """A boolean; with ``value``, always that one."""
    return _member(
        fields.Boolean,
        null=null,
        optional=optional,
        description=description,
        validate=validate.OneOf([value]) if value is not None else None,
    )


def array(
    inner: fields.Field,
    *,
    null: bool = False,
    optional: bool = False,
    length: int | None = None,
    description: str | None = None,
) -> fields.List:
    return _member(
        fields.List,
        null=null,
        optional=optional,
        description=description,
        cls_or_instance=inner,
        validate=validate.Length(equal=length) if length is not None else None,
    )


def nested(
    schema: Any, *, null: bool = False, optional: bool = False, description: str | None = None
) -> fields.Nested:
    return _member(fields.Nested, null=null, optional=optional, description=description, nested=schema)


def mapping(
    values: fields.Field, *, null: bool = False, optional: bool = False, description: str | None = None
) -> fields.Dict:
    """An object whose member names are data (card ids, seat numbers) with values of one shape."""
    return _member(
        fields.Dict,
        null=null,
        optional=optional,
        description=description,
        keys=fields.String(),
        values=values,
    )


class Row(fields.Tuple):
    """A fixed-length array whose places have their own types (``[seat, card]``)."""


def row(*places: fields.Field, null: bool = False, optional: bool = False, description: str | None = None):
    return _member(Row, null=null, optional=optional, description=description, tuple_fields=places)


class Either(fields.Field):
    """One value of any of ``alternatives`` (a seat, or ``"table"``)."""

    def __init__(self, alternatives: tuple[fields.Field, ...], **kwargs):
        super().__init__(**kwargs)
        self.alternatives = alternatives


def either(
    *alternatives: fields.Field, null: bool = False, optional: bool = False, description: str | None = None
):
    return _member(Either, null=null, optional=optional, description=description, alternatives=alternatives)


# --------------------------------------------------- shapes of the engine kit (engines/kit)
class CatalogVersion(Schema):
    """The catalog a game plays with."""

    id = string()
    version = count()


class KnownCard(Schema):
    """A deck card in a known place, and the seats that know it."""

    card = string()
    seats = array(seat())


class DeckRun(Schema):
    """Unknown cards in a row, among which are ``holds``."""

    count = count()
    holds = array(string())


class DeckView(Schema):
    """A deck as a seat knows it (``engines.kit.deck``): a known card it does not know is null."""

    size = count()
    top = array(string(null=True), description="Cards put back on top, next first.")
    middle_size = count()
    runs = array(count(), description="The sizes of the middle's runs, top first.")
    bottom = array(string(null=True), description="Cards put back underneath, next first.")


class DeckState(Schema):
    """A whole deck (``engines.kit.deck``)."""

    top = array(nested(KnownCard))
    middle = array(string())
    bottom = array(nested(KnownCard))
    runs = array(nested(DeckRun))


class WindowView(Schema):
    """A reaction window (``engines.kit.windows``): whom it waits for is public."""

    kind = string()
    waiting_for = array(seat())


class WindowState(Schema):
    kind = string()
    seats = array(seat(), description="Every seat that must answer.")
    passed = array(seat())


class AwaitedStep(Schema):
    """A step one seat must take before the game goes on (``engines.kit.awaiting``)."""

    seat = seat()
    command = string(description="The command that answers it.")
    rule = string()
    amount = integer()


class SeatStatusState(Schema):
    """A seat's company: open, closed (may re-open) or out (``engines.kit.seats``)."""

    status = string(("open", "closed", "out"))
    since = count(description="The round it entered that status.")
