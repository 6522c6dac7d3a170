"""An entry posted by a page's form (the scorepad's, the game page's): its
command and seat read from the form, and a refusal put in the words shown."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from service.records.errors import Invalid


def command() -> dict[str, Any]:
    """The form's ``command`` (a legal command as the page offered it), or a 422 page."""
    try:
        value: Any = json.loads(request.form.get("command", ""))
    except ValueError as exc:
        raise Invalid("bad-command", "The entry is not a command.") from exc
    if not isinstance(value, dict) or "type" not in value:
        raise Invalid("bad-command", "The entry is not a command.")
    return value


def seat(value: str) -> int:
    """A seat field: a seat number, or a 422 page."""
    if not value.isascii() or not value.isdigit() or len(value) > 3:
        raise Invalid("bad-seat", "Choose a seat from the page.")
    return int(value)


def version() -> int:
    """The game's version the page was drawn at (-1 when the form lost it: a conflict)."""
    try:
        return int(request.form.get("version", ""))
    except ValueError:
        return -1


def why(refused: Exception) -> str:
    """A refusal (a rule, a conflict, an access rule) in the words it gives."""
    return getattr(refused, "detail", None) or getattr(refused, "message", None) or str(refused)


def swapped() -> bool:
    """A tap answered in place (htmx), rather than a whole page."""
    return request.headers.get("HX-Request") == "true"
