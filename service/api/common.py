"""Small helpers the blueprints share."""

from __future__ import annotations

import copy
import functools
import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

import flask_smorest
from apispec import BasePlugin
from flask import Response, current_app, g, json, request, url_for
from marshmallow import Schema
from webargs.flaskparser import FlaskParser
from webargs.multidictproxy import MultiDictProxy
from werkzeug.datastructures import MultiDict

from schemas.api import Problem
from service.api.conditional import LOG_POSITION
from service.auth import bearer
from service.records.errors import Conflict
from service.records.log import context
from service.records.log.context import Records
from service.records.recording import idempotency

T = TypeVar("T")


class _Parser(FlaskParser):
    """Parses with one instance of each argument schema: webargs would build a
    fresh one for every request, which costs more than loading a small body.
    A schema instance keeps no state between loads.

    Its ``multipart`` location reads a multipart body's fields and files
    together, so that one schema (one ``multipart/form-data`` request body in
    the spec) describes an upload."""

    __location_map__ = {**FlaskParser.__location_map__, "multipart": "load_multipart"}

    def load_multipart(self, req, schema: Schema) -> MultiDictProxy:
        values = MultiDict(req.form)
        values.update(req.files)
        return MultiDictProxy(values, schema)

    def _get_schema(self, argmap, req) -> Schema:
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            return _instance(argmap)
        return super()._get_schema(argmap, req)


@functools.cache
def _instance(schema: type[Schema]) -> Schema:
    return schema()


class ClientGone(Exception):
    """The client hung up while its request ran: the work it asked for stops."""


def stop_when_gone(
    environ: dict[str, Any], also: Callable[[], bool] = lambda: False
) -> Callable[[int, int], None]:
    """A ``progress`` for long domain work (an import, a restore) that stops it
    with ``ClientGone`` once the request's client has hung up (waitress
    notices it: ``service.http_server``), or once ``also`` says so."""
    gone = environ.get("waitress.client_disconnected") or (lambda: False)

    def check(done: int, of: int) -> None:
        if also() or gone():
            raise ClientGone()

    return check


class Blueprint(flask_smorest.Blueprint):
    """The service's blueprints: flask-smorest's, with the parser above."""

    ARGUMENTS_PARSER = _Parser()
    DEFAULT_LOCATION_CONTENT_TYPE_MAPPING = {
        **flask_smorest.Blueprint.DEFAULT_LOCATION_CONTENT_TYPE_MAPPING,
        "multipart": "multipart/form-data",
    }


PROBLEM_TEXT = {
    400: "Malformed request (for example, invalid JSON, or a NUL character in the address).",
    401: "Missing or invalid bearer token.",
    403: "The token may not do this.",
    404: "Not found (or not visible to this token).",
    409: "Conflict with the current state (for example, a version conflict, or a request still running"
    " under the same Idempotency-Key).",
    413: "Body too large.",
    422: "Wrong shape, or a rule of the game was broken (`code` names the rule).",
    429: "Rate limit exceeded; see Retry-After.",
    503: "`busy`: the game stayed locked by another writer; nothing was stored, retry after Retry-After. "
    "`database-unavailable`: the database is down or restarting; retry after Retry-After.",
}


def problems(blp, *statuses: int) -> Callable:
    """Document problem+json responses for ``statuses``, and everywhere 400 (an
    address holding a NUL is refused before any route) and 429."""

    def decorate(func: Callable) -> Callable:
        documented = func
        for status in sorted({*statuses, 400, 429}):
            documented = blp.alt_response(
                status,
                schema=Problem,
                description=PROBLEM_TEXT[status],
                content_type="application/problem+json",
            )(documented)
        # Keep the documentation, not the wrappers: each would add a call to
        # every request, and a problem is answered by the error handlers.
        func._apidoc = documented._apidoc
        return func

    return decorate


def records() -> Records:
    """The domain's handle for this app: its pool, snapshot interval and listeners."""
    return current_app.extensions["tablerecord.records"]


def lagging(min_position: int | None, call: Callable[[Records], T]) -> T:
    """A read that may lag: from the replica when one may serve it (``context.read``)."""
    return context.read(records(), min_position, call)


def request_id() -> str | None:
    return g.get("request_id")


NDJSON = "application/x-ndjson"


def wants_ndjson() -> bool:
    return request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON


def ndjson(items: list[Any]) -> Response:
    """One JSON document per line."""
    return Response("".join(json.dumps(i, default=str) + "\n" for i in items), mimetype=NDJSON)


