"""An entry posted by a page's form (the scorepad's, the game page's): its
command and seat read from the form, and a refusal put in the words shown."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from service.records.errors import Invalid


def command() -> dict[str, Any]:
    """The form's ``command`` (a legal command as the page offered it, with
    the number typed into its ``amount_field`` when it asks for one), or a
    422 page."""
    try:
        value: Any = json.loads(request.form.get("command", ""))
    except ValueError as exc:
        raise Invalid("bad-command", "The entry is not a command.") from exc
    if not isinstance(value, dict) or "type" not in value:
        raise Invalid("bad-command", "The entry is not a command.")
    field = request.form.get("amount_field")
    if field:
        if not field.isidentifier() or field in ("type", "seat"):
            raise Invalid("bad-command", "The entry is not a command.")
        value[field] = amount()
    return value


def amount() -> int:
    """The whole number typed into an entry's number field, or a refusal in plain words."""
    typed = request.form.get("amount", "").strip()
    if not typed.isascii() or not typed.lstrip("-").isdigit() or len(typed) > 12:
        raise Invalid("bad-amount", "Type a whole number.")
    return int(typed)


def typed() -> dict[str, Any] | None:
    """An entry's number as typed, kept for the form that asked for it when the entry is refused."""
    field = request.form.get("amount_field")
    if not field:
        return None
    try:
        template = json.loads(request.form.get("command", ""))
    except ValueError:
        return None
    return {"command": template, "amount": request.form.get("amount", "")[:12]}


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
    """A refusal (a rule, a conflict, an access rule) in the words it gives;
    a command out of shape (a number typed out of range) by what is wrong
    with its value, not by the command's code name."""
    if isinstance(refused, Invalid) and refused.code == "invalid-command":
        wrong = [m for ms in (refused.extra.get("errors") or {}).values() for m in _messages(ms)]
        return "That entry is not possible" + (f": {wrong[0][:1].lower()}{wrong[0][1:]}" if wrong else ".")
    return getattr(refused, "detail", None) or getattr(refused, "message", None) or str(refused)


def _messages(found: Any) -> list[str]:
    """A field's messages as marshmallow gives them (a list, or a dict of lists for a nested field)."""
    if isinstance(found, str):
        return [found]
    if isinstance(found, dict):
        return [m for v in found.values() for m in _messages(v)]
    return [m for v in found for m in _messages(v)] if isinstance(found, list) else []


def swapped() -> bool:
    """A tap answered in place (htmx), rather than a whole page."""
    return request.headers.get("HX-Request") == "true"
