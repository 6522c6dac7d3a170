"""A league's statistics as its web page shows them, a page at a time.

``league_figures.statistics`` (the API's) reads every finished game of the
league into Python; at 10,000 games that takes a second. The page needs fewer
figures, and PostgreSQL sums them in one statement over the statistics
projection's rows (``stats_games``), sending back only the totals and one row
per seat, per player and per pair of players. The figures are the API's
(``tests/web/test_statistics_page.py`` holds them equal); player ids are
compared as Python compares them (``COLLATE "C"``).

That statement still reads every game, so the process keeps its result by
what it was read from: the league's finished games, named by their count and
their end positions' highest value and sum. A game that ends adds a later
end position and a game reopened or abandoned leaves the count or the sum, so
a changed league never matches a kept result; an unchanged one is read once.
Pages of the head-to-head table are cut from the kept result.

The engines' own figures are merged from each game's figures, which only
Python does (``league_figures.engine_statistics``): the page merges those of a
window of ``ENGINE_WINDOW`` games, the latest by default, paged by ``upto``.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from service.records.access import Principal
from service.records.context import Records
from service.records.games import player_names
from service.records.league import league_info
from service.records.league_figures import engine_statistics
from service.records.projection_state import position_of, visible_league
from service.records.states import StateCache

#: Head-to-head rows per page.
PAIRS_PER_PAGE = 50
#: Finished games whose engine figures the page merges at once.
ENGINE_WINDOW = 200

FIGURES = """
WITH g AS MATERIALIZED (
    SELECT game_id, end_position, seats, places, first_seat, luck, events, turns, created_at, ended_at,
           ended_by
    FROM stats_games WHERE league_id = %(league)s AND status = 'finished'
),
s AS MATERIALIZED (
    SELECT g.game_id, g.end_position, (x.ord - 1)::int AS seat, x.player COLLATE "C" AS player,
           (g.places ->> (x.ord - 1)::int)::int AS place, g.luck -> (x.ord - 1)::text AS luck
    FROM g, jsonb_array_elements_text(g.seats) WITH ORDINALITY AS x(player, ord)
),
pairs AS MATERIALIZED (
    SELECT a.player, b.player AS opponent, a.place AS mine, b.place AS theirs
    FROM s a JOIN s b ON a.game_id = b.game_id AND a.seat <> b.seat AND a.player <> b.player
),
h AS (
    SELECT player, count(*) FILTER (WHERE n >= rank) AS h_index
    FROM (SELECT player, n, row_number() OVER (PARTITION BY player ORDER BY n DESC) AS rank
          FROM (SELECT player, opponent, count(*) AS n FROM pairs GROUP BY player, opponent) o) r
    GROUP BY player
),
breaks AS (
    SELECT player, place, sum((place <> 1)::int) OVER (PARTITION BY player ORDER BY end_position) AS run
    FROM s
),
runs AS (
    SELECT player, run, count(*) FILTER (WHERE place = 1) AS wins,
           run = max(run) OVER (PARTITION BY player) AS last
    FROM breaks GROUP BY player, run
),
streaks AS (
    SELECT player, max(wins) AS longest, max(wins) FILTER (WHERE last) AS current FROM runs GROUP BY player
),
players AS (
    SELECT player, count(*) AS games, count(*) FILTER (WHERE place = 1) AS wins, avg(place) AS average_place,
           coalesce(sum((luck ->> 'count')::int), 0) AS chance_events,
           coalesce(sum((luck ->> 'sum')::float8), 0) AS luck_sum
    FROM s GROUP BY player
),
head AS (
    SELECT player, opponent, count(*) FILTER (WHERE mine < theirs) AS ahead,
           count(*) FILTER (WHERE mine > theirs) AS behind, count(*) FILTER (WHERE mine = theirs) AS level
    FROM pairs WHERE player < opponent GROUP BY player, opponent
)
SELECT
    (SELECT count(*) FROM g) AS games,
    (SELECT avg(events) FROM g) AS events,
    (SELECT avg(turns) FROM g) AS turns,
    (SELECT avg(extract(epoch FROM ended_at - created_at) / 60) FROM g) AS minutes,
    (SELECT count(*) FROM g WHERE (places ->> coalesce(first_seat, 0))::int = 1) AS first_wins,
    (SELECT coalesce(json_object_agg(how, n ORDER BY n DESC, how), '{}')
     FROM (SELECT coalesce(ended_by, 'unknown') AS how, count(*) AS n FROM g GROUP BY 1) e) AS ended_by,
    (SELECT coalesce(jsonb_agg(jsonb_build_object('seat', seat, 'games', n, 'wins', wins) ORDER BY seat), '[]')
     FROM (SELECT seat, count(*) AS n, count(*) FILTER (WHERE place = 1) AS wins FROM s GROUP BY seat) b)
        AS by_seat,
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
        'player', p.player, 'games', p.games, 'wins', p.wins, 'average_place', p.average_place,
        'h_index', coalesce(h.h_index, 0), 'longest_winning_streak', st.longest,
        'current_winning_streak', st.current, 'chance_events', p.chance_events, 'luck_sum', p.luck_sum)
        ORDER BY p.player), '[]')
     FROM players p LEFT JOIN h USING (player) JOIN streaks st USING (player)) AS players,
    (SELECT coalesce(jsonb_agg(to_jsonb(x) ORDER BY x.player, x.opponent), '[]')
     FROM head x) AS head_to_head,
    (SELECT max(end_position) FROM g) AS last,
    (SELECT sum(end_position) FROM g) AS total
