"""Projection freshness, and what the projection endpoints share: league
visibility and waiting for one's own write (``?min_position=``)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Response
from flask_smorest import Blueprint

from schemas.projections import Freshness, ProjectionsQuery
from service import database, store
from service.api.common import problems
from service.auth import current_principal
from service.errors import Problem, problem_response

blp = Blueprint(
    "projections", __name__, description="How fresh the projections (standings, replays, statistics) are"
)

RETRY_AFTER = 1
LEAGUE_COLUMNS = "id, club_id, name, season, engine, points_table, min_games, public"


class ProjectionBehind(Exception):
    """A projection has not yet applied the position a client waits for."""

    def __init__(self, projection: str, position: int, wanted: int):
        super().__init__(f"{projection} is at {position}, not yet {wanted}")
        self.projection, self.position, self.wanted = projection, position, wanted


def behind_response(error: ProjectionBehind) -> Response:
    return problem_response(
        503,
        "projection-behind",
        "Service unavailable",
        f"The {error.projection} projection has applied the log up to position {error.position}, "
        f"not yet {error.wanted}; retry shortly.",
        headers={"Retry-After": str(RETRY_AFTER)},
        projection=error.projection,
        position=error.position,
        min_position=error.wanted,
        retry_after=RETRY_AFTER,
    )


def handle_behind(blueprint: Blueprint) -> None:
    blueprint.register_error_handler(ProjectionBehind, behind_response)


BEHIND_DOC = {
    "description": "`projection-behind`: the projection has not yet reached `min_position`; retry after "
    "`Retry-After` seconds (also `retry_after` in the body).",
    "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
    "headers": {"Retry-After": {"schema": {"type": "integer"}}},
}


def documents_behind(blueprint: Blueprint):
    """Documents the 503 ``projection-behind`` answer of a ``min_position`` endpoint."""
    return blueprint.doc(responses={"503": BEHIND_DOC})


def position_of(conn, projection: str, min_position: int | None = None) -> int:
    row = conn.execute(
        "SELECT position FROM projection_checkpoints WHERE projection = %s", (projection,)
    ).fetchone()
    position = int(row["position"]) if row else 0
    if min_position is not None and position < min_position:
        head = store.head_position(conn)
        if min_position > head:
            raise past_head(head, min_position)
        raise ProjectionBehind(projection, position, min_position)
    return position


def past_head(head: int, min_position: int) -> Problem:
    """A position the log has not reached is the client's mistake, not a
    reason to retry: it would be "behind" for ever."""
    return Problem(
        422,
        "position-not-reached",
        f"The log ends at position {head}; min_position {min_position} does not exist yet.",
        head=head,
    )


def visible_league(conn, league_id: UUID) -> dict[str, Any]:
    """The league if the caller may see it: public, or a token of its club."""
    principal = current_principal()  # a wrong token is a 401 even for a public league
    league = conn.execute(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = %s", (league_id,)).fetchone()
    if league is None:
        raise Problem(404, "not-found", "No such league.")
    if not league["public"] and (principal is None or principal.club_id != league["club_id"]):
        raise Problem(404, "not-found", "No such league.")
    return league


def player_names(conn, ids) -> dict[str, str]:
    ids = [UUID(str(i)) for i in ids]
    if not ids:
        return {}
    rows = conn.execute("SELECT id, name FROM players WHERE id = ANY(%s)", (ids,)).fetchall()
    return {str(r["id"]): r["name"] for r in rows}


@blp.get("/projections")
@blp.arguments(ProjectionsQuery, location="query")
@blp.response(200, Freshness)
@documents_behind(blp)
@problems(blp, 404, 422)
def freshness(query):
    """The last log position each projection has applied, and any task set aside.

    With `min_position`, answers 503 `projection-behind` (Retry-After) until
    every projection (or the one named by `projection`) has applied it."""
    with database.pool().connection() as conn:
        head = store.head_position(conn)
        rows = conn.execute(
            "SELECT c.projection AS name, c.position, c.updated_at,"
            " (SELECT count(*) FROM projection_errors e WHERE e.projection = c.projection) AS errors"
            " FROM projection_checkpoints c ORDER BY c.projection"
        ).fetchall()
        if query["projection"] is not None:
            rows = [r for r in rows if r["name"] == query["projection"]]
            if not rows:
                raise Problem(404, "not-found", "No such projection.")
        aside = conn.execute(
            "SELECT task_id, task_name, args, deliveries, set_aside_at, reason FROM task_deliveries"
            " WHERE set_aside_at IS NOT NULL ORDER BY set_aside_at DESC LIMIT 100"
        ).fetchall()
    if query["min_position"] is not None:
        if query["min_position"] > head:
            raise past_head(head, query["min_position"])
        for row in rows:
            if row["position"] < query["min_position"]:
                raise ProjectionBehind(row["name"], row["position"], query["min_position"])
    return {
        "head": head,
        "projections": [{**r, "behind": max(head - r["position"], 0)} for r in rows],
        "set_aside_tasks": aside,
    }


handle_behind(blp)
