"""The event streams' HTTP side: an ASGI app (Starlette, served by uvicorn).

``GET /streams/games/{game}`` and ``GET /streams/clubs/{club}`` answer
``text/event-stream``: one ``game-event`` (id: the game's version) or
``club-event`` (id: the log position) per event, as the reader may see it,
from the position the reader names (``Last-Event-ID``, which a browser's
EventSource sends by itself when it reconnects, or ``after_version`` /
``after_position``) on, for as long as it stays. An idle stream is a socket
and a suspended coroutine, no thread: thousands cost a few megabytes.

Given an ``upstream`` (``make run``: the API's own address), the app also
passes every other request there unchanged, so that the web pages reach their
streams on their own origin, as a reverse proxy in front of a deployment does
(see the README: a proxy routes ``/streams/`` here and the rest to the API).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import AsyncIterator
from uuid import UUID

import httpx
import orjson
from anyio import to_thread
from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from service.config import Settings
from service.records import errors
from service.records.log.context import Records, Replica
from service.records.log.db import make_pool
from service.records.reading import streams
from service.records.reading.streams import Credential
from service.streams.feeds import Feeds

#: The web pages' session cookie (``service.web.session.COOKIE``).
SESSION_COOKIE = "tablerecord_session"
#: Seconds between the comments that keep an idle stream's proxies from closing it.
PING = 15
#: Milliseconds a browser waits before it reconnects (SSE ``retry``).
RETRY_MS = 1000
STATUS = {errors.Unauthenticated: 401, errors.Forbidden: 403, errors.NotFound: 404, errors.Invalid: 422}
TITLES = {
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    422: "Unprocessable content",
    502: "Bad gateway",
}
#: A position or version: a non-negative integer below 2^63.
NUMBER = re.compile(r"\d{1,18}")


def problem(status: int, code: str, detail: str) -> Response:
    body = {"type": f"https://tablerecord.example/problems/{code}", "title": TITLES.get(status, "Error")}
    body.update(status=status, code=code, detail=detail)
    return Response(orjson.dumps(body) + b"\n", status, media_type="application/problem+json")


def refusal(error: errors.DomainError) -> Response:
    status = next((s for kind, s in STATUS.items() if isinstance(error, kind)), 503)
    return problem(status, error.code, error.detail)


def credential(request: Request) -> Credential:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return Credential(token=token.strip())
    return Credential(web_session=request.cookies.get(SESSION_COOKIE) or None)


def position(request: Request, name: str) -> int | None:
    """Where the reader stands: ``Last-Event-ID`` (a reconnecting EventSource's),
    else the query's ``name``; None: neither. ``Invalid`` when malformed."""
    raw = request.headers.get("last-event-id") or request.query_params.get(name)
    if raw is None:
        return None
    if not NUMBER.fullmatch(raw.strip()):
        raise errors.Invalid("invalid-position", f"Last-Event-ID and {name} are a number of the log.")
    return int(raw)


def identifier(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise errors.NotFound("stream") from None


def create_app(records: Records, database_url: str, upstream: str | None = None) -> Starlette:
    feeds: Feeds | None = None

    async def game_stream(request: Request) -> Response:
        try:
            game_id = identifier(request.path_params["game"])
            after = position(request, "after_version") or 0
            who = credential(request)
            principal = await feeds.who(who)
            await to_thread.run_sync(streams.follow_game, records, game_id, principal)
        except errors.DomainError as error:
            return refusal(error)
        feed = feeds.game(game_id, after)
        return stream(feeds.follow(feed, who, after, "game-event", feeds.games, game_id))

    async def club_stream(request: Request) -> Response:
        try:
            club_id = identifier(request.path_params["club"])
            after = position(request, "after_position")
            who = credential(request)
            principal = await feeds.who(who)
            head = await to_thread.run_sync(streams.follow_club, records, club_id, principal)
        except errors.DomainError as error:
            return refusal(error)
        after = head if after is None else after
        feed = feeds.club(club_id, after)
        return stream(feeds.follow(feed, who, after, "club-event", feeds.clubs, club_id))

    async def health(request: Request) -> Response:
        return Response(b'{"status": "ok"}\n', media_type="application/json")

    routes = [
        Route("/streams/games/{game}", game_stream),
        Route("/streams/clubs/{club}", club_stream),
        Route("/streams/health", health),
    ]
    if upstream:
        client = httpx.AsyncClient(base_url=upstream, timeout=httpx.Timeout(60.0, connect=5.0))

        async def passed_on(request: Request) -> Response:
            return await forward(client, request)

        methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        routes.append(Route("/{path:path}", passed_on, methods=methods))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal feeds
        feeds = app.state.feeds = Feeds(records, database_url)
        feeds.start()
        try:
            yield
        finally:
            await feeds.stop()
            if upstream:
                await client.aclose()

    return Starlette(routes=routes, lifespan=lifespan)


def stream(frames: AsyncIterator[bytes]) -> EventSourceResponse:
    async def with_retry() -> AsyncIterator[bytes]:
        yield b"retry: %d\n\n" % RETRY_MS
        async for chunk in frames:
            yield chunk

    return EventSourceResponse(with_retry(), ping=PING)


#: Hop-by-hop headers, which a proxy never passes on (RFC 9110, 7.6.1).
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
}


async def forward(client: httpx.AsyncClient, request: Request) -> Response:
    """Pass ``request`` to the API as a reverse proxy does, with the client's
    address in ``X-Forwarded-For`` (the API believes one proxy: ``TRUSTED_PROXIES=1``)."""
    headers = [(k, v) for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP]
    peer = request.client.host if request.client else ""
    earlier = request.headers.get("x-forwarded-for")
    headers = [(k, v) for k, v in headers if not k.lower().startswith("x-forwarded-")]
    headers += [
        ("X-Forwarded-For", f"{earlier}, {peer}" if earlier else peer),
        ("X-Forwarded-Proto", request.url.scheme),
        ("X-Forwarded-Host", request.headers.get("host", "")),
    ]
    outgoing = client.build_request(
        request.method,
        httpx.URL(path=request.url.path, query=request.url.query.encode()),
        headers=headers,
        content=request.stream(),
    )
    try:
        answer = await client.send(outgoing, stream=True)
    except httpx.HTTPError:
        return problem(502, "api-unavailable", "The API did not answer; retry in a few seconds.")
    passed = StreamingResponse(
        answer.aiter_raw(), status_code=answer.status_code, background=BackgroundTask(answer.aclose)
    )
    # Every header as it came, each Set-Cookie on its own line.
    passed.raw_headers = [
        (k.encode("latin-1"), v.encode("latin-1"))
        for k, v in answer.headers.multi_items()
        if k.lower() not in HOP_BY_HOP
    ]
    return passed


def from_env() -> Starlette:
    """The app as ``python -m service.streams`` serves it (uvicorn's factory)."""
    settings = Settings.from_env()
    pool = make_pool(
        settings.database_url,
        max_size=settings.pool_size,
        timeout=settings.pool_timeout,
        wait_limit=settings.db_wait_limit,
    )
    replica = None
    if settings.database_replica_url:  # the feeds read what a notice announced there (``feeds``)
        replica = Replica.open(
            settings.database_replica_url,
            settings.replica_max_lag_bytes,
            max_size=settings.pool_size,
            timeout=settings.pool_timeout,
            wait_limit=settings.db_wait_limit,
        )
    records = Records(pool, replica=replica)
    return create_app(records, settings.database_url, os.environ.get("STREAMS_UPSTREAM") or None)
