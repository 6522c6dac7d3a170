"""The process's connection pool, bound to the Flask app."""

from __future__ import annotations

from flask import current_app
from psycopg_pool import ConnectionPool


def pool() -> ConnectionPool:
    return current_app.extensions["tablerecord.pool"]
