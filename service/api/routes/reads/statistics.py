"""League statistics (from the statistics projection)."""

from __future__ import annotations

from schemas.projections import FreshQuery, LeagueStatistics
from service.api.common import Blueprint, lagging, problems
from service.api.conditional import cached
from service.api.routes.reads.projections import documents_behind
from service.auth import current_principal
from service.records.reading import league_figures

blp = Blueprint(
    "statistics", __name__, url_prefix="/leagues/<uuid:league_id>", description="League statistics"
)


@blp.get("/statistics")
@cached
@blp.arguments(FreshQuery, location="query")
@blp.response(200, LeagueStatistics)
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def statistics(query, league_id):
    """The league's finished games in figures: lengths, win rates by seat and for the first player,
    score distributions, how games ended, head-to-head records, winning streaks, H-index
    (the largest h such that a player has met h different opponents at least h times each),
    each engine's own figures, and luck beside results (the average percentile of the chance
    outcomes that fell to each player; 0.5 is what chance promises)."""
    return lagging(
        query["min_position"],
        lambda records: league_figures.statistics(
            records, league_id, current_principal(), query["min_position"]
        ),
    )
