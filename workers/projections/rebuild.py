"""Rebuild projections from zero (``python -m workers.rebuild [name ...]``).

Each projection is rebuilt into fresh copies of its tables in a side schema
(``<schema>_rebuild_<name>``), reading the whole log from position 0 while
the live projection keeps serving and updating. Once the copy has caught up,
one transaction takes the projection's runner lock (waiting for a running
batch to finish), applies the last few events, drops the old tables and
moves the new ones in, and carries over the checkpoint and the error list.
Readers see either the old tables or the finished new ones, never a
half-built projection; the checkpoint never goes backwards (the copy is at
the head, at or past the old one).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from psycopg import sql

from service.records.log import store
from workers import db
from workers.projections import PROJECTIONS
from workers.projections.checkpoints import checkpoint, lock, lock_key, main_schema
from workers.runner import DEFAULT_BATCH, apply_batch

SHARED = ("projection_checkpoints", "projection_errors")


@dataclass(frozen=True)
class Rebuilt:
    projection: str
    events: int
    position: int
    seconds: float


#: Told after each batch that read on: (log position reached, the log's head when the rebuild began).
OnProgress = Callable[[int, int], None]


def rebuild(
    url: str, name: str, batch_size: int = DEFAULT_BATCH * 10, on_progress: OnProgress | None = None
) -> Rebuilt:
    projection = PROJECTIONS[name]
    started = time.perf_counter()
    with db.connect(url, lock_timeout="60s", statement_timeout="0") as conn:
        schema = main_schema(conn)
        head = store.head_position(conn)
        side = f"{schema}_rebuild_{name}"[:63]
        # One rebuild of a projection at a time (its own lock, not the runner's).
        conn.execute("SELECT pg_advisory_lock(%s)", (lock_key(schema, f"rebuild:{name}"),))
        try:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(side)))
            conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(side)))
            for table in (*projection.tables, *SHARED):
                conn.execute(
                    sql.SQL("CREATE TABLE {}.{} (LIKE {}.{} INCLUDING ALL)").format(
                        sql.Identifier(side),
                        sql.Identifier(table),
                        sql.Identifier(schema),
                        sql.Identifier(table),
                    )
                )
            conn.execute(
                sql.SQL("INSERT INTO {}.projection_checkpoints (projection) VALUES (%s)").format(
                    sql.Identifier(side)
                ),
                (name,),
            )
            # Unqualified names: the projection's tables in the side schema, the log and the rest in ours.
            conn.execute(
                sql.SQL("SET search_path = {}, {}").format(sql.Identifier(side), sql.Identifier(schema))
            )
            events = 0
            while True:  # catch up without the runner's lock
                with conn.transaction():
                    progress = apply_batch(conn, projection, batch_size)
                events += progress.applied
                if on_progress is not None and progress.moved:
                    on_progress(progress.after, head)
                if not progress.full:
                    break
            with conn.transaction():  # the rest and the swap, holding the runner's lock
                lock(conn, lock_key(schema, name))
                while True:
                    progress = apply_batch(conn, projection, batch_size)
                    events += progress.applied
                    position = progress.after
                    if not progress.moved:
                        break
                conn.execute(sql.SQL("SET LOCAL search_path = {}").format(sql.Identifier(schema)))
                old = checkpoint(conn, name)
                if position < old:
                    raise RuntimeError(f"rebuilt {name} at {position} is behind the live one at {old}")
                for table in projection.tables:
                    conn.execute(
                        sql.SQL("DROP TABLE {}.{}").format(sql.Identifier(schema), sql.Identifier(table))
                    )
                    conn.execute(
                        sql.SQL("ALTER TABLE {}.{} SET SCHEMA {}").format(
                            sql.Identifier(side), sql.Identifier(table), sql.Identifier(schema)
                        )
                    )
                conn.execute(
                    "UPDATE projection_checkpoints SET position = %s, updated_at = now() WHERE projection = %s",
                    (position, name),
                )
                conn.execute("DELETE FROM projection_errors WHERE projection = %s", (name,))
                conn.execute(
                    sql.SQL(
                        "INSERT INTO projection_errors SELECT * FROM {}.projection_errors WHERE projection = %s"
                    ).format(sql.Identifier(side)),
                    (name,),
                )
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(side)))
        finally:
            if not conn.closed and not conn.broken:
                conn.execute(sql.SQL("SET search_path = {}").format(sql.Identifier(schema)))
                conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key(schema, f"rebuild:{name}"),))
    return Rebuilt(name, events, position, time.perf_counter() - started)


def rebuild_all(
    url: str, names: list[str] | None = None, on_progress: Callable[[str], OnProgress] | None = None
) -> list[Rebuilt]:
    """Each projection in turn; ``on_progress(name)`` gives the progress callback of each."""
    return [
        rebuild(url, name, on_progress=on_progress(name) if on_progress else None)
        for name in (names or list(PROJECTIONS))
    ]
