"""The Flask app factory."""

from __future__ import annotations

import os
import uuid
from typing import Any

from flask import Flask, g, request
from flask_limiter import Limiter
from flask_smorest import Api
from flask_swagger_ui import get_swaggerui_blueprint

from schemas.api import Problem as ProblemSchema
from service.api import problems, wake
from service.auth import rate_limit_key
from service.config import Settings
from service.records.context import Records
from service.records.db import make_pool, ping

API_TITLE = "tablerecord"
API_VERSION = "1.0.0"
API_DESCRIPTION = """Game records for board-game clubs. Every action is checked against the game's rules,
kept forever as an append-only event, and replayable. Authenticate with `Authorization: Bearer <token>`:
the club's admin token (from `POST /clubs`) or a seat token (from `POST /clubs/{club}/games`).
Errors are `application/problem+json` with a stable `code`."""


HEALTH_DOC = {
    "summary": "Liveness: the service answers and reaches its database.",
    "tags": ["health"],
    "security": [],
    "responses": {
        "200": {
            "description": "Up.",
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {
                            "status": {"type": "string", "enum": ["ok"]},
                            "pid": {"type": "integer"},
                        },
                        "required": ["status", "pid"],
                    }
                }
            },
        },
        "503": {
            "description": "The database did not answer.",
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
        },
    },
}


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


class TableRecordApi(Api):
    """flask-smorest's Api with our problem+json errors."""

    ERROR_SCHEMA = ProblemSchema
    # Every operation lists the problems it can answer: no catch-all "default"
    # response, so a client (and the contract tests) know each status code.
    DEFAULT_ERROR_RESPONSE_NAME = None

    def handle_http_exception(self, error):  # noqa: D401 - flask-smorest hook
        return problems.http_exception(error)


def create_app(settings: Settings | None = None, pool=None, **overrides: Any) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask(__name__)
    app.config.update(
        API_TITLE=API_TITLE,
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION},
            "components": {
                "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            },
            "security": [{"bearer": []}, {}],
        },
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        RATELIMIT_ENABLED=settings.rate_limit_enabled,
        RATELIMIT_STORAGE_URI=settings.rate_limit_storage,
        RATELIMIT_HEADERS_ENABLED=False,
        SNAPSHOT_EVERY=settings.snapshot_every,
    )
    app.config.update(overrides)
    if pool is None and settings.database_url:
        pool = make_pool(settings.database_url, max_size=settings.pool_size)
    # the commit listener wakes the projection runners
    app.extensions["tablerecord.records"] = Records(
        pool, settings.snapshot_every, wake.listeners(settings.broker_url)
    )
    app.extensions["tablerecord.settings"] = settings

    api = TableRecordApi(app)
    app.extensions["tablerecord.api"] = api
    # The documentation page and its assets come from the installed
    # flask-swagger-ui package: nothing is fetched from elsewhere.
    app.register_blueprint(get_swaggerui_blueprint("/docs", "/openapi.json", config={"app_name": API_TITLE}))
    problems.register(app)
    limiter = Limiter(rate_limit_key, app=app, default_limits=[settings.rate_limit])
    app.extensions["tablerecord.limiter"] = limiter

    from service.api import (
        catalogs,
        clubs,
        engines,
        games,
        interchange,
        leagues,
        players,
        projections,
        replays,
        standings,
        statistics,
    )

    engines.register_contract(api)
    for module in (
        clubs,
        players,
        leagues,
        catalogs,
        engines,
        games,
        interchange,
        standings,
        replays,
        statistics,
        projections,
    ):
        api.register_blueprint(module.blp)
    from service import web

    web.init_app(app, settings.secret_key)

    @app.before_request
    def _request_id() -> None:
        g.request_id = request.headers.get("X-Request-Id") or uuid.uuid4().hex

    @app.before_request
    def _refuse_nul_characters() -> None:
        """PostgreSQL stores no NUL character in text or jsonb: refuse it up front
        with a clear 422 rather than fail on the insert."""
        body = request.get_json(silent=True) if request.is_json else None
        if body is not None and _has_nul(body):
            raise problems.HttpProblem(
                422, "nul-character", "Text may not contain the NUL character (\\u0000)."
            )

    @app.after_request
    def _echo_request_id(response):
        response.headers["X-Request-Id"] = g.get("request_id", "")
        return response

    @app.get("/health")
    def health():
        ping(app.extensions["tablerecord.records"].pool)
        return {"status": "ok", "pid": os.getpid()}

    api.spec.path(rule=next(app.url_map.iter_rules("health")), operations={"get": HEALTH_DOC})

    return app
