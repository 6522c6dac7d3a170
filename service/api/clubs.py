"""Clubs: the tenant. Creating one returns its admin token, once."""

from __future__ import annotations

import uuid

from flask_smorest import Blueprint

from schemas.api import Club, ClubCreate, ClubCreated
from service import database
from service.api.common import problems
from service.auth import new_token, require_admin

blp = Blueprint("clubs", __name__, url_prefix="/clubs", description="Clubs and their admin tokens")


@blp.post("")
@blp.arguments(ClubCreate)
@blp.response(201, ClubCreated)
@problems(blp, 400, 413, 422)
def create_club(body):
    """Create a club; the answer holds its admin token (shown only once)."""
    club_id = uuid.uuid4()
    token, digest = new_token("admin")
    with database.pool().connection() as conn, conn.transaction():
        row = conn.execute(
            "INSERT INTO clubs (id, name) VALUES (%s, %s) RETURNING id, name, created_at",
            (club_id, body["name"]),
        ).fetchone()
        conn.execute("INSERT INTO tokens (hash, club_id, kind) VALUES (%s, %s, 'admin')", (digest, club_id))
    return {**row, "admin_token": token}


@blp.get("/<uuid:club>")
@blp.response(200, Club)
@problems(blp, 401, 404)
def get_club(club):
    """The club (admin token)."""
    require_admin(club)
    with database.pool().connection() as conn:
        return conn.execute("SELECT id, name, created_at FROM clubs WHERE id = %s", (club,)).fetchone()
