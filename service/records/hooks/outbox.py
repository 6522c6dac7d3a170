"""The deliveries' table: written by the outbox runner in its checkpoint's
transaction, claimed and settled by the senders.

A sender claims a due delivery by moving its next attempt past the attempt
it is about to make (a lease): a sender killed mid-delivery leaves the
delivery pending, and it is sent again, under the same ``webhook-id``, when
that lease runs out. So a delivery is made at least once.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

import orjson
import psycopg

from engines import registry
from service.records.hooks.messages import TAKE_BACK, GameContext, Told, derive
from service.records.log import fold
from service.records.log.store import StoredEvent

#: Attempts of one delivery before it is given up.
MAX_ATTEMPTS = int(os.environ.get("WEBHOOK_MAX_ATTEMPTS", "8"))
#: Failed attempts in a row (of any of its deliveries) after which a webhook is disabled.
DISABLE_AFTER = int(os.environ.get("WEBHOOK_DISABLE_AFTER", "20"))
#: Seconds before the first retry; each next one waits twice as long, at most an hour.
RETRY_SECONDS = float(os.environ.get("WEBHOOK_RETRY_SECONDS", "5"))
LONGEST_WAIT = 3600.0
#: Longest one attempt may take (connecting, sending, the answer); see workers/webhooks.py.
ATTEMPT_SECONDS = float(os.environ.get("WEBHOOK_TIMEOUT", "5"))


@dataclass(frozen=True)
class Claimed:
    id: UUID
    webhook_id: UUID
    position: int
    event: str
    data: dict[str, Any]
    occurred_at: datetime
    attempts: int  # this attempt's number
    url: str
    secret: str
    format: str


def contexts(conn: psycopg.Connection, game_ids: set[UUID]) -> dict[UUID, GameContext]:
    rows = conn.execute(
        "SELECT g.id, g.club_id, g.league_id, g.engine,"
        " (SELECT coalesce(jsonb_agg(p.name ORDER BY s.i), '[]') FROM jsonb_array_elements_text(g.seats)"
        "  WITH ORDINALITY AS s(player, i) LEFT JOIN players p ON p.id::text = s.player) AS players"
        " FROM games g WHERE g.id = ANY(%s)",
        (list(game_ids),),
    ).fetchall()
    return {
        r["id"]: GameContext(r["club_id"], r["league_id"], r["engine"], _title(r["engine"]), r["players"])
        for r in rows
    }


def _title(engine: str) -> str:
    return registry.get(engine).title if engine in registry.available() else engine


def checkpoint(conn: psycopg.Connection) -> int:
    """The last log position whose deliveries are written."""
    return int(conn.execute("SELECT position FROM webhook_outbox").fetchone()["position"])


def advance(conn: psycopg.Connection, position: int) -> None:
    conn.execute(
        "UPDATE webhook_outbox SET position = %s, updated_at = now() WHERE position <= %s",
        (position, position),
    )


def ended_before(conn: psycopg.Connection, events: list[StoredEvent]) -> set[tuple[UUID, int]]:
    """Of ``events``, those (game, version) whose game's previous event is its ``GameEnded``."""
    if not events:
        return set()
    rows = conn.execute(
        "SELECT e.game_id, e.version + 1 AS version FROM events e"
        " JOIN unnest(%s::uuid[], %s::bigint[]) AS w(game_id, version)"
        " ON e.game_id = w.game_id AND e.version = w.version - 1"
        " WHERE e.type = %s",
        ([e.game_id for e in events], [e.version for e in events], fold.GAME_ENDED),
    ).fetchall()
    return {(r["game_id"], r["version"]) for r in rows}


def record(conn: psycopg.Connection, events: list[StoredEvent]) -> int:
    """In the caller's (the outbox's checkpoint) transaction: one delivery per
    derived event and webhook of its club that wants it and was made before it."""
    if not events:
        return 0
    games = contexts(conn, {e.game_id for e in events})
    ended = ended_before(conn, [e for e in events if e.type in TAKE_BACK and games.get(e.game_id)])
    told: list[Told] = [
        t
        for e in events
        if e.game_id in games
        for t in derive(e, games[e.game_id], (e.game_id, e.version) in ended)
    ]
    if not told:
        return 0
    hooks = conn.execute(
        "SELECT id, club_id, events, after_position FROM webhooks WHERE club_id = ANY(%s) AND ended_at IS NULL",
        (list({t.club_id for t in told}),),
    ).fetchall()
    by_club: dict[UUID, list[dict[str, Any]]] = defaultdict(list)
    for hook in hooks:
        by_club[hook["club_id"]].append(hook)
    rows = [
        (uuid4(), h["id"], t.position, t.event, orjson.dumps(t.data).decode(), t.occurred_at)
        for t in told
        for h in by_club[t.club_id]
        if t.event in h["events"] and t.position > h["after_position"]
    ]
    if rows:
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO webhook_deliveries (id, webhook_id, position, event, data, occurred_at)"
                " VALUES (%s, %s, %s, %s, %s::jsonb, %s)",
                rows,
            )
    return len(rows)