def negotiated(schema: str, what: str, twin: str) -> dict:
    """The 200 of a route that answers JSON or, asked with `Accept`, NDJSON;
    ``twin`` is the route that answers NDJSON only (for clients that pick an
    operation rather than a header)."""
    return {
        "200": {
            "description": f"{what} as JSON; with `Accept: application/x-ndjson`, one item per line"
            f" (as `{twin}` answers).",
            "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}},
                NDJSON: {"schema": {"type": "string", "description": "One JSON object per line."}},
            },
        }
    }


def ndjson_only(what: str) -> dict:
    return {
        "200": {
            "description": f"{what}, one JSON object per line.",
            "content": {NDJSON: {"schema": {"type": "string", "description": "One JSON object per line."}}},
        }
    }


def next_link(what: str) -> dict:
    """The documented ``Link`` header of a paged list of ``what``."""
    description = f'Present when there are more {what}: `<address of the next page>; rel="next"`.'
    return {"Link": {"schema": {"type": "string"}, "description": description}}


def paged(items: list[Any], next_after: Any, endpoint: str, **values: Any) -> Any:
    """A page of a list, with a ``Link: rel="next"`` header when there is more:
    the same route (``endpoint``, ``values``) from ``next_after`` on."""
    if next_after is None:
        return items
    following = url_for(endpoint, after=next_after, **values)
    return items, {"Link": f'<{following}>; rel="next"'}


# -- Idempotency-Key on every write -------------------------------------------------

IDEMPOTENCY_HEADER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "maxLength": 200},
    "description": "A retry with the same key and body returns the first answer (tokens included, with"
    " `Idempotent-Replayed: true`) and stores nothing more; another body under the key is a 422"
    " `idempotency-key-reused`. A key belongs to the token that sent it.",
}

#: The methods of the writes every route of the API answers once per key.
WRITES = frozenset({"POST", "PATCH", "DELETE"})

#: Writes that keep their key with their events, in their own transaction (the
#: domain's), answering without the claim's extra round trips.
OWN_KEYS = frozenset({"games.post_action"})


def idempotent(view: Callable) -> Callable:
    """The write answers once per ``Idempotency-Key`` of its token: the key is
    claimed before the write runs and its answer kept after it
    (``idempotency.claim_request``); the same key and body answer the kept
    answer, another body is refused, and a write still running under the key
    is a 409. A refused or failed write lets its key go (it stored nothing)."""

    @functools.wraps(view)
    def answered_once(*args, **kwargs):
        key = idempotency.check_key(request.headers.get("Idempotency-Key"))
        if key is None:
            return view(*args, **kwargs)
        token = bearer()  # the key is its token's (a token since replaced still gets its answers)
        kept = idempotency.claim_request(records(), token, key, _request_hash())
        if kept is not None:
            return _replayed(kept)
        try:
            response = current_app.make_response(view(*args, **kwargs))
        except BaseException:
            idempotency.release_request(records(), token, key)
            raise
        if response.status_code >= 400 or response.is_streamed:
            idempotency.release_request(records(), token, key)
            return response
        headers = {"Content-Type": response.content_type or "application/json"}
        if "log_position" in g:
            headers[LOG_POSITION] = str(g.log_position)
        if "Location" in response.headers:  # a job's address, answered again with it
            headers["Location"] = response.headers["Location"]
        idempotency.keep_request_answer(
            records(), token, key, response.status_code, response.get_data(), headers
        )
        return response

    return answered_once


def _request_hash() -> str:
    """The request as its key keeps it: method, address and body (a form's
    fields and its files' digests)."""
    if request.files or request.form:
        body: Any = request.form.to_dict(flat=False)
        for name, upload in request.files.items():
            body[name] = hashlib.sha256(upload.stream.read()).hexdigest()
            upload.stream.seek(0)
    else:
        body = request.get_json(silent=True)
    return idempotency.request_hash([request.method, request.path, body])


def _replayed(kept: idempotency.KeptAnswer) -> Response:
    if kept.status is None:
        raise Conflict(
            "idempotency-key-in-use", "A request under this Idempotency-Key is still running; retry."
        )
    return Response(kept.answer, status=kept.status, headers={**kept.headers, "Idempotent-Replayed": "true"})


class WritesTakeIdempotencyKey(BasePlugin):
    """Documents ``Idempotency-Key`` (and its 409 and 422) on every write of the spec."""

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        for method, operation in (operations or {}).items():
            if method.upper() not in WRITES:
                continue
            parameters = operation.setdefault("parameters", [])
            if not any(isinstance(p, dict) and p.get("name") == "Idempotency-Key" for p in parameters):
                parameters.append(copy.deepcopy(IDEMPOTENCY_HEADER))
            responses = operation.setdefault("responses", {})
            for status in (409, 422):
                if status not in responses and str(status) not in responses:
                    responses[str(status)] = {
                        "description": PROBLEM_TEXT[status],
                        "content": {
                            "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
                        },
                    }
