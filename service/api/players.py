"""A club's players."""

from __future__ import annotations

from schemas.api import Player, PlayerCreate
from service.api.common import Blueprint, problems, records
from service.auth import current_principal
from service.records import clubs

blp = Blueprint("players", __name__, url_prefix="/clubs/<uuid:club>/players", description="A club's players")


@blp.post("")
@blp.arguments(PlayerCreate)
@blp.response(201, Player)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def create_player(body, club):
    """Add a player to the club (admin token)."""
    return clubs.add_player(records(), club, current_principal(), body["name"])


@blp.get("")
@blp.response(200, Player(many=True))
@problems(blp, 401, 403, 404)
def list_players(club):
    """The club's players (admin token)."""
    return clubs.players(records(), club, current_principal())
