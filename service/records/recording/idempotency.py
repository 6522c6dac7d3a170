"""Idempotency keys: a retry with the same key and body gets the first answer.

A key belongs to the principal that used it (``Principal.label``): the same
key sent by another token is another key, judged and authorised as any first
request, so a replay never tells one token what another entered.

The key row is inserted in the same transaction as the events and the answer
is stored with them. A concurrent copy blocks on the key's unique index until
the first transaction ends: if it committed, the copy reads its answer; if it
rolled back (a rejected action stores nothing), the copy claims the key itself.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from service.records.access import Principal
from service.records.errors import Invalid
from service.records.recording.unit_of_work import WriteResult


def request_hash(body: Any) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def check_key(key: str | None) -> str | None:
    if key is not None and not (0 < len(key) <= 200 and key.isprintable()):
        raise Invalid("invalid-idempotency-key", "An Idempotency-Key is 1 to 200 printable characters.")
    return key


def claim(
    conn: psycopg.Connection, game_id: UUID, principal: Principal, key: str, body_hash: str
) -> WriteResult | None:
    """Claim ``principal``'s ``key`` in this transaction (None), or return its first answer."""
    claimed = conn.execute(
        "INSERT INTO idempotency_keys (game_id, principal, key, request_hash) VALUES (%s, %s, %s, %s)"
        " ON CONFLICT (game_id, principal, key) DO NOTHING RETURNING key",
        (game_id, principal.label(), key, body_hash),
    ).fetchone()
    if claimed:
        return None
    row = conn.execute(
        "SELECT request_hash, status, response FROM idempotency_keys"
        " WHERE game_id = %s AND principal = %s AND key = %s",
        (game_id, principal.label(), key),
    ).fetchone()
    if row["request_hash"] != body_hash:
        raise Invalid("idempotency-key-reused", "This Idempotency-Key was used with a different body.")
    return WriteResult(row["status"], row["response"], replayed=True)


def keep_answer(
    conn: psycopg.Connection, game_id: UUID, principal: Principal, key: str, result: WriteResult
) -> None:
    conn.execute(
        "UPDATE idempotency_keys SET status = %s, response = %s"
        " WHERE game_id = %s AND principal = %s AND key = %s",
        (result.status, Jsonb(result.body), game_id, principal.label(), key),
    )
