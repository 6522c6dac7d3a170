"""League statistics (from the statistics projection)."""

from __future__ import annotations

from flask_smorest import Blueprint

from schemas.projections import FreshQuery, LeagueStatistics
from service import database
from service.api.common import problems
from service.api.projections import documents_behind, handle_behind, player_names, position_of, visible_league
from service.api.standings import league_info
from workers.projections.statistics import FIELDS, league_statistics

blp = Blueprint(
    "statistics", __name__, url_prefix="/leagues/<uuid:league_id>", description="League statistics"
)
handle_behind(blp)


@blp.get("/statistics")
@blp.arguments(FreshQuery, location="query")
@blp.response(200, LeagueStatistics)
@documents_behind(blp)
@problems(blp, 401, 404, 422)
def statistics(query, league_id):
    """The league's finished games in figures: lengths, win rates by seat and for the first player,
    score distributions, how games ended, head-to-head records, winning streaks, H-index
    (the largest h such that a player has met h different opponents at least h times each),
    each engine's own figures, and luck beside results (the average percentile of the chance
    outcomes that fell to each player; 0.5 is what chance promises)."""
    with database.pool().connection() as conn:
        league = visible_league(conn, league_id)
        position = position_of(conn, "statistics", query["min_position"])
        games = conn.execute(
            f"SELECT {FIELDS} FROM stats_games WHERE league_id = %s AND status = 'finished' ORDER BY end_position",
            (league_id,),
        ).fetchall()
        figures = league_statistics(games)
        names = player_names(conn, [p["player"] for p in figures["players"]])
    for key in ("players", "longest_winning_streaks", "head_to_head"):
        for row in figures[key]:
            row["name"] = names.get(row["player"])
            if "opponent" in row:
                row["opponent_name"] = names.get(row["opponent"])
    return {"league": league_info(league), "position": position, "statistics": figures}
