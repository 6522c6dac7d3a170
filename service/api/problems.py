"""The HTTP edge of errors: RFC 9457 problem details with a stable ``code``.

The domain raises its own errors (``service.records.errors``) and engines
raise ``RuleViolation``; only here do they become statuses and problem+json.
"""

from __future__ import annotations

import math
import time
from typing import Any

from flask import Flask, Response, current_app, json
from werkzeug.exceptions import HTTPException

from engines.base import RuleViolation
from service.api.common import ClientGone
from service.records import errors

PROBLEM_JSON = "application/problem+json"
#: Seconds a client waits before retrying while the database is unavailable.
DATABASE_RETRY_AFTER = 5

#: The status of each domain error: the one map of the API and the web pages.
STATUS = {
    errors.Unauthenticated: 401,
    errors.Forbidden: 403,
    errors.NotFound: 404,
    errors.Conflict: 409,
    errors.Invalid: 422,
    errors.Busy: 503,
    errors.TooMany: 429,
    errors.Unavailable: 503,
    errors.ProjectionBehind: 503,
}


def retry_after(error: errors.DomainError) -> int | None:
    """Seconds to wait before retrying a 503 or a 429 (None: not one)."""
    if isinstance(error, errors.Unavailable):
        return DATABASE_RETRY_AFTER
    if isinstance(error, errors.Busy | errors.TooMany | errors.ProjectionBehind):
        return RETRY_AFTER
    return None


RETRY_AFTER = 1


class HttpProblem(Exception):
    """A refusal of the HTTP layer itself (a malformed header, a NUL character):
    status, stable code, message."""

    def __init__(self, status: int, code: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra


def problem_response(status: int, code: str, title: str, detail: str, headers=None, **extra: Any) -> Response:
    """The problem+json answer; or, to a browser asking for a page, the web's
    error page (the renderer registered as ``tablerecord.error_page``)."""
    page = current_app.extensions.get("tablerecord.error_page")
    answer = page(status, code, detail) if page is not None else None
    if answer is not None:
        answer.headers.extend(headers or {})
        return answer
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
    headers.update((k, v) for k, v in error.get_headers() if k == "Allow")  # 405 names the methods
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


def behind_response(error: errors.ProjectionBehind) -> Response:
    return problem_response(
        503,
        error.code,
        TITLES[503],
        error.detail,
        headers={"Retry-After": str(RETRY_AFTER)},
        projection=error.projection,
        **({"position": error.position, "min_position": error.wanted} if error.shown else {}),
        retry_after=RETRY_AFTER,
    )


def register(app: Flask) -> None:
    @app.errorhandler(HttpProblem)
    def _problem(error: HttpProblem) -> Response:
        return problem_response(
            error.status, error.code, TITLES.get(error.status, "Error"), error.detail, **error.extra
        )

    @app.errorhandler(errors.DomainError)
    def _refused(error: errors.DomainError) -> Response:
        status = next(STATUS[kind] for kind in type(error).__mro__ if kind in STATUS)
        return problem_response(status, error.code, TITLES[status], error.detail, **error.extra)

    @app.errorhandler(RuleViolation)
    def _rule_broken(violation: RuleViolation) -> Response:
        return problem_response(
            422,
            violation.code,
            TITLES[422],
            violation.message,
            rule=violation.code,
            details=violation.details,
        )

    app.register_error_handler(errors.ProjectionBehind, behind_response)
    app.register_error_handler(HTTPException, http_exception)

    @app.errorhandler(errors.Busy)
    def _busy(error: errors.Busy) -> Response:
        """A lock not granted within lock_timeout (or a statement cut off by
        statement_timeout): nothing was stored; the client may simply retry."""
        app.logger.warning("database busy: %s", error.__cause__)
        return problem_response(503, error.code, TITLES[503], error.detail, {"Retry-After": str(RETRY_AFTER)})

    @app.errorhandler(errors.TooMany)
    def _too_many(error: errors.TooMany) -> Response:
        """This client's own work is still under way: it retries once that is done."""
        return problem_response(429, error.code, TITLES[429], error.detail, {"Retry-After": str(RETRY_AFTER)})

    @app.errorhandler(errors.Unavailable)
    def _unavailable(error: errors.Unavailable) -> Response:
        app.logger.warning("database unavailable: %s", error.__cause__)
        return problem_response(
            503, error.code, TITLES[503], error.detail, {"Retry-After": str(DATABASE_RETRY_AFTER)}
        )

    @app.errorhandler(ClientGone)
    def _client_gone(error: ClientGone) -> Response:
        """Nobody reads this answer: its client hung up, and its work stopped
        (nothing was stored). 499 is the status proxies log for it."""
        app.logger.info("client hung up; its request's work stopped")
        return Response(status=499)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        app.logger.exception("unhandled error")
        return problem_response(500, "internal-error", TITLES[500], "Something went wrong on our side.")
