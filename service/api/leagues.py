"""A club's leagues: a points table and the games recorded in them."""

from __future__ import annotations

import uuid

import psycopg
from flask_smorest import Blueprint
from psycopg.types.json import Jsonb

from schemas.api import League, LeagueCreate
from service import database
from service.api.common import problems
from service.auth import require_admin
from service.errors import Problem

blp = Blueprint("leagues", __name__, url_prefix="/clubs/<uuid:club>/leagues", description="A club's leagues")

DEFAULT_POINTS = [10, 6, 3, 1]
COLUMNS = "id, name, engine, season, points_table, min_games, public, created_at"


@blp.post("")
@blp.arguments(LeagueCreate)
@blp.response(201, League)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def create_league(body, club):
    """Create a league (admin token). The points table gives points by place."""
    require_admin(club)
    points = body["points_table"] if body["points_table"] is not None else DEFAULT_POINTS
    try:
        with database.pool().connection() as conn, conn.transaction():
            return conn.execute(
                f"INSERT INTO leagues (id, club_id, name, engine, season, points_table, min_games, public)"
                f" VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING {COLUMNS}",
                (
                    uuid.uuid4(),
                    club,
                    body["name"],
                    body["engine"],
                    body["season"],
                    Jsonb(points),
                    body["min_games"],
                    body["public"],
                ),
            ).fetchone()
    except psycopg.errors.UniqueViolation as exc:
        raise Problem(409, "league-exists", "The club already has a league of that name and season.") from exc


@blp.get("")
@blp.response(200, League(many=True))
@problems(blp, 401, 403, 404)
def list_leagues(club):
    """The club's leagues (admin token)."""
    require_admin(club)
    with database.pool().connection() as conn:
        return conn.execute(
            f"SELECT {COLUMNS} FROM leagues WHERE club_id = %s ORDER BY created_at", (club,)
        ).fetchall()
