"""History imports and club restores run as jobs: asked for now, run by a
worker, followed by their progress.

``start_import`` and ``start_restore`` check what can be checked at once
(access, the file's size, the format) and keep the file in ``jobs``; a worker
claims the job (``claim``), runs it (``run``) with the same function an
answered import or restore calls (``imports.import_history``,
``backup.restore``: the same bounds and the same all-or-nothing transaction),
writing how far it has come the way the import page follows its import, and
then keeps the result or the problem. A job is read by the token that started
it (``access.may_see_job``).

Bounded like the answered ones: one unfinished job per client address
(``imports-running``) and ``MAX_WAITING`` in all (``imports-busy``). A worker
that dies under a job leaves nothing stored; the job is claimed again once
``STALE_AFTER`` has passed, at most ``MAX_ATTEMPTS`` times, then fails.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import uuid
from collections.abc import Callable
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from service.records import access
from service.records.access import Principal
from service.records.errors import Busy, DomainError, Invalid, NotFound, TooMany
from service.records.history import backup, formats, imports
from service.records.log.context import Records

#: Jobs queued or running at once, in all.
MAX_WAITING = 20
#: A running job not finished after this long is taken to have lost its worker.
STALE_AFTER = dt.timedelta(minutes=5)
#: Claims of one job before it is failed (its worker kept dying under it).
MAX_ATTEMPTS = 3
#: A queued job is offered to the workers again after this long.
OFFER_AGAIN = dt.timedelta(seconds=30)

#: The problem kept for a job that failed other than by a refusal.
FAILED = {"code": "job-failed", "detail": "The job failed; nothing was stored."}

#: Takes the bounds' lock: starts are counted one at a time.
_START_LOCK = 0x6A6F6273


def start_import(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    fmt: str,
    content: bytes,
    *,
    client: str,
    mapping: dict[str, str],
    skip_unknown_games: bool = False,
    league: UUID | None = None,
    request_id: str | None = None,
) -> dict[str, Any]:
    """Queue the import of a history file into the club (admin token)."""
    principal = access.club_admin(principal, club_id, app_scope="results")
    if fmt not in formats.FORMATS:
        raise Invalid("history-format", f"Unknown format {fmt!r}: bgstats, bgg or csv.")
    if len(content) > formats.MAX_BYTES:
        raise Invalid(
            "history-too-large", f"A history file is at most {formats.MAX_BYTES // (1024 * 1024)} MiB."
        )
    request = {
        "format": fmt,
        "mapping": mapping,
        "skip_unknown_games": skip_unknown_games,
        "league": str(league) if league else None,
        "request_id": request_id,
    }
    started_by = {"kind": principal.kind, "app": str(principal.app_id) if principal.app_id else None}
    started_by["scopes"] = sorted(principal.scopes)
    return _start(records, "history-import", club_id, started_by, client, request, content)


def start_restore(
    records: Records, content: bytes, *, client: str, request_id: str | None = None
) -> dict[str, Any]:
    """Queue a new club's restore from a backup (anyone: the job's address is its key)."""
    if len(content) > backup.MAX_BYTES:
        raise Invalid(
            "backup-too-large", f"A backup restored is at most {backup.MAX_BYTES // (1024 * 1024)} MiB."
        )
    return _start(records, "club-restore", None, None, client, {"request_id": request_id}, content)


def read(records: Records, job_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The job as its starter sees it: status, progress, result or problem.
    A restored club's admin token is in the first read of its result only."""
    with records.pool.connection() as conn:
        row = conn.execute(f"SELECT {_VIEW} FROM jobs WHERE id = %s FOR UPDATE", (job_id,)).fetchone()
        if row is None:
            raise NotFound("job")
        access.may_see_job(principal, row["club_id"], _starter(row["club_id"], row["started_by"]))
        if row["result"] and "admin_token" in row["result"]:
            conn.execute("UPDATE jobs SET result = result - 'admin_token' WHERE id = %s", (job_id,))
    return _view(row)


def waiting(conn: psycopg.Connection) -> list[UUID]:
    """The jobs a worker should be given: queued and not offered lately, or
    running past ``STALE_AFTER``. Each is marked offered."""
    rows = conn.execute(
        "UPDATE jobs SET request = request || jsonb_build_object('offered_at', now())"
        " WHERE id IN (SELECT id FROM jobs WHERE status IN ('queued', 'running')"
        "  AND ((status = 'queued' AND coalesce((request->>'offered_at')::timestamptz, '-infinity') < now() - %s)"
        "   OR (status = 'running' AND started_at < now() - %s))"
        "  ORDER BY created_at LIMIT %s FOR UPDATE SKIP LOCKED)"
        " RETURNING id",
        (OFFER_AGAIN, STALE_AFTER, MAX_WAITING),
    ).fetchall()
    return [r["id"] for r in rows]


