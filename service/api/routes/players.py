"""A club's players and their member sign-ins."""

from __future__ import annotations

from flask import url_for

from schemas.api import MemberSignIn, Player, PlayerCreate, PlayerMerge, PlayerMerged, PlayerUpdate
from service.api.common import Blueprint, problems, records
from service.auth import current_principal
from service.records.club import clubs, merges, sign_ins

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
    """The club's players, retired ones included (admin token or a member sign-in)."""
    return clubs.players(records(), club, current_principal())


@blp.patch("/<uuid:player>")
@blp.arguments(PlayerUpdate)
@blp.response(200, Player)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def update_player(body, club, player):
    """Rename or retire a player (admin token). A retired player keeps every
    past game and figure but takes no seat in new games."""
    return clubs.update_player(records(), club, player, current_principal(), body)


@blp.post("/<uuid:player>/merge")
@blp.arguments(PlayerMerge)
@blp.response(201, PlayerMerged)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def merge_player(body, club, player):
    """Merge the player into another (``into``, the player kept; admin token or
    an app with ``players``). Every game, result, rating, statistic, profile
    figure and sign-in of the merged-in player follows the kept one; the
    merged-in player is no longer listed. Refused (409 ``players-met``) when
    the two sat in the same game; an event of the club's log, undone by
    ``unmerge``."""
    return merges.merge_players(records(), club, player, body["into"], current_principal())


@blp.post("/<uuid:player>/unmerge")
@blp.response(201, PlayerMerged)
@problems(blp, 401, 403, 404, 409)
def unmerge_player(club, player):
    """Take back the merge of the player (admin token or an app with
    ``players``): both players' records are again exactly as recorded."""
    return merges.unmerge_player(records(), club, player, current_principal())


@blp.post("/<uuid:player>/sign-in")
@blp.response(201, MemberSignIn)
@problems(blp, 401, 403, 404)
def issue_member_sign_in(club, player):
    """Issue the player's member sign-in (admin token), replacing any they had.
    It sees the club, its leagues and public games, and in every game of the
    club where the player sits, sees and acts for that seat alone."""
    issued = sign_ins.issue_member_sign_in(records(), club, player, current_principal())
    return {**issued, "link": sign_in_link(issued["token"])}


@blp.delete("/<uuid:player>/sign-in")
@blp.response(204)
@problems(blp, 401, 403, 404)
def revoke_member_sign_in(club, player):
    """Revoke the player's member sign-in (admin token): it and its web sessions stop working."""
    sign_ins.revoke_member_sign_in(records(), club, player, current_principal())


def sign_in_link(token: str) -> str:
    """The web page that signs in with ``token``; the token rides in the
    fragment, which browsers never send to a server nor in a Referer."""
    return url_for("web.welcome", _external=True) + "#" + token