"""

#: What a league's figures are read from: its finished games.
GAMES = """
SELECT count(*) AS games, max(end_position) AS last, sum(end_position) AS total
FROM stats_games WHERE league_id = %s AND status = 'finished'
"""

#: Figures by (league, games, last end position, sum of end positions).
KEPT = StateCache(size=64)


def statistics_page(
    records: Records, league_id: UUID, principal: Principal | None, page: int = 1, upto: int | None = None
) -> dict[str, Any]:
    """The league's figures with one page of its head-to-head table and the
    engines' own figures over the ``ENGINE_WINDOW`` games ending with the
    ``upto``-th finished game (default: the latest)."""
    page = max(page, 1)
    with records.pool.connection() as conn:
        league = visible_league(conn, league_id, principal)
        position = position_of(conn, "statistics")
        read_from = conn.execute(GAMES, (league_id,)).fetchone()
        key = (league_id, read_from["games"], read_from["last"], read_from["total"])
        row = KEPT.get(key)
        if row is None:
            row = conn.execute(FIGURES, {"league": league_id}).fetchone()
            if (league_id, row["games"], row["last"], row["total"]) == key:
                KEPT.put(key, row)
        games = int(row["games"])
        high = min(upto, games) if upto is not None else games
        low = max(high - ENGINE_WINDOW, 0)
        window = conn.execute(
            "SELECT seats, engine_stats FROM stats_games WHERE league_id = %s AND status = 'finished'"
            " ORDER BY end_position OFFSET %s LIMIT %s",
            (league_id, low, high - low),
        ).fetchall()
        names = player_names(conn, [p["player"] for p in row["players"]])
    pairs = row["head_to_head"][(page - 1) * PAIRS_PER_PAGE : page * PAIRS_PER_PAGE]
    players = [_player(p, names) for p in row["players"]]
    return {
        "league": league_info(league),
        "position": position,
        "statistics": {
            "games": games,
            "average_length": {
                "events": _num(row["events"]),
                "turns": _num(row["turns"]),
                "minutes": _num(row["minutes"]),
            },
            "first_player": {
                "games": games,
                "wins": row["first_wins"],
                "win_rate": row["first_wins"] / games if games else None,
            },
            "win_rate_by_seat": [
                {**r, "win_rate": r["wins"] / r["games"] if r["games"] else None} for r in row["by_seat"]
            ],
            "ended_by": row["ended_by"],
            "players": players,
            "head_to_head": [
                {
                    **r,
                    "games": r["ahead"] + r["behind"] + r["level"],
                    "name": names.get(r["player"]),
                    "opponent_name": names.get(r["opponent"]),
                }
                for r in pairs
            ],
            "engine": engine_statistics(window) if window else {},
        },
        "pairs": {
            "page": page,
            "pages": max((len(row["head_to_head"]) + PAIRS_PER_PAGE - 1) // PAIRS_PER_PAGE, 1),
        },
        "engine_window": {
            "from": low + 1 if window else 0,
            "to": high,
            "earlier": low if low > 0 else None,
            "later": min(high + ENGINE_WINDOW, games) if high < games else None,
        },
    }


def _num(value: Any) -> float | None:
    return float(value) if value is not None else None


def _player(p: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    events = int(p["chance_events"])
    return {
        "player": p["player"],
        "name": names.get(p["player"]),
        "games": p["games"],
        "wins": p["wins"],
        "win_rate": p["wins"] / p["games"],
        "average_place": float(p["average_place"]),
        "longest_winning_streak": p["longest_winning_streak"],
        "current_winning_streak": p["current_winning_streak"],
        "h_index": p["h_index"],
        "luck": {
            "chance_events": events,
            "average_percentile": p["luck_sum"] / events if events else None,
            "expected_percentile": 0.5,
        },
    }
