"""League standings and rating history (from the standings projection)."""

from __future__ import annotations

from flask_smorest import Blueprint

from schemas.projections import FreshQuery, HistoryQuery, RatingHistory, Standings
from service import database
from service.api.common import problems
from service.api.projections import documents_behind, handle_behind, player_names, position_of, visible_league
from workers.projections.standings import DEFAULT_POINTS, TIE_BREAKS, ordinal, rank_key

blp = Blueprint(
    "standings", __name__, url_prefix="/leagues/<uuid:league_id>", description="League standings and ratings"
)
handle_behind(blp)


def league_info(league: dict) -> dict:
    return {**league, "points_table": league["points_table"] or DEFAULT_POINTS}


@blp.get("/standings")
@blp.arguments(FreshQuery, location="query")
@blp.response(200, Standings)
@documents_behind(blp)
@problems(blp, 401, 404, 422)
def standings(query, league_id):
    """The league's standings: ranked players first (by rank), then those below the minimum games.

    Points come from the league's points table by place (shared places score
    that place's points); wins count shared first places. Tie-breaks after
    points, in order: wins, rating, average score, fewer games played; players
    level on all of them share the rank. Abandoned games never count. Public
    leagues are open to anyone, others to the club's tokens."""
    with database.pool().connection() as conn:
        league = visible_league(conn, league_id)
        position = position_of(conn, "standings", query["min_position"])
        rows = conn.execute(
            "SELECT player_id, games, wins, placements, points, average_score, mu, sigma, rating, ranked, rank"
            " FROM standings WHERE league_id = %s",
            (league_id,),
        ).fetchall()
        names = player_names(conn, [r["player_id"] for r in rows])
    rows.sort(
        key=lambda r: (
            not r["ranked"],
            r["rank"] or 0,
            rank_key(r["points"], r["wins"], r["rating"], r["average_score"], r["games"]),
            names.get(str(r["player_id"])) or "",
        )
    )
    return {
        "league": league_info(league),
        "position": position,
        "tie_breaks": TIE_BREAKS,
        "standings": [{**r, "player": r["player_id"], "name": names.get(str(r["player_id"]))} for r in rows],
    }


@blp.get("/rating-history")
@blp.arguments(HistoryQuery, location="query")
@blp.response(200, RatingHistory)
@documents_behind(blp)
@problems(blp, 401, 404, 422)
def rating_history(query, league_id):
    """Every rated game of the league in rating order, with each player's rating before and after it.

    Games are rated in the order they first ended; a corrected result keeps
    its place and every later rating is recomputed. With `player`, only that
    player's games (all seats of each game are still shown)."""
    with database.pool().connection() as conn:
        visible_league(conn, league_id)
        position = position_of(conn, "standings", query["min_position"])
        sql = (
            "SELECT h.seq, h.game_id, h.player_id, h.seat, h.place, h.mu_before, h.sigma_before, h.mu_after,"
            " h.sigma_after, g.ended_at FROM rating_history h JOIN standings_games g USING (game_id)"
            " WHERE h.league_id = %s"
        )
        params: list = [league_id]
        if query["player"] is not None:
            sql += " AND h.seq IN (SELECT seq FROM rating_history WHERE league_id = %s AND player_id = %s)"
            params += [league_id, query["player"]]
        rows = conn.execute(sql + " ORDER BY h.seq, h.seat", params).fetchall()
        names = player_names(conn, {r["player_id"] for r in rows})
    games: list[dict] = []
    for r in rows:
        if not games or games[-1]["seq"] != r["seq"]:
            games.append({"seq": r["seq"], "game": r["game_id"], "ended_at": r["ended_at"], "changes": []})
        before, after = ordinal(r["mu_before"], r["sigma_before"]), ordinal(r["mu_after"], r["sigma_after"])
        games[-1]["changes"].append(
            {
                "player": r["player_id"],
                "name": names.get(str(r["player_id"])),
                "seat": r["seat"],
                "place": r["place"],
                "mu_before": r["mu_before"],
                "sigma_before": r["sigma_before"],
                "rating_before": before,
                "mu_after": r["mu_after"],
                "sigma_after": r["sigma_after"],
                "rating_after": after,
                "change": after - before,
            }
        )
    return {"league": league_id, "position": position, "games": games}
