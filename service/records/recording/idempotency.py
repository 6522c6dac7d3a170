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

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import psycopg
from cryptography.fernet import Fernet
from psycopg.types.json import Jsonb

from service.records import access
from service.records.access import Principal
from service.records.errors import Invalid
from service.records.log.context import Records
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


# -- every other write ---------------------------------------------------------------
#
# Actions keep their key with their events, in one transaction (so do game
# imports, for the domain's other doors). Every write of the API but actions is
# answered once per key by
# ``service.api.common.idempotent``: the key is claimed before the write runs,
# its answer kept after it, and a refused or failed write lets the key go. The
# answer is sealed (Fernet) under a key made of the caller's token and the
# Idempotency-Key, neither of which is stored: what the table holds signs
# nobody in, though the answer it replays may carry tokens.

#: How long a claim whose answer never came (its process died) holds its key.
CLAIM_SECONDS = 60


@dataclass(frozen=True)
class KeptAnswer:
    """What a write answered: ``status`` None while it still runs."""

    status: int | None
    answer: bytes | None
    headers: dict[str, str]


def _sealer(token: str | None, key: str) -> Fernet:
    secret = hmac.new(key.encode(), (token or "").encode(), hashlib.sha256).digest()
    return Fernet(base64.urlsafe_b64encode(secret))


def _owner(token: str | None) -> str:
    return access.hash_token(token) if token else "anonymous"


def claim_request(records: Records, token: str | None, key: str, body_hash: str) -> KeptAnswer | None:
    """Claim the key of the holder of ``token`` (None: an anonymous write) for a
    write of ``body_hash`` (None: claimed), or return what its first use
    answered (or that it still runs); another body under it is refused."""
    owner, key_hash = _owner(token), hashlib.sha256(key.encode()).hexdigest()
    with records.pool.connection() as conn:
        claimed = conn.execute(
            "INSERT INTO request_keys (principal, key_hash, request_hash) VALUES (%s, %s, %s)"
            " ON CONFLICT (principal, key_hash) DO UPDATE SET request_hash = EXCLUDED.request_hash,"
            " created_at = now() WHERE request_keys.status IS NULL"
            " AND request_keys.created_at < now() - make_interval(secs => %s) RETURNING key_hash",
            (owner, key_hash, body_hash, CLAIM_SECONDS),
        ).fetchone()
        if claimed:
            return None
        row = conn.execute(
            "SELECT request_hash, status, answer, headers FROM request_keys WHERE principal = %s AND key_hash = %s",
            (owner, key_hash),
        ).fetchone()
    if row is None:  # let go meanwhile: claim it again
        return claim_request(records, token, key, body_hash)
    if row["request_hash"] != body_hash:
        raise Invalid("idempotency-key-reused", "This Idempotency-Key was used with a different body.")
    if row["status"] is None:
        return KeptAnswer(None, None, {})
    return KeptAnswer(row["status"], _sealer(token, key).decrypt(bytes(row["answer"])), row["headers"])


def keep_request_answer(
    records: Records, token: str | None, key: str, status: int, answer: bytes, headers: dict[str, str]
) -> None:
    """Keep the write's answer under its claimed key, sealed."""
    with records.pool.connection() as conn:
        conn.execute(
            "UPDATE request_keys SET status = %s, answer = %s, headers = %s WHERE principal = %s AND key_hash = %s",
            (
                status,
                _sealer(token, key).encrypt(answer),
                Jsonb(headers),
                _owner(token),
                hashlib.sha256(key.encode()).hexdigest(),
            ),
        )


def release_request(records: Records, token: str | None, key: str) -> None:
    """Let a key go: its write was refused or failed and stored nothing."""
    with records.pool.connection() as conn:
        conn.execute(
            "DELETE FROM request_keys WHERE principal = %s AND key_hash = %s AND status IS NULL",
            (_owner(token), hashlib.sha256(key.encode()).hexdigest()),
        )
