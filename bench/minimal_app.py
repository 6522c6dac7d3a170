"""The framework's own ceiling: a Flask endpoint that does one INSERT + COMMIT
per POST and nothing else, served by the same gunicorn settings as the
service (``bench.minimal_app:app``, DATABASE_URL as for the service)."""

from __future__ import annotations

import os

from flask import Flask, jsonify, request
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

app = Flask(__name__)
# Autocommit: the INSERT is its own transaction, one round trip.
pool = ConnectionPool(os.environ["DATABASE_URL"], min_size=1, max_size=10, kwargs={"autocommit": True})


@app.post("/rows")
def insert_row():
    with pool.connection() as conn:
        position = conn.execute(
            "INSERT INTO bench_rows (body) VALUES (%s) RETURNING id", (Jsonb(request.get_json()),)
        ).fetchone()[0]
    return jsonify({"id": position}), 201


@app.get("/health")
def health():
    return {"ok": True}
