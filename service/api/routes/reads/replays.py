"""Game replays (from the replays projection): steps, ranges, seat's-eye, export.

Who may see which replay is decided in ``service.records.access``
(``may_see_seat`` for a seat's-eye replay); see ``service.records.reading.steps``.
"""

from __future__ import annotations

from uuid import UUID

from flask import Response, json

from schemas.projections import ExportQuery, Replay, ReplayExport, ReplayQuery, ReplayStepView, StepQuery
from service.api.common import (
    NDJSON,
    Blueprint,
    lagging,
    ndjson_only,
    negotiated,
    problems,
    records,
    wants_ndjson,
)
from service.api.conditional import cached
from service.api.routes.reads.projections import documents_behind
from service.auth import current_principal
from service.records.reading import steps

blp = Blueprint("replays", __name__, url_prefix="/games/<uuid:game_id>/replay", description="Game replays")


@blp.get("")
@cached
@blp.arguments(ReplayQuery, location="query")
@blp.response(200, Replay)
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def replay(query, game_id):
    """A range of steps (`from_step`, `to_step`, at most `limit`): each event, its plain-English line
    and the state after it. `seat` gives the seat's-eye replay."""
    return lagging(
        query["min_position"],
        lambda records: steps.steps(
            records,
            game_id,
            current_principal(),
            query["seat"],
            query["min_position"],
            query["from_step"],
            query["to_step"],
            query["limit"],
            query["view"] == "table",
        ),
    )


@blp.get("/steps/<int:step>")
@cached
@blp.arguments(StepQuery, location="query")
@blp.response(200, ReplayStepView)
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def replay_step(query, game_id, step):
    """One step by number (its stored state: nothing is replayed from the start)."""
    return lagging(
        query["min_position"],
        lambda records: steps.one_step(
            records,
            game_id,
            current_principal(),
            query["seat"],
            query["min_position"],
            step,
            query["view"] == "table",
        ),
    )


@blp.get("/export")
@cached
@blp.arguments(ExportQuery, location="query")
@blp.response(200, ReplayExport, content_type="application/json")
@blp.doc(
    responses=negotiated(
        "ReplayExport",
        'The whole replay (with `format=ndjson` too: a `{"game": ...}` line, then one step per line)',
        "/games/{game_id}/replay/export.ndjson",
    )
)
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def export(query, game_id):
    """The whole replay in one document (JSON) or as NDJSON lines."""
    replay = _export(query, game_id)
    if (query["format"] or ("ndjson" if wants_ndjson() else "json")) == "ndjson":
        return _lines(replay)
    return replay


@blp.get("/export.ndjson")
@cached
@blp.arguments(StepQuery, location="query")
@blp.response(200, content_type=NDJSON)
@blp.doc(responses=ndjson_only('The whole replay: a `{"game": ...}` line, then one step per line'))
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def export_ndjson(query, game_id):
    """The whole replay as NDJSON lines."""
    return _lines(_export(query, game_id))


def _lines(replay: dict) -> Response:
    dump = ReplayStepView()
    lines = [json.dumps({"game": dump.dump({"game": replay["game"]})["game"]})]
    lines += [json.dumps(dump.dump({"step": s})["step"]) for s in replay["steps"]]
    return Response("\n".join(lines) + "\n", mimetype=NDJSON)


def _export(query: dict, game_id: UUID) -> dict:
    """The whole replay as the query asks for it (a seat's eyes, a log position, table views)."""
    return steps.export(
        records(),
        game_id,
        current_principal(),
        query["seat"],
        query["min_position"],
        query["view"] == "table",
    )
