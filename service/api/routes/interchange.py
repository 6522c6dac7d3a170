"""Whole games in and out: export one game's document, import one."""

from __future__ import annotations

from flask import request

from schemas.api import GameCreated
from schemas.interchange import GameDocument, GameImport
from service.api.common import IDEMPOTENCY_HEADER, Blueprint, problems, records, request_id
from service.api.conditional import LOG_POSITION_HEADER
from service.api.routes.engines import GAME_IMPORT
from service.auth import current_principal
from service.records.history import interchange
from service.records.recording import idempotency

blp = Blueprint("interchange", __name__, description="Whole games exported and imported")


@blp.get("/games/<uuid:game_id>/export")
@blp.response(200, GameDocument)
@problems(blp, 401, 403, 404, 409)
def export_game(game_id):
    """The whole game as one document: setup, seats, options, dealer, catalog,
    every command in force in order (retractions applied, chance included) and
    the outcome. A live game's export is for its recorder only."""
    return interchange.export_game(records(), game_id, current_principal())


@blp.post("/clubs/<uuid:club>/games/import")
@blp.arguments(GameImport)
@blp.doc(
    requestBody={"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{GAME_IMPORT}"}}}}
)
@blp.response(201, GameCreated, headers=LOG_POSITION_HEADER)
@blp.doc(parameters=[IDEMPOTENCY_HEADER])
@problems(blp, 400, 401, 403, 404, 409, 413, 422, 503)
def import_game(body, club):
    """Import a game (admin token): every command is replayed through the game's
    rules in one transaction. All is stored, or nothing is and the 422
    `command-refused` names the `index` of the first refused command and its `rule`."""
    key = idempotency.check_key(request.headers.get("Idempotency-Key"))
    result = interchange.import_game(
        records(),
        club,
        current_principal(),
        body,
        idempotency_key=key,
        body_hash=idempotency.request_hash(request.get_json()) if key else "",
        request_id=request_id(),
    )
    return result.body, result.status, ({"Idempotent-Replayed": "true"} if result.replayed else {})
