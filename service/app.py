"""The Flask app factory."""

from __future__ import annotations

import random
import uuid
from typing import Any

from flask import Flask, Response, g, render_template
from flask_limiter import ApplicationLimit, Limiter
from flask_smorest import Api
from redis.backoff import NoBackoff
from redis.retry import Retry
from werkzeug.middleware.proxy_fix import ProxyFix

from schemas.api import Problem as ProblemSchema
from service.api import bodies, conditional, problems, stream_docs, wake
from service.api.admission import Admission
from service.api.common import OWN_KEYS, WRITES, WritesTakeIdempotencyKey, idempotent
from service.api.framework import ServiceFlask
from service.auth import authenticates, client_address, failed_authentication, rate_limit_key
from service.config import Settings
from service.records.club.catalogs import check_shipped
from service.records.history import sealing
from service.records.log.context import Records, Replica
from service.records.log.db import make_pool, ping

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
                        },
                        "required": ["status"],
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


#: The endpoints that make a club, all under the one club-creation limit.
CLUB_DOORS = ("clubs.create_club", "history.restore_club", "web.new_club")


#: The endpoints that read, replay and judge a whole file: so many at once (``service.api.admission``).
IMPORTS = (
    "history.import_history",
    "history.restore_club",
    "web.history_choose",
    "web.history_check",
    "web.history_run",
)


class TableRecordApi(Api):
    """flask-smorest's Api with our problem+json errors."""

    ERROR_SCHEMA = ProblemSchema
    # Every operation lists the problems it can answer: no catch-all "default"
    # response, so a client (and the contract tests) know each status code.
    DEFAULT_ERROR_RESPONSE_NAME = None

    def handle_http_exception(self, error):  # noqa: D401 - flask-smorest hook
        return problems.http_exception(error)


#: The API reference's page: Redoc's styles are injected at run time and its search runs in a worker.
API_REFERENCE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "worker-src 'self' blob:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)


def api_reference() -> Response:
    """``/docs``: openapi.json drawn by the vendored Redoc (``service/web/static/vendor/``), nothing
    loaded from elsewhere; it reads on a phone and passes the pages' accessibility checks."""
    response = Response(render_template("api_reference.html", title=API_TITLE))
    response.headers["Content-Security-Policy"] = API_REFERENCE_POLICY
    return response


