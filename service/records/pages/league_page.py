"""A league's page: its standings, its rating chart a window at a time, and its games."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from service.records import access
from service.records.access import Principal
from service.records.log.context import Records
from service.records.pages.club_home import GAMES_PER_PAGE
from service.records.pages.standings_page import standings_page
from service.records.reading.projection_state import caught_up, visible_league
from service.records.reading.ratings import shown
from service.records.recording.games import player_names

#: Rated games per page of a league's rating chart.
CHART_WINDOW = 50


def league_page(
    records: Records, league_id: UUID, principal: Principal | None, upto: int | None = None
) -> dict[str, Any]:
    """The standings (``standings_page``), one page of the rating history
    (``CHART_WINDOW`` rated games ending at ``upto``, default the latest) on
    the members' scale, and the latest results."""
    table = standings_page(records, league_id, principal)
    with records.pool.connection() as conn:
        last = conn.execute(
            "SELECT max(seq) AS seq FROM rating_history WHERE league_id = %s", (league_id,)
        ).fetchone()["seq"]
        last = int(last or 0)
        high = max(min(upto, last), 0) if upto is not None else last
        low = max(high - CHART_WINDOW, 0)
        rows = conn.execute(
            "SELECT h.seq, h.player_id, h.place, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after,"
            " g.played_on FROM rating_history h JOIN standings_games g USING (game_id)"
            " WHERE h.league_id = %s AND h.seq > %s AND h.seq <= %s ORDER BY h.seq, h.seat",
            (league_id, low, high),
        ).fetchall()
        results = conn.execute(
            "SELECT game_id, seats, places, scores, ended_by, played_on FROM standings_games"
            " WHERE league_id = %s AND status = 'finished'"
            " ORDER BY played_on DESC, first_end_position DESC LIMIT %s",
            (league_id, GAMES_PER_PAGE),
        ).fetchall()
        late = conn.execute(LATE, {"league": league_id}).fetchone()
        names = player_names(conn, {r["player_id"] for r in rows} | {p for r in results for p in r["seats"]})
    series: dict[str, dict[str, Any]] = {}
    games: list[dict[str, Any]] = []
    for r in rows:
        player = str(r["player_id"])
        line = series.setdefault(player, {"player": player, "name": names.get(player), "points": []})
        before, after = shown(r["mu_before"], r["sigma_before"]), shown(r["mu_after"], r["sigma_after"])
        if not line["points"]:
            line["points"].append([r["seq"] - 1, before])
        line["points"].append([r["seq"], after])
        if not games or games[-1]["game"] != r["seq"]:
            games.append({"game": r["seq"], "date": _date(r["played_on"]), "players": []})
        games[-1]["players"].append(
            {
                "player": player,
                "name": names.get(player),
                "place": r["place"],
                "rating": after,
                "change": after - before,
            }
        )
    return {
        **table,
        "chart": {
            "from": low + 1 if rows else 0,
            "to": high,
            "last": last,
            "earlier": low if low > 0 else None,
            "later": min(high + CHART_WINDOW, last) if high < last else None,
            "series": sorted(series.values(), key=lambda s: s["name"] or ""),
            "dates": {g["game"]: g["date"] for g in games},
        },
        "chart_table": games,
        "results": [
            {
                "game": r["game_id"],
                "played_on": r["played_on"],
                "ended_by": r["ended_by"],
                "seats": [
                    {"player": str(p), "name": names.get(str(p)), "place": place, "score": score}
                    for p, place, score in zip(
                        r["seats"],
                        r["places"] or [],
                        r["scores"] or [None] * len(r["seats"]),  # a result logged without scores has none
                        strict=False,
                    )
                ],
            }
            for r in results
        ],
        "recomputed": recomputed(late),
    }


def league_live(
    records: Records, league_id: UUID, principal: Principal | None, min_position: int | None
) -> dict[str, Any]:
    """The league page's live part (its standings and latest results),
    redrawn when the club's stream moves: once the standings have taken in
    ``min_position``, the event that moved it, or as they stand after
    ``CATCH_UP`` seconds (``behind``: the position the redraw asks for again)."""
    with records.pool.connection() as conn:
        league = visible_league(conn, league_id, principal)
    access.may_wait_for_position(principal, league["club_id"], min_position)
    behind = min_position is not None and not caught_up(records, "standings", min_position)
    return {**league_page(records, league_id, principal), "behind": min_position if behind else None}


#: The latest day games arrived after games played later than them, how many
#: arrived that day, and the earliest day they were played.
LATE = """
SELECT ended_at::date AS arrived, count(*) AS games, min(played_on) AS earliest
FROM standings_games
WHERE league_id = %(league)s AND arrived_late AND status = 'finished'
GROUP BY ended_at::date ORDER BY arrived DESC LIMIT 1
"""


def recomputed(late: dict[str, Any] | None) -> str | None:
    """When the ratings were last recomputed because older games arrived, in words
    ("On 28 Nov 2026 ratings were recomputed: 12 games played from 1 Sep 2026
    arrived after later games and took their place in the order."); None if never."""
    if late is None:
        return None
    games = "1 game" if late["games"] == 1 else f"{late['games']} games"
    return (
        f"On {_date(late['arrived'])} ratings were recomputed: {games} played from {_date(late['earliest'])}"
        " arrived after later games and took their place in the order."
    )


def _date(day) -> str:
    """A day as members write it: "1 Sep 2026"."""
    return f"{day.day} {day:%b %Y}" if day else ""