CLAIM = """
WITH due AS (
    SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= now()
      AND w.disabled_at IS NULL AND w.ended_at IS NULL
    ORDER BY d.next_attempt_at, d.position
    LIMIT %(limit)s
    FOR UPDATE OF d SKIP LOCKED
)
UPDATE webhook_deliveries d
SET attempts = d.attempts + 1,
    next_attempt_at = now() + make_interval(secs => greatest(
        least(%(retry)s * power(2, d.attempts), %(longest)s), %(attempt)s + 1))
FROM due, webhooks w
WHERE d.id = due.id AND w.id = d.webhook_id
RETURNING d.id, d.webhook_id, d.position, d.event, d.data::text AS data, d.occurred_at, d.attempts,
          w.url, w.secret, w.format
"""


def claim(conn: psycopg.Connection, limit: int = 20) -> list[Claimed]:
    """Due deliveries of enabled webhooks, each leased until its next retry."""
    with conn.transaction():
        rows = conn.execute(
            CLAIM,
            {"limit": limit, "retry": RETRY_SECONDS, "longest": LONGEST_WAIT, "attempt": ATTEMPT_SECONDS},
        ).fetchall()
    return [Claimed(**{**r, "data": orjson.loads(r["data"])}) for r in rows]


def delivered(conn: psycopg.Connection, delivery: Claimed, status: int) -> None:
    with conn.transaction():
        conn.execute(
            "UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), last_status = %s,"
            " last_error = NULL WHERE id = %s AND status = 'pending'",
            (status, delivery.id),
        )
        conn.execute(
            "UPDATE webhooks SET failures = 0 WHERE id = %s AND failures > 0", (delivery.webhook_id,)
        )


def failed(conn: psycopg.Connection, delivery: Claimed, status: int | None, error: str) -> None:
    """An attempt failed: the delivery waits for its retry (or is given up
    after MAX_ATTEMPTS), and the webhook is disabled after DISABLE_AFTER failures in a row."""
    with conn.transaction():
        conn.execute(
            "UPDATE webhook_deliveries SET last_status = %s, last_error = %s,"
            " status = CASE WHEN attempts >= %s THEN 'failed' ELSE status END"
            " WHERE id = %s AND status = 'pending'",
            (status, error[:500], MAX_ATTEMPTS, delivery.id),
        )
        conn.execute(
            "UPDATE webhooks SET failures = failures + 1,"
            " disabled_at = CASE WHEN failures + 1 >= %(most)s THEN coalesce(disabled_at, now()) END,"
            " disabled_reason = CASE WHEN failures + 1 >= %(most)s THEN %(reason)s END"
            " WHERE id = %(id)s",
            {
                "most": DISABLE_AFTER,
                "id": delivery.webhook_id,
                "reason": f"{DISABLE_AFTER} attempts in a row failed; the last: {error[:200]}",
            },
        )


def defer(conn: psycopg.Connection, delivery: Claimed, seconds: float) -> None:
    """Put the attempt off (it does not count): what it tells is not read yet."""
    with conn.transaction():
        conn.execute(
            "UPDATE webhook_deliveries SET attempts = attempts - 1,"
            " next_attempt_at = now() + make_interval(secs => %s) WHERE id = %s AND status = 'pending'",
            (seconds, delivery.id),
        )


def next_due_in(conn: psycopg.Connection) -> float | None:
    """Seconds until the next pending delivery of an enabled webhook is due (0: now; None: none)."""
    row = conn.execute(
        "SELECT extract(epoch FROM min(d.next_attempt_at) - now()) AS wait"
        " FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id"
        " WHERE d.status = 'pending' AND w.disabled_at IS NULL AND w.ended_at IS NULL"
    ).fetchone()
    return None if row["wait"] is None else max(float(row["wait"]), 0.0)


def standings_top(conn: psycopg.Connection, league_id: UUID, position: int) -> list[tuple[str, float]] | None:
    """The league's first three by its standings once they include ``position`` (None: not yet)."""
    at = conn.execute("SELECT position FROM projection_checkpoints WHERE projection = 'standings'").fetchone()
    if at is None or at["position"] < position:
        return None
    rows = conn.execute(
        "SELECT p.name, s.points FROM standings s JOIN players p ON p.id = s.player_id"
        " WHERE s.league_id = %s ORDER BY s.ranked DESC, s.rank NULLS LAST, s.points DESC, s.wins DESC, p.name"
        " LIMIT 3",
        (league_id,),
    ).fetchall()
    return [(r["name"], r["points"]) for r in rows]
