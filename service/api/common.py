"""Small helpers the blueprints share."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import flask_smorest
from flask import Response, current_app, g, json, request, url_for
from marshmallow import Schema
from webargs.flaskparser import FlaskParser
from webargs.multidictproxy import MultiDictProxy
from werkzeug.datastructures import MultiDict

from schemas.api import Problem
from service.records.log import context
from service.records.log.context import Records

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
    409: "Conflict with the current state (for example, a version conflict).",
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
