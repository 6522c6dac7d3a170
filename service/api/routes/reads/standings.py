"""League standings and rating history (from the standings projection)."""

from __future__ import annotations

from schemas.projections import FreshQuery, HistoryQuery, RatingHistory, Standings
from service.api.common import Blueprint, lagging, problems
from service.api.conditional import cached
from service.api.routes.reads.projections import documents_behind
from service.auth import current_principal
from service.records.reading import league_tables

blp = Blueprint(
    "standings", __name__, url_prefix="/leagues/<uuid:league_id>", description="League standings and ratings"
)


@blp.get("/standings")
@cached
@blp.arguments(FreshQuery, location="query")
@blp.response(200, Standings)
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def standings(query, league_id):
    """The league's standings: ranked players first (by rank), then those below the minimum games.

    Points come from the league's points table by place (shared places score
    that place's points); wins count shared first places. Tie-breaks after
    points, in order: wins, rating, average score, fewer games played; players
    level on all of them share the rank. Abandoned games never count. Public
    leagues are open to anyone, others to the club's tokens."""
    return lagging(
        query["min_position"],
        lambda records: league_tables.standings(
            records, league_id, current_principal(), query["min_position"]
        ),
    )


@blp.get("/rating-history")
@cached
@blp.arguments(HistoryQuery, location="query")
@blp.response(200, RatingHistory)
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def rating_history(query, league_id):
    """Every rated game of the league in rating order, with each player's rating before and after it.

    Games are rated in the order they were played: by the day (a result's
    day, an imported game's `played_at`, else the day it ended), then as they
    first ended; a corrected result keeps its place, history that arrives
    after later games takes its own, and every later rating is recomputed.
    Ratings are on the pages' scale, 1500 + 42 × (mu − 3 sigma). With `player`, only that
    player's games (all seats of each game are still shown)."""
    return lagging(
        query["min_position"],
        lambda records: league_tables.rating_history(
            records, league_id, current_principal(), query["player"], query["min_position"]
        ),
    )
