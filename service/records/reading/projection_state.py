"""How far each projection has read the log, what it could not apply, and the
worker tasks set aside; and the leagues the projections' readers show."""

from __future__ import annotations

import time
from typing import Any
from uuid import UUID

import psycopg

from service.records import access
from service.records.access import Principal
from service.records.errors import Invalid, NotFound, ProjectionBehind
from service.records.log import store
from service.records.log.context import Records

LEAGUE_COLUMNS = "id, club_id, name, season, engine, points_table, min_games, public"
#: Seconds a live page's redraw waits for a projection to take in the event that moved it.
CATCH_UP = 5.0
#: Seconds between two looks at a projection's position while waiting.
LOOK_EVERY = 0.05


def position_of(conn: psycopg.Connection, projection: str, min_position: int | None = None) -> int:
    """The last position ``projection`` applied; behind ``min_position``: ``ProjectionBehind``."""
    row = conn.execute(
        "SELECT position FROM projection_checkpoints WHERE projection = %s", (projection,)
    ).fetchone()
    position = int(row["position"]) if row else 0
    if min_position is not None and position < min_position:
        refuse_past_head(last_written(conn), min_position)
        raise ProjectionBehind(projection, position, min_position)
    return position


def caught_up(records: Records, projection: str, min_position: int, within: float = CATCH_UP) -> bool:
    """Whether ``projection`` has applied ``min_position``, waited for at most
    ``within`` seconds: a live page redrawn by a stream's event (its position)
    shows what the projection made of it. No connection is held while waiting."""
    deadline = time.monotonic() + within
    while True:
        with records.pool.connection() as conn:
            try:
                position_of(conn, projection, min_position)
                return True
            except ProjectionBehind:
                pass
        if time.monotonic() >= deadline:
            return False
        time.sleep(LOOK_EVERY)


def last_written(conn: psycopg.Connection) -> int:
    """The highest position of any committed event, settled or not: a
    client's own write is never past it."""
    return int(conn.execute("SELECT coalesce(max(position), 0) AS p FROM events").fetchone()["p"])


def refuse_past_head(head: int, min_position: int) -> None:
    """A position the log has not reached is the reader's mistake, not a
    reason to retry: it would be "behind" for ever."""
    if min_position > head:
        raise Invalid(
            "position-not-reached",
            f"The log ends at position {head}; min_position {min_position} does not exist yet.",
            head=head,
        )


def visible_league(conn: psycopg.Connection, league_id: UUID, principal: Principal | None) -> dict[str, Any]:
    league = conn.execute(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = %s", (league_id,)).fetchone()
    return access.may_see_league(league, principal)


def projection_error(conn: psycopg.Connection, projection: str, game_id: UUID) -> dict[str, Any] | None:
    """The event of the game that ``projection`` could not apply, if any."""
    return conn.execute(
        "SELECT position, event_type, error FROM projection_errors WHERE projection = %s AND game_id = %s",
        (projection, game_id),
    ).fetchone()


def freshness(
    records: Records,
    projection: str | None,
    min_position: int | None,
    operator: bool = False,
    principal: Principal | None = None,
) -> dict[str, Any]:
    """The last log position each projection (or the one named) has applied,
    its errors, and the tasks set aside (for the operator; others see the
    names only); ``ProjectionBehind`` until every one has applied ``min_position``
    (which only a club's token or the operator may ask for)."""
    access.may_wait_for_position(principal, None, min_position, operator)
    with records.pool.connection() as conn:
        head = store.head_position(conn)
        # Positions are sparse (see store.py): "behind" counts the events.
        rows = conn.execute(
            "SELECT c.projection AS name, c.position, c.updated_at,"
            " (SELECT count(*) FROM projection_errors e WHERE e.projection = c.projection) AS errors,"
            " (SELECT count(*) FROM events v WHERE v.position > c.position AND v.position <= %s) AS behind"
            " FROM projection_checkpoints c ORDER BY c.projection",
            (head,),
        ).fetchall()
        if projection is not None:
            rows = [r for r in rows if r["name"] == projection]
            if not rows:
                raise NotFound("projection")
        aside = conn.execute(
            "SELECT task_id, task_name, args, deliveries, set_aside_at, reason FROM task_deliveries"
            " WHERE set_aside_at IS NOT NULL ORDER BY set_aside_at DESC LIMIT 100"
        ).fetchall()
    if min_position is not None:
        if min_position > head:
            with records.pool.connection() as conn:
                refuse_past_head(last_written(conn), min_position)
        for row in rows:
            if row["position"] < min_position:
                raise ProjectionBehind(row["name"], row["position"], min_position)
    if not access.may_see_operations(operator):
        return {"projections": [{"name": r["name"]} for r in rows]}
    return {
        "head": head,
        "projections": rows,
        "set_aside_tasks": aside,
    }
