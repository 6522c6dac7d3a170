"""Text that people type and pages show: names, seasons and reasons.

A name is read in Unicode's composed form (NFC) without surrounding
whitespace, and refused when it is blank or holds a control, bidirectional or
invisible (zero-width) character: those let one name pass for another on a
page. Every free text has a length limit, the same on every route."""

from __future__ import annotations

import unicodedata

from marshmallow import ValidationError, fields, validate

#: Unicode categories refused in names: controls, formats (bidi and zero-width marks), line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
#: The longest name, season and reason a request may carry.
NAME_MAX, SEASON_MAX, REASON_MAX = 120, 60, 500


def clean_name(value: str) -> str:
    """``value`` as a name is stored, or ``ValidationError`` saying what is wrong."""
    value = unicodedata.normalize("NFC", value).strip()
    if any(unicodedata.category(c) in REFUSED_CATEGORIES for c in value):
        raise ValidationError("A name cannot hold control, bidirectional or invisible characters.")
    return value


class Name(fields.String):
    """A name (of a club, player, league or season): see the module's docstring."""

    def __init__(self, *, max_length: int = NAME_MAX, blank: bool = False, **kwargs):
        super().__init__(validate=validate.Length(min=0 if blank else 1, max=max_length), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs) -> str:
        return clean_name(super()._deserialize(value, attr, data, **kwargs))


def Reason(**kwargs) -> fields.String:  # noqa: N802 - a field, named like one
    """Why a game was abandoned or actions retracted: free text, within ``REASON_MAX``."""
    return fields.String(
        load_default=None, allow_none=True, validate=validate.Length(max=REASON_MAX), **kwargs
    )
