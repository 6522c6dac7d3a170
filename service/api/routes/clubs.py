"""Clubs: the tenant. Creating one returns its admin token, once."""

from __future__ import annotations

from schemas.api import AdminToken, Club, ClubCreate, ClubCreated
from service.api.common import Blueprint, problems, records
from service.auth import current_principal
from service.records.club import clubs, sign_ins

blp = Blueprint("clubs", __name__, url_prefix="/clubs", description="Clubs and their admin tokens")


@blp.post("")
@blp.arguments(ClubCreate)
@blp.response(201, ClubCreated)
@problems(blp, 400, 413, 422)
def create_club(body):
    """Create a club; the answer holds its admin token (shown only once).

    A client address makes so many clubs an hour (`CLUB_CREATION_LIMIT`, 20
    by default; 429 beyond), counted together with restores and the web
    page's form."""
    return clubs.create_club(records(), body["name"])


@blp.get("/<uuid:club>")
@blp.response(200, Club)
@problems(blp, 401, 404)
def get_club(club):
    """The club (admin token or a member sign-in)."""
    return clubs.get_club(records(), club, current_principal())


@blp.post("/<uuid:club>/admin-token")
@blp.response(201, AdminToken)
@problems(blp, 401, 403, 404)
def rotate_admin_token(club):
    """Replace the club's admin token (admin token): the answer holds the new
    one (shown once); the old one stops working at once, everywhere, with the
    web sessions signed in by it. Member sign-ins stay valid."""
    return sign_ins.rotate_admin_token(records(), club, current_principal())
