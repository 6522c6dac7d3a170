"""The service's request stack without its action: ``service.wsgi``'s app
with one more route, declared as ``POST /games/{game_id}/actions`` is (the
same hooks, authentication, request schema, ``Idempotency-Key`` check and
JSON answer), whose view does the framework endpoint's INSERT + COMMIT where
the service calls ``acting.act``. Between the framework's ceiling and the
service's figure it shows how much of the gap is the stack and how much is
the action (``bench_appends``). Served by gunicorn like the others
(``bench.stack_app:app``)."""

from __future__ import annotations

from flask import jsonify, request
from psycopg.types.json import Jsonb

from schemas.api import ActionRequest, ActionResult
from service.api.common import Blueprint, records
from service.auth import require_principal
from service.records.log.db import one_statement_transactions
from service.records.recording import idempotency
from service.wsgi import app

blp = Blueprint("bench_stack", __name__, description="The request stack alone (bench only)")


@blp.post("/bench/games/<uuid:game_id>/actions")
@blp.arguments(ActionRequest)
@blp.response(201, ActionResult)
def insert_row(body, game_id):
    require_principal()
    idempotency.check_key(request.headers.get("Idempotency-Key"))
    with one_statement_transactions(records().pool) as conn:
        position = conn.execute(
            "INSERT INTO bench_rows (body) VALUES (%s) RETURNING id", (Jsonb(body),)
        ).fetchone()["id"]
    return jsonify({"id": position}), 201


app.extensions["tablerecord.api"].register_blueprint(blp)
