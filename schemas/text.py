"""Text that people type and pages show: names, seasons and reasons.

Every free text has a length limit, the same on every route. What a name may
hold (its composed form, no blank, control, bidirectional or invisible
characters) is the domain's one rule for names (``service.records.club.names``),
which every way a name comes in applies: a request's name is only read here."""

from __future__ import annotations

from marshmallow import fields, validate

#: The longest name, season and reason a request may carry.
NAME_MAX, SEASON_MAX, REASON_MAX = 120, 60, 500


class Name(fields.String):
    """A name (of a club, player, league or season), checked by the domain's rule."""

    def __init__(self, *, max_length: int = NAME_MAX, blank: bool = False, **kwargs):
        super().__init__(validate=validate.Length(min=0 if blank else 1, max=max_length), **kwargs)


def Reason(**kwargs) -> fields.String:  # noqa: N802 - a field, named like one
    """Why a game was abandoned or actions retracted: free text, within ``REASON_MAX``."""
    return fields.String(
        load_default=None, allow_none=True, validate=validate.Length(max=REASON_MAX), **kwargs
    )
