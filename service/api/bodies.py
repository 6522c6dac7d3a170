"""Request bodies and headers checked before any view parses them.

Each check turns input that would otherwise fail deep inside a library or
the database (a recursion limit, Python's 4,300-digit integer limit, a text
PostgreSQL cannot store) into a 4xx problem naming what is wrong.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import request

from service.api.problems import HttpProblem as Problem

#: Deepest nesting of arrays and objects a body may have; no request needs more than a few.
MAX_JSON_DEPTH = 32
#: Longest integer literal in a body: every integer field is a 32-bit or 64-bit value.
MAX_INTEGER_DIGITS = 20
#: Longest X-Request-Id kept (it is stored in every event's metadata).
MAX_REQUEST_ID = 128

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")
_REQUEST_ID = re.compile(rf"[\x21-\x7e]{{1,{MAX_REQUEST_ID}}}")
_SURROGATE = re.compile("[\ud800-\udfff]")
_LONG_INTEGER = re.compile(rb"\d{%d}" % (MAX_INTEGER_DIGITS + 1))


def json_depth(data: bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text, counted without
    parsing it (brackets inside strings do not count)."""
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING.sub(b'""', data)):
        if bracket.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise Problem(
            422,
            "number-too-large",
            f"An integer in the body has more than {MAX_INTEGER_DIGITS} digits.",
        )
    return int(text)


def _strings(value: Any):
    """Every string (keys included) in a parsed body, walked without recursion."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


def _plainly_fine(data: bytes) -> bool:
    """Text that cannot break any check below, seen without parsing it: too
    few brackets to nest too deep, no digit run long enough for an oversized
    integer, and no ``\\u`` escape, the only way JSON text can hold a NUL or
    a lone surrogate (raw ones are not valid UTF-8 or not valid JSON)."""
    return (
        data.count(b"[") + data.count(b"{") <= MAX_JSON_DEPTH
        and b"\\u" not in data
        and _LONG_INTEGER.search(data) is None
    )


def check_json_body() -> None:
    """A JSON body is shallow enough, parses, holds no oversized integer and
    only text PostgreSQL can store (no NUL character, no lone surrogate)."""
    if not request.is_json:
        return
    data = request.get_data(cache=True)
    if not data or _plainly_fine(data):
        return
    if json_depth(data) > MAX_JSON_DEPTH:
        raise Problem(422, "too-deep", f"The body nests deeper than {MAX_JSON_DEPTH} levels.")
    try:
        body = json.loads(data, parse_int=_integer)
    except (ValueError, RecursionError):
        return  # malformed: the view's parser answers 400 malformed-json
    for text in _strings(body):
        if "\x00" in text:
            raise Problem(422, "nul-character", "Text may not contain the NUL character (\\u0000).")
        if _SURROGATE.search(text):
            raise Problem(
                422, "lone-surrogate", "Text may not contain a lone UTF-16 surrogate (\\ud800-\\udfff)."
            )


def check_url_text() -> None:
    """The path and query hold only text PostgreSQL can store: a NUL or a
    lone surrogate (``%00``, ``%ED%A0%80``) is a 400, not a database error."""
    texts = [request.path, *request.args.keys(), *request.args.values()]
    if any("\x00" in t or _SURROGATE.search(t) for t in texts):
        raise Problem(400, "bad-url", "The address may not contain a NUL character or a lone surrogate.")


def request_id() -> str | None:
    """The client's X-Request-Id if it has one: 1 to 128 printable ASCII characters."""
    given = request.headers.get("X-Request-Id")
    if given is None:
        return None
    if not _REQUEST_ID.fullmatch(given):
        raise Problem(
            400,
            "invalid-request-id",
            f"An X-Request-Id is 1 to {MAX_REQUEST_ID} printable ASCII characters without spaces.",
        )
    return given
