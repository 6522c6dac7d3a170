"""The webhook senders: post each due delivery, signed, and record how it went.

A delivery is claimed (leased until its next retry: ``outbox.claim``), posted
with a short timeout to an address of its host checked again now (and the
connection made to that very address, so a name that changes its answer
between the check and the post cannot turn it inward), never following a
redirect, and then marked delivered (a 2xx) or failed (anything else: a
retry after a back-off that doubles, the webhook disabled after repeated
failures). A worker killed between the post and the record sends it again
when the lease runs out, under the same ``webhook-id``: at least once.
"""

from __future__ import annotations

import http.client
import logging
import socket
import ssl
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import UTC, datetime

import psycopg

from service.records.errors import Invalid
from service.records.hooks import addresses, messages, outbox
from service.records.hooks.outbox import Claimed
from workers import faults

log = logging.getLogger(__name__)

#: Deliveries in flight at once per worker process.
SENDERS = 8
#: The most of a receiver's answer read (its body is not used).
ANSWER_BYTES = 4096
#: Seconds an attempt is put off while the standings it quotes are not read yet.
STANDINGS_WAIT = 0.25
USER_AGENT = "tablerecord-webhooks"


@dataclass(frozen=True)
class Outcome:
    status: int | None
    error: str | None  # None: delivered


class _Pinned(http.client.HTTPConnection):
    """HTTP to ``address`` (already checked) for ``host``."""

    def __init__(self, host: str, port: int, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedTLS(_Pinned):
    """HTTPS to ``address`` (already checked), the certificate checked for ``host``."""

    tls = ssl.create_default_context()

    def connect(self) -> None:
        super().connect()
        self.sock = self.tls.wrap_socket(self.sock, server_hostname=self.host)


def post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> Outcome:
    """One attempt: POST ``body`` to ``url``; a 2xx is delivered."""
    try:
        target = addresses.resolve(url)
    except Invalid as refused:
        return Outcome(None, refused.detail)
    kind = _PinnedTLS if target.scheme == "https" else _Pinned
    connection = kind(target.host, target.port, target.addresses[0], timeout)
    try:
        connection.request(
            "POST", target.path, body, {**headers, "user-agent": USER_AGENT, "connection": "close"}
        )
        answer = connection.getresponse()
        answer.read(ANSWER_BYTES)
    except (OSError, http.client.HTTPException) as error:
        return Outcome(None, f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)
    finally:
        connection.close()
    if 200 <= answer.status < 300:
        return Outcome(answer.status, None)
    if 300 <= answer.status < 400:
        return Outcome(answer.status, f"HTTP {answer.status}: redirects are not followed")
    return Outcome(answer.status, f"HTTP {answer.status}")


def body_of(conn: psycopg.Connection, delivery: Claimed) -> bytes | None:
    """The delivery's body in its webhook's format (None: not ready, put off)."""
    if delivery.format == "discord":
        top: list[tuple[str, float]] = []
        if delivery.event == messages.GAME_ENDED and delivery.data.get("league"):
            top = outbox.standings_top(conn, delivery.data["league"], delivery.position)
            if top is None:
                return None
        return messages.discord_body(delivery.event, delivery.data, top)
    return messages.standard_body(delivery.event, delivery.position, delivery.data, delivery.occurred_at)


def attempt(delivery: Claimed, body: bytes) -> Outcome:
    headers = messages.headers(delivery.secret, messages.message_id(delivery.id), body, datetime.now(UTC))
    outcome = post(delivery.url, body, headers, outbox.ATTEMPT_SECONDS)
    faults.point("webhooks", "after-post")
    return outcome


def settle(conn: psycopg.Connection, delivery: Claimed, outcome: Outcome) -> None:
    if outcome.error is None:
        outbox.delivered(conn, delivery, outcome.status)
    else:
        log.info("webhook delivery %s (attempt %d) failed: %s", delivery.id, delivery.attempts, outcome.error)
        outbox.failed(conn, delivery, outcome.status, outcome.error)


def deliver_due(conn: psycopg.Connection, budget: float, refill: Callable[[], object] = lambda: None) -> int:
    """Send due deliveries, SENDERS at once, calling ``refill`` (the outbox's
    catch-up) before each claim so that new deliveries join the ones in
    flight, until none is due within a second or ``budget`` seconds are
    spent; the number settled."""
    deadline = time.monotonic() + budget
    settled = 0
    inflight: dict[Future, Claimed] = {}
    with ThreadPoolExecutor(SENDERS, thread_name_prefix="webhook") as pool:
        while True:
            if len(inflight) < SENDERS and time.monotonic() < deadline:
                refill()
                for delivery in outbox.claim(conn, SENDERS - len(inflight)):
                    body = body_of(conn, delivery)
                    if body is None:
                        outbox.defer(conn, delivery, STANDINGS_WAIT)
                    else:
                        inflight[pool.submit(attempt, delivery, body)] = delivery
            if not inflight:
                due = outbox.next_due_in(conn)
                if due is None or due > 1.0 or time.monotonic() + due >= deadline:
                    return settled
                time.sleep(max(due, 0.02))
                continue
            done, _ = wait(inflight, timeout=0.02, return_when=FIRST_COMPLETED)
            for future in done:
                settle(conn, inflight.pop(future), future.result())
                settled += 1
