"""Errors as RFC 9457 problem details with a stable ``code``."""

from __future__ import annotations

import math
import time
from typing import Any

import psycopg
from flask import Flask, Response, current_app, json
from werkzeug.exceptions import HTTPException

PROBLEM_JSON = "application/problem+json"
#: Seconds a client waits before retrying while the database is unavailable.
DATABASE_RETRY_AFTER = 5


class Problem(Exception):
    """An error the API reports as it is: status, stable code, message."""

    def __init__(self, status: int, code: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra


def not_found(what: str) -> Problem:
    return Problem(404, "not-found", f"No such {what}.")


def problem_response(status: int, code: str, title: str, detail: str, headers=None, **extra: Any) -> Response:
    body = {"type": f"https://tablerecord.example/problems/{code}", "title": title, "status": status}
    body.update(code=code, detail=detail, **extra)
    return Response(json.dumps(body) + "\n", status=status, headers=headers, mimetype=PROBLEM_JSON)


TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Payload too large",
    415: "Unsupported media type",
    422: "Unprocessable content",
    429: "Too many requests",
    500: "Internal server error",
    503: "Service unavailable",
}

HTTP_CODES = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    413: "payload-too-large",
    415: "unsupported-media-type",
    429: "rate-limited",
}


def http_exception(error: HTTPException) -> Response:
    """Werkzeug/webargs errors. webargs puts field errors in ``error.data``."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    headers = {k: v for k, v in (data.get("headers") or {}).items()}
    if status == 429:
        headers["Retry-After"] = str(_seconds_until_limit_resets())
        return problem_response(429, "rate-limited", TITLES[429], "Too many requests; retry later.", headers)
    if status == 400 and messages and "Invalid JSON" in str(messages):
        return problem_response(400, "malformed-json", TITLES[400], "The body is not valid JSON.", headers)
    if messages:
        fields = messages.get("json", messages) if isinstance(messages, dict) else messages
        return problem_response(
            422 if status == 422 else status,
            "invalid-request",
            TITLES.get(status, "Error"),
            "The request does not have the expected shape.",
            headers,
            errors=fields,
        )
    detail = error.description or TITLES.get(status, "Error")
    return problem_response(
        status, HTTP_CODES.get(status, "error"), TITLES.get(status, "Error"), str(detail), headers
    )


def _seconds_until_limit_resets() -> int:
    """Flask-Limiter's rate-limit headers would put a Retry-After on every
    response (overriding ours on 503s), so they are off and a 429 computes its
    own from the limit it broke."""
    limit = current_app.extensions["tablerecord.limiter"].current_limit
    if limit is None:
        return 60
    return max(1, math.ceil(limit.reset_at - time.time()))


def register(app: Flask) -> None:
    @app.errorhandler(Problem)
    def _problem(error: Problem) -> Response:
        return problem_response(
            error.status, error.code, TITLES.get(error.status, "Error"), error.detail, **error.extra
        )

    app.register_error_handler(HTTPException, http_exception)

    @app.errorhandler(psycopg.errors.LockNotAvailable)
    @app.errorhandler(psycopg.errors.QueryCanceled)
    def _busy(error: Exception) -> Response:
        """A lock not granted within lock_timeout (or a statement cut off by
        statement_timeout): nothing was stored; the client may simply retry."""
        app.logger.warning("database busy: %s", error)
        return problem_response(
            503,
            "busy",
            TITLES[503],
            "The game is busy; nothing was stored. Retry shortly.",
            {"Retry-After": "1"},
        )

    @app.errorhandler(psycopg.OperationalError)
    @app.errorhandler(psycopg.InterfaceError)
    def _database_unavailable(error: Exception) -> Response:
        """The database is down, restarting or out of connections (the pool
        gives up after its timeout). A write that met this was rolled back,
        unless the connection broke during its COMMIT: a retry with the same
        Idempotency-Key is safe either way."""
        app.logger.warning("database unavailable: %s", error)
        return problem_response(
            503,
            "database-unavailable",
            TITLES[503],
            "The database is unavailable; retry after Retry-After seconds.",
            {"Retry-After": str(DATABASE_RETRY_AFTER)},
        )

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        app.logger.exception("unhandled error")
        return problem_response(500, "internal-error", TITLES[500], "Something went wrong on our side.")
