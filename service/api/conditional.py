"""Conditional requests: an ``ETag`` on the reads an app caches (``If-None-Match``
answers 304), ``If-Match`` on actions as their ``expected_version``, and the log
position a write's readers wait for (``Log-Position``, for ``min_position``)."""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from copy import deepcopy

from flask import Response, current_app, g, has_request_context, make_response, request

from service.records.errors import Invalid

LOG_POSITION = "Log-Position"
#: The same position in the body of a write's answer (``schemas.api.Positioned``).
BODY_POSITION = "log_position"

IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "required": False,
    "schema": {"type": "string", "maxLength": 200},
    "description": 'The `ETag` of the game\'s view (`GET /games/{game_id}`), or `"v<version>"`: the action is'
    " recorded only while the game is still at that version, as with `expected_version` (a game that has"
    " moved on answers the same 409 `version-conflict`, and nothing is stored). `*` sets no condition.",
}

#: The documented header of every answer that appends to the log.
LOG_POSITION_HEADER = {
    LOG_POSITION: {
        "schema": {"type": "integer"},
        "description": "The log position of this write's last event: a read given it as `min_position`"
        " answers only once its projection has reached it.",
    }
}

#: A game view's entity tag: its version, then a digest of the view.
VERSION_TAG = re.compile(r'(?:W/)?"v(\d{1,9})(?:-[0-9a-f]*)?"')


def cached(func: Callable) -> Callable:
    """The read answers with an ``ETag`` (a digest of its body, or one the view
    set) and, when ``If-None-Match`` names it, a 304 with no body. The tag
    depends on the token (``Vary: Authorization``), as the answer does.
    flask-smorest documents it (the ``If-None-Match`` parameter, the 304, the
    ``ETag`` header) as it does for its own ``etag`` decorator."""

    @functools.wraps(func)
    def conditional(*args, **kwargs) -> Response:
        response = make_response(func(*args, **kwargs))
        if response.status_code == 200 and not response.is_streamed:
            response.add_etag(overwrite=False)
            response.vary.add("Authorization")
            response.make_conditional(request)
        return response

    conditional._apidoc = {**deepcopy(getattr(func, "_apidoc", {})), "etag": True}
    # A 200 the route documents by hand (JSON or NDJSON) replaces the one
    # flask-smorest would give its ETag header: it is given here.
    written = conditional._apidoc.get("manual_doc", {}).get("responses", {}).get("200")
    if written is not None:
        written.setdefault("headers", {})["ETag"] = {"$ref": "#/components/headers/ETAG"}
    return conditional


def version_tag(response: Response, version: int) -> Response:
    """Tag a game's view with its version (which ``If-Match`` on its actions
    reads back) and a digest of the view itself (``?seat=``, a player's new name)."""
    digest = hashlib.sha256(response.get_data()).hexdigest()[:20]
    response.set_etag(f"v{version}-{digest}")
    return response


def expected_version(from_body: int | None) -> int | None:
    """The version an action requires: its ``If-Match`` header's, or its body's
    ``expected_version`` (both given, they must agree)."""
    header = request.headers.get("If-Match", "").strip()
    if not header or header == "*":
        return from_body
    match = VERSION_TAG.fullmatch(header)
    if match is None:
        raise Invalid(
            "invalid-if-match",
            'If-Match takes the ETag of the game\'s view, or "v" and its version in quotes.',
        )
    version = int(match.group(1))
    if from_body is not None and from_body != version:
        raise Invalid("if-match-disagrees", "If-Match and expected_version name different versions.")
    return version


def note_position(position: int) -> None:
    """A commit listener: the highest log position this request committed (a
    wake that names no position, 0, as a merge of players sends, is none)."""
    if position > 0 and has_request_context():
        g.log_position = max(g.get("log_position", 0), position)


def positioned(view: Callable) -> Callable:
    """A write of the API that appended to the log says where in its body as
    well (``log_position``, as its header will). Inside ``idempotent``, so
    the answer kept under an Idempotency-Key says it too."""

    @functools.wraps(view)
    def answered(*args, **kwargs) -> Response:
        response = current_app.make_response(view(*args, **kwargs))
        position = g.get("log_position")
        if position is not None and response.status_code < 400 and response.is_json:
            body = response.get_json()
            if isinstance(body, dict) and BODY_POSITION not in body:
                response.set_data(current_app.json.dumps({**body, BODY_POSITION: position}))
        return response

    return answered


def log_position(response: Response) -> Response:
    """A write of the API that appended to the log says where (``Log-Position``)."""
    position = g.get("log_position")
    if position is not None and request.blueprint != "web":
        response.headers[LOG_POSITION] = str(position)
    return response
