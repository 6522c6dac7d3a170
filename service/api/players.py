"""A club's players."""

from __future__ import annotations

import uuid

import psycopg
from flask_smorest import Blueprint

from schemas.api import Player, PlayerCreate
from service import database
from service.api.common import problems
from service.auth import require_admin
from service.errors import Problem

blp = Blueprint("players", __name__, url_prefix="/clubs/<uuid:club>/players", description="A club's players")


@blp.post("")
@blp.arguments(PlayerCreate)
@blp.response(201, Player)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def create_player(body, club):
    """Add a player to the club (admin token)."""
    require_admin(club)
    try:
        with database.pool().connection() as conn, conn.transaction():
            return conn.execute(
                "INSERT INTO players (id, club_id, name) VALUES (%s, %s, %s) RETURNING id, name, created_at",
                (uuid.uuid4(), club, body["name"]),
            ).fetchone()
    except psycopg.errors.UniqueViolation as exc:
        raise Problem(409, "player-exists", "The club already has a player of that name.") from exc


@blp.get("")
@blp.response(200, Player(many=True))
@problems(blp, 401, 403, 404)
def list_players(club):
    """The club's players (admin token)."""
    require_admin(club)
    with database.pool().connection() as conn:
        return conn.execute(
            "SELECT id, name, created_at FROM players WHERE club_id = %s ORDER BY name", (club,)
        ).fetchall()
