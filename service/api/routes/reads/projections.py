"""Projection freshness, and what the projection endpoints share: the
documented 503 of waiting for one's own write (``?min_position=``)."""

from __future__ import annotations

from schemas.projections import Freshness, ProjectionsQuery
from service.api.common import Blueprint, problems, records
from service.auth import current_principal, is_operator
from service.records.reading import projection_state

blp = Blueprint(
    "projections", __name__, description="How fresh the projections (standings, replays, statistics) are"
)

BEHIND_DOC = {
    "description": "`projection-behind`: the projection has not yet reached `min_position`; retry after "
    "`Retry-After` seconds (also `retry_after` in the body).",
    "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
    "headers": {"Retry-After": {"schema": {"type": "integer"}}},
}


def documents_behind(blueprint: Blueprint):
    """Documents the 503 ``projection-behind`` answer of a ``min_position`` endpoint."""
    return blueprint.doc(responses={"503": BEHIND_DOC})


@blp.get("/projections")
@blp.arguments(ProjectionsQuery, location="query")
@blp.response(200, Freshness)
@documents_behind(blp)
@problems(blp, 403, 404, 422)
def freshness(query):
    """The last log position each projection has applied, and any task set aside
    (with the operator's token; any other caller gets the projections' names only).

    With `min_position`, answers 503 `projection-behind` (Retry-After) until
    every projection (or the one named by `projection`) has applied it."""
    operator = is_operator()
    # Only waiting needs a club's token (the operator's is no club's; without
    # min_position any caller, a wrong token too, gets the projections' names).
    principal = None if operator or query["min_position"] is None else current_principal()
    return projection_state.freshness(
        records(), query["projection"], query["min_position"], operator, principal
    )
