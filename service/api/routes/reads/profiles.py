"""A player's profile and the search of a club's games."""

from __future__ import annotations

from schemas.profiles import GameSearch, GameSearchQuery, Profile, ProfileQuery
from service.api.common import Blueprint, lagging, problems
from service.api.conditional import cached
from service.auth import current_principal
from service.records.reading import game_search, profiles

blp = Blueprint("profiles", __name__, description="Players' profiles and the club's past games")


@blp.get("/players/<uuid:player>/profile")
@cached
@blp.arguments(ProfileQuery, location="query")
@blp.response(200, Profile)
@problems(blp, 401, 404, 422)
def profile(query, player):
    """The player's finished games (paged, newest first), win rates overall, per game and per seat,
    streaks, rating in each league and record against every opponent.

    For any token of the player's club. A shared first place counts as a win."""
    return lagging(
        None, lambda records: profiles.player_profile(records, player, current_principal(), query["page"])
    )


@blp.get("/clubs/<uuid:club>/games/search")
@blp.arguments(GameSearchQuery, location="query")
@blp.response(200, GameSearch)
@problems(blp, 401, 404, 422)
def search(query, club):
    """The club's games, newest first, 25 a page: by players (all of them seated), game, league,
    date range (inclusive), winner, finished or live. Abandoned games are never listed.

    For any token of the club."""
    return lagging(None, lambda records: game_search.search(records, club, current_principal(), query))
