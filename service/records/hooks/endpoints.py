"""A club's webhooks, as its organiser manages them (the club's admin access)."""

from __future__ import annotations

import base64
import secrets
import uuid
from typing import Any
from uuid import UUID

import psycopg

from service.records import access
from service.records.access import Principal
from service.records.errors import Invalid, NotFound
from service.records.hooks import addresses, outbox
from service.records.hooks.messages import EVENTS, FORMATS, message_id
from service.records.log import store
from service.records.log.context import Records

#: Webhooks one club may have at once.
MOST_WEBHOOKS = 20
COLUMNS = "id, url, events, format, created_at, disabled_at, disabled_reason, failures, after_position"
DELIVERY_COLUMNS = "id, position, event, status, attempts, last_status, last_error, next_attempt_at, delivered_at, created_at"


def new_secret() -> str:
    """A Standard Webhooks secret: ``whsec_`` and 24 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def _view(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "disabled": row["disabled_at"] is not None}


def create(
    records: Records, club_id: UUID, principal: Principal | None, url: str, events: list[str], format: str
) -> dict[str, Any]:
    """A webhook of the club, told of the ``events`` committed from now on; its secret is shown once."""
    access.club_admin(principal, club_id)
    unknown = sorted(set(events) - set(EVENTS))
    if unknown or not events:
        raise Invalid(
            "webhook-events", f"A webhook wants one or more of {', '.join(EVENTS)}.", unknown=unknown
        )
    if format not in FORMATS:
        raise Invalid("webhook-format", f"A webhook's format is one of {', '.join(FORMATS)}.")
    addresses.resolve(url)
    secret = new_secret()
    with records.pool.connection() as conn, conn.transaction():
        conn.execute("SELECT id FROM clubs WHERE id = %s FOR UPDATE", (club_id,))
        count = conn.execute(
            "SELECT count(*) AS n FROM webhooks WHERE club_id = %s AND ended_at IS NULL", (club_id,)
        ).fetchone()["n"]
        if count >= MOST_WEBHOOKS:
            raise Invalid("too-many-webhooks", f"A club has at most {MOST_WEBHOOKS} webhooks.")
        after = max(store.head_position(conn), outbox.checkpoint(conn))
        row = conn.execute(
            f"INSERT INTO webhooks (id, club_id, url, events, format, secret, after_position)"
            f" VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING {COLUMNS}",
            (uuid.uuid4(), club_id, url, list(dict.fromkeys(events)), format, secret, after),
        ).fetchone()
    return {**_view(row), "secret": secret}


def webhooks(records: Records, club_id: UUID, principal: Principal | None) -> list[dict[str, Any]]:
    """The club's webhooks (their secrets are not shown again)."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT {COLUMNS} FROM webhooks WHERE club_id = %s AND ended_at IS NULL ORDER BY created_at",
            (club_id,),
        ).fetchall()
    return [_view(r) for r in rows]


def _webhook(conn: psycopg.Connection, club_id: UUID, webhook_id: UUID, lock: bool = False) -> dict[str, Any]:
    row = conn.execute(
        f"SELECT {COLUMNS} FROM webhooks WHERE id = %s AND club_id = %s AND ended_at IS NULL"
        + (" FOR UPDATE" if lock else ""),
        (webhook_id, club_id),
    ).fetchone()
    if row is None:
        raise NotFound("webhook")
    return row


def end(records: Records, club_id: UUID, webhook_id: UUID, principal: Principal | None) -> None:
    """End a webhook: nothing more is sent to it, its pending deliveries included."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn, conn.transaction():
        _webhook(conn, club_id, webhook_id, lock=True)
        conn.execute("UPDATE webhooks SET ended_at = now() WHERE id = %s", (webhook_id,))


def deliveries(
    records: Records,
    club_id: UUID,
    webhook_id: UUID,
    principal: Principal | None,
    after_position: int = 0,
    limit: int = 100,
) -> dict[str, Any]:
    """A webhook's deliveries in log order from ``after_position``: each one's
    status, attempts, the receiver's last status and the last error."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        hook = _webhook(conn, club_id, webhook_id)
        rows = conn.execute(
            f"SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = %s AND position > %s"
            " ORDER BY position, created_at LIMIT %s",
            (webhook_id, after_position, limit),
        ).fetchall()
    items = [{**r, "webhook_id": message_id(r["id"])} for r in rows]
    return {"webhook": _view(hook), "deliveries": items}


def redeliver(
    records: Records, club_id: UUID, webhook_id: UUID, principal: Principal | None, after_position: int
) -> dict[str, Any]:
    """Send again every delivery of the webhook after ``after_position``
    (delivered, given up or pending alike, each under its own ``webhook-id``),
    from their first attempt; a disabled webhook is enabled again."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn, conn.transaction():
        _webhook(conn, club_id, webhook_id, lock=True)
        count = conn.execute(
            "UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(),"
            " delivered_at = NULL WHERE webhook_id = %s AND position > %s",
            (webhook_id, after_position),
        ).rowcount
        conn.execute(
            "UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL, failures = 0 WHERE id = %s",
            (webhook_id,),
        )
    return {"redelivering": count}


def disabled(conn: psycopg.Connection, club_id: UUID) -> list[dict[str, Any]]:
    """The club's webhooks disabled after repeated failures (its page tells the organiser)."""
    return conn.execute(
        "SELECT url, disabled_at, disabled_reason FROM webhooks"
        " WHERE club_id = %s AND ended_at IS NULL AND disabled_at IS NOT NULL ORDER BY disabled_at",
        (club_id,),
    ).fetchall()
