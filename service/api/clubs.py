"""Clubs: the tenant. Creating one returns its admin token, once."""

from __future__ import annotations

from schemas.api import Club, ClubCreate, ClubCreated
from service.api.common import Blueprint, problems, records
from service.auth import current_principal
from service.records import clubs

blp = Blueprint("clubs", __name__, url_prefix="/clubs", description="Clubs and their admin tokens")


@blp.post("")
@blp.arguments(ClubCreate)
@blp.response(201, ClubCreated)
@problems(blp, 400, 413, 422)
def create_club(body):
    """Create a club; the answer holds its admin token (shown only once)."""
    return clubs.create_club(records(), body["name"])


@blp.get("/<uuid:club>")
@blp.response(200, Club)
@problems(blp, 401, 404)
def get_club(club):
    """The club (admin token)."""
    return clubs.get_club(records(), club, current_principal())