def claim(conn: psycopg.Connection, job_id: UUID) -> dict[str, Any] | None:
    """Take the job to run it (None: it is not waiting, or another worker has it)."""
    with conn.transaction():
        row = conn.execute(
            "UPDATE jobs SET status = 'running', attempts = attempts + 1, started_at = now(),"
            " done = 0, total = 0"
            " WHERE id = %s AND (status = 'queued' OR (status = 'running' AND started_at < now() - %s))"
            " RETURNING id, kind, club_id, started_by, request, content, attempts",
            (job_id, STALE_AFTER),
        ).fetchone()
        if row is not None and row["attempts"] > MAX_ATTEMPTS:
            _finish(conn, job_id, "failed", None, FAILED)
            return None
    return row


def run(records: Records, job_id: UUID) -> str | None:
    """Claim and run the job: its result or its problem kept. Returns its
    status (None: nothing to run). An error other than a refusal fails the
    job and is raised again, for the worker's log."""
    with records.pool.connection() as conn:
        conn.autocommit = True
        job = claim(conn, job_id)
    if job is None:
        return None
    positions: list[int] = []  # where its last event is in the log, as an answered write says
    working = dataclasses.replace(records, listeners=[*records.listeners, positions.append])
    try:
        result = _work(working, job, _progress(records, job_id))
        if positions:
            result = {**result, "log_position": max(positions)}
    except DomainError as refused:
        _end(
            records, job_id, "failed", None, {"code": refused.code, "detail": refused.detail, **refused.extra}
        )
        return "failed"
    except Exception:
        _end(records, job_id, "failed", None, FAILED)
        raise
    _end(records, job_id, "done", result, None)
    return "done"


def _work(records: Records, job: dict[str, Any], progress: Callable[[int, int], None]) -> dict[str, Any]:
    request = job["request"]
    if job["kind"] == "club-restore":
        return backup.restore(records, bytes(job["content"]), request["request_id"], progress=progress)
    started = job["started_by"]
    principal = Principal(
        job["club_id"],
        started["kind"],
        app_id=UUID(started["app"]) if started["app"] else None,
        scopes=frozenset(started["scopes"]),
    )
    return imports.import_history(
        records,
        job["club_id"],
        principal,
        request["format"],
        bytes(job["content"]),
        mapping=request["mapping"],
        skip_unknown_games=request["skip_unknown_games"],
        league=UUID(request["league"]) if request["league"] else None,
        request_id=request["request_id"],
        progress=progress,
    )


def _progress(records: Records, job_id: UUID) -> Callable[[int, int], None]:
    """Writes how far the job has come, in its own transaction (seen at once)."""

    def progress(done: int, total: int) -> None:
        with records.pool.connection() as conn:
            conn.execute("UPDATE jobs SET done = %s, total = %s WHERE id = %s", (done, total, job_id))

    return progress


def _start(
    records: Records,
    kind: str,
    club_id: UUID | None,
    started_by: dict[str, Any] | None,
    client: str,
    request: dict[str, Any],
    content: bytes,
) -> dict[str, Any]:
    with records.pool.connection() as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_START_LOCK,))
        counts = conn.execute(
            "SELECT count(*) AS all, count(*) FILTER (WHERE client = %s) AS mine"
            " FROM jobs WHERE status IN ('queued', 'running')",
            (client,),
        ).fetchone()
        if counts["mine"]:
            raise TooMany(
                "imports-running",
                "An import or restore sent from this address is still running: follow its job.",
            )
        if counts["all"] >= MAX_WAITING:
            raise Busy("imports-busy", "The service is running as many imports and restores as it takes.")
        row = conn.execute(
            "INSERT INTO jobs (id, kind, club_id, started_by, client, request, content)"
            f" VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING {_VIEW}",
            (uuid.uuid4(), kind, club_id, Jsonb(started_by), client, Jsonb(request), content),
        ).fetchone()
    return _view(row)


def _end(
    records: Records, job_id: UUID, status: str, result: dict[str, Any] | None, problem: dict[str, Any] | None
) -> None:
    with records.pool.connection() as conn, conn.transaction():
        _finish(conn, job_id, status, result, problem)


def _finish(
    conn: psycopg.Connection,
    job_id: UUID,
    status: str,
    result: dict[str, Any] | None,
    problem: dict[str, Any] | None,
) -> None:
    """The job's end: its outcome kept, its file let go."""
    conn.execute(
        "UPDATE jobs SET status = %s, result = %s, problem = %s, content = NULL, finished_at = now()"
        " WHERE id = %s",
        (status, _json(result), _json(problem), job_id),
    )


def _json(value: dict[str, Any] | None) -> Jsonb | None:
    return None if value is None else Jsonb(json.loads(json.dumps(value, default=str)))


def _starter(club_id: UUID | None, started_by: dict[str, Any] | None) -> Principal | None:
    if club_id is None or started_by is None:
        return None
    app = UUID(started_by["app"]) if started_by["app"] else None
    return Principal(club_id, started_by["kind"], app_id=app)


_VIEW = "id, kind, club_id, started_by, status, done, total, result, problem, created_at, finished_at"


def _view(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "kind": row["kind"],
        "club": row["club_id"],
        "status": row["status"],
        "done": row["done"],
        "total": row["total"],
        "result": row["result"],
        "problem": row["problem"],
        "created_at": row["created_at"],
        "finished_at": row["finished_at"],
    }