def create_app(settings: Settings | None = None, pool=None, **overrides: Any) -> Flask:
    settings = settings or Settings.from_env()
    app = ServiceFlask(__name__)
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
        pool = make_pool(
            settings.database_url,
            max_size=settings.pool_size,
            timeout=settings.pool_timeout,
            wait_limit=settings.db_wait_limit,
        )
    # the commit listeners wake the projection runners and note a write's log position
    replica = None
    if settings.database_replica_url:
        replica = Replica.open(
            settings.database_replica_url,
            settings.replica_max_lag_bytes,
            max_size=settings.pool_size,
            timeout=settings.pool_timeout,
            wait_limit=settings.db_wait_limit,
        )
    app.extensions["tablerecord.records"] = Records(
        pool,
        settings.snapshot_every,
        [*wake.listeners(settings.broker_url), conditional.note_position],
        replica,
        sealing.keys_of(settings.backup_seal_key),
    )
    app.extensions["tablerecord.settings"] = settings
    if settings.trusted_proxies:
        # The last ``trusted_proxies`` hops of X-Forwarded-For/-Proto/-Host/-Port
        # are the proxies' own word: the client's address (which the limits
        # count), https (which makes cookies Secure) and the links' host.
        n = settings.trusted_proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n, x_port=n)
    if pool is not None:
        check_shipped(app.extensions["tablerecord.records"])

    api = TableRecordApi(app, spec_kwargs={"extra_plugins": [WritesTakeIdempotencyKey()]})
    app.extensions["tablerecord.api"] = api
    app.add_url_rule("/docs", "api_reference", api_reference, strict_slashes=False)
    problems.register(app)
    limiter = _limiter(app, settings)

    from service.api.routes import (
        apps,
        catalogs,
        clubs,
        engines,
        games,
        history,
        interchange,
        leagues,
        nights,
        players,
        results,
        tournaments,
        webhooks,
    )
    from service.api.routes.reads import profiles, projections, replays, standings, statistics

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
        results,
        history,
        profiles,
        tournaments,
        apps,
        webhooks,
        nights,
    ):
        api.register_blueprint(module.blp)
    api_endpoints = set(app.view_functions)
    from service import web

    web.init_app(app, settings.secret_key)

    @app.before_request
    def _request_id() -> None:
        g.request_id = _new_request_id()  # first: a refused X-Request-Id is answered with this one
        g.request_id = bodies.request_id() or g.request_id

    app.before_request(bodies.check_url_text)
    app.before_request(bodies.check_json_body)

    app.after_request(conditional.log_position)

    @app.after_request
    def _echo_request_id(response):
        response.headers["X-Request-Id"] = g.get("request_id", "")
        return response

    @app.get("/health")
    @limiter.exempt
    def health():
        """Up, and the database answers (a 503 problem otherwise)."""
        ping(app.extensions["tablerecord.records"].pool)
        return {"status": "ok"}

    # Every write of the API says the log position it appended at, in its body
    # as in its header, and answers once per Idempotency-Key (a new route too).
    for rule in app.url_map.iter_rules():
        if rule.endpoint in api_endpoints and rule.methods & WRITES:
            view = conditional.positioned(app.view_functions[rule.endpoint])
            app.view_functions[rule.endpoint] = view if rule.endpoint in OWN_KEYS else idempotent(view)

    # One allowance per client address for every way a club is made: the
    # API's, a restore, and the web page's form, counted together.
    creating_a_club = limiter.shared_limit(
        settings.club_creation_limit, scope="club-creation", key_func=client_address, override_defaults=False
    )
    for door in CLUB_DOORS:
        app.view_functions[door] = creating_a_club(app.view_functions[door])
    admission = Admission(settings.imports_at_once, settings.imports_per_address)
    for heavy in IMPORTS:
        app.view_functions[heavy] = admission.guard(app.view_functions[heavy])

    api.spec.path(rule=next(app.url_map.iter_rules("health")), operations={"get": HEALTH_DOC})
    stream_docs.document(api.spec)

    return app


def _new_request_id() -> str:
    """A random id for a request that brought none. It only has to be unique,
    so it comes from the process's generator (reseeded in each forked
    worker), not from the system's: one system call less per request."""
    return uuid.UUID(int=random.getrandbits(128), version=4).hex


def _limiter(app: Flask, settings: Settings) -> Limiter:
    """Requests are counted per token that authenticates, otherwise per client
    address; a failed authentication also counts against the address's own
    allowance (which never holds back a token that authenticates). When the shared storage (Redis) fails or stalls, each process
    counts in its own memory until the storage answers again (Flask-Limiter's
    in-memory fallback): an outage of the broker never fails or holds a request."""
    storage_options: dict[str, Any] = {}
    if settings.rate_limit_storage.startswith(("redis", "unix")):
        storage_options = {
            "socket_timeout": settings.rate_limit_storage_timeout,
            "socket_connect_timeout": settings.rate_limit_storage_timeout,
            "retry": Retry(NoBackoff(), 0),
        }
    limiter = Limiter(
        rate_limit_key,
        app=app,
        default_limits=[settings.rate_limit],
        application_limits=[
            ApplicationLimit(
                settings.auth_failure_limit,
                key_function=client_address,
                scope="failed-authentication",
                deduct_when=failed_authentication,
                exempt_when=authenticates,
            )
        ],
        storage_options=storage_options,
        in_memory_fallback_enabled=True,
        # A request that meets the storage failing after another one has
        # already switched to memory (or a failed authentication counted after
        # its answer) goes on uncounted instead of failing with a 500.
        swallow_errors=True,
    )
    app.extensions["tablerecord.limiter"] = limiter
    return limiter
