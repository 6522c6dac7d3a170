"""A club's leagues: a points table and the games recorded in them."""

from __future__ import annotations

from schemas.api import League, LeagueCreate, LeagueUpdate
from service.api.common import Blueprint, problems, records
from service.auth import current_principal
from service.records.club import clubs

blp = Blueprint("leagues", __name__, url_prefix="/clubs/<uuid:club>/leagues", description="A club's leagues")


@blp.post("")
@blp.arguments(LeagueCreate)
@blp.response(201, League)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def create_league(body, club):
    """Create a league (admin token). The points table gives points by place."""
    return clubs.create_league(records(), club, current_principal(), body)


@blp.get("")
@blp.response(200, League(many=True))
@problems(blp, 401, 403, 404)
def list_leagues(club):
    """The club's leagues (admin token or a member sign-in)."""
    return clubs.leagues(records(), club, current_principal())


@blp.patch("/<uuid:league>")
@blp.arguments(LeagueUpdate)
@blp.response(200, League)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def update_league(body, club, league):
    """Edit a league or close its season (admin token). A closed league takes
    no new games and keeps its standings; the points table and the games to be
    ranked change only before the league's first game (409 after)."""
    return clubs.update_league(records(), club, league, current_principal(), body)
