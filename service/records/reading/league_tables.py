"""A league's standings and rating history, read from the standings projection."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from service.records import access
from service.records.access import Principal
from service.records.log.context import Records
from service.records.reading.league import TIE_BREAKS, league_info, rank_key
from service.records.reading.projection_state import position_of, visible_league
from service.records.reading.ratings import Rating, shown
from service.records.recording.games import player_names


def standings(
    records: Records, league_id: UUID, principal: Principal | None, min_position: int | None
) -> dict[str, Any]:
    """Ranked players first (by rank), then those below the minimum games."""
    with records.pool.connection() as conn:
        league = visible_league(conn, league_id, principal)
        access.may_wait_for_position(principal, league["club_id"], min_position)
        position = position_of(conn, "standings", min_position)
        rows = conn.execute(
            "SELECT s.player_id, s.games, s.wins, s.placements, s.points, s.average_score, s.mu, s.sigma,"
            " s.rating, s.ranked, s.rank, h.mu_before, h.sigma_before FROM standings s"
            " LEFT JOIN LATERAL (SELECT mu_before, sigma_before FROM rating_history"
            " WHERE league_id = s.league_id AND player_id = s.player_id ORDER BY seq DESC LIMIT 1) h ON true"
            " WHERE s.league_id = %s",
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
    answer = {
        "league": league_info(league),
        "position": position,
        "tie_breaks": TIE_BREAKS,
        "standings": [_row(r, names) for r in rows],
    }
    return access.positions_for(principal, league["club_id"], answer)


def _row(r: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """A standings row as readers get it: the rating on the members' scale
    (``ratings.shown``), its ± and its change in the player's last rated game."""
    before = (r["mu_before"], r["sigma_before"]) if r["mu_before"] is not None else None
    rating = Rating.of(r["mu"], r["sigma"], before)
    return {
        **{k: v for k, v in r.items() if k not in ("mu_before", "sigma_before")},
        "player": r["player_id"],
        "name": names.get(str(r["player_id"])),
        "rating": rating.value,
        "rating_uncertainty": rating.uncertainty,
        "rating_change": rating.change,
    }


def rating_history(
    records: Records,
    league_id: UUID,
    principal: Principal | None,
    player: UUID | None,
    min_position: int | None,
) -> dict[str, Any]:
    """Every rated game of the league in rating order, each player's rating before and after it."""
    with records.pool.connection() as conn:
        league = visible_league(conn, league_id, principal)
        access.may_wait_for_position(principal, league["club_id"], min_position)
        position = position_of(conn, "standings", min_position)
        sql = (
            "SELECT h.seq, h.game_id, h.player_id, h.seat, h.place, h.mu_before, h.sigma_before, h.mu_after,"
            " h.sigma_after, g.ended_at, g.played_on FROM rating_history h JOIN standings_games g USING (game_id)"
            " WHERE h.league_id = %s"
        )
        params: list = [league_id]
        if player is not None:
            sql += " AND h.seq IN (SELECT seq FROM rating_history WHERE league_id = %s AND player_id = %s)"
            params += [league_id, player]
        rows = conn.execute(sql + " ORDER BY h.seq, h.seat", params).fetchall()
        names = player_names(conn, {r["player_id"] for r in rows})
    games: list[dict] = []
    for r in rows:
        if not games or games[-1]["seq"] != r["seq"]:
            games.append(
                {
                    "seq": r["seq"],
                    "game": r["game_id"],
                    "ended_at": r["ended_at"],
                    "played_on": r["played_on"],
                    "changes": [],
                }
            )
        before, after = shown(r["mu_before"], r["sigma_before"]), shown(r["mu_after"], r["sigma_after"])
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
    answer = {"league": league_id, "position": position, "games": games}
    return access.positions_for(principal, league["club_id"], answer)
