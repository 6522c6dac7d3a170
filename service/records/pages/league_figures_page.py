"""A league's statistics as its web page shows them, a page at a time.

``league_figures.statistics`` (the API's) reads every finished game of the
league into Python; at 10,000 games that takes a second. The page keeps its
figures as a ``Tally``, sums that a later game adds to: PostgreSQL sums a
league's finished games in one statement over the statistics projection's
rows (``stats_games``) the first time, and after that only the games that
ended since are read and added. The figures are the API's
(``tests/web/test_statistics_page.py`` holds them equal); player ids are
compared as Python compares them (``COLLATE "C"``), each seat read as the
player it follows now (``club/merges.py``; a tally names the club's count of
merge events, so a merge or an un-merge sums the league again).

A tally names what it was read from: the count of the league's finished games
and their end positions' highest value and sum. A game that ends adds a later
end position; a game reopened or abandoned leaves the count or the sum, and
then the league is summed again. The reads share one snapshot (repeatable
read), so a tally is always the figures of the games it names.

The engines' own figures are merged from each game's figures, which only
Python does (``league_figures.engine_statistics``): the page merges those of a
window of ``ENGINE_WINDOW`` games played action by action, the latest by
default, paged by ``upto``. As in the API's figures, a result-only game counts
in the players' figures, not in the figures of play (``result_only``).
"""

from __future__ import annotations

import copy
import threading
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from service.records.access import Principal
from service.records.club import merges
from service.records.log.context import Records
from service.records.pages.figure_words import engine_figures
from service.records.reading.game_search import engine_title
from service.records.reading.league import league_info
from service.records.reading.league_figures import engine_statistics, h_index
from service.records.reading.projection_state import position_of, visible_league
from service.records.recording.games import player_names

#: Head-to-head rows per page.
PAIRS_PER_PAGE = 50
#: Finished games whose engine figures the page merges at once.
ENGINE_WINDOW = 200

#: The count of the merge events of a league's club (``%(league)s``): a tally names it.
MERGES = (
    "SELECT count(*) FROM player_merge_events e"
    " WHERE e.club_id = (SELECT l.club_id FROM leagues l WHERE l.id = %(league)s)"
)

FIGURES = """
WITH g AS MATERIALIZED (
    SELECT game_id, club_id, end_position, seats, places, first_seat, luck, events, turns, result_only,
           CASE WHEN events > 0 THEN extract(epoch FROM ended_at - created_at) / 60 END AS minutes,
           coalesce(ended_by, 'unknown') AS ended_by
    FROM stats_games WHERE league_id = %(league)s AND status = 'finished'
),
s AS MATERIALIZED (
    SELECT g.game_id, g.end_position, g.result_only, (x.ord - 1)::int AS seat,
           coalesce(m.kept_id::text, x.player) COLLATE "C" AS player,
           (g.places ->> (x.ord - 1)::int)::int AS place, g.luck -> (x.ord - 1)::text AS luck
    FROM g CROSS JOIN jsonb_array_elements_text(g.seats) WITH ORDINALITY AS x(player, ord)
    LEFT JOIN player_merges m ON m.club_id = g.club_id AND m.merged_id::text = x.player
),
pairs AS MATERIALIZED (
    SELECT a.player, b.player AS opponent, a.place AS mine, b.place AS theirs
    FROM s a JOIN s b ON a.game_id = b.game_id AND a.seat <> b.seat AND a.player <> b.player
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
    SELECT player, count(*) AS games, count(*) FILTER (WHERE place = 1) AS wins, sum(place) AS places,
           coalesce(sum((luck ->> 'count')::int), 0) AS chance_events,
           coalesce(sum((luck ->> 'sum')::float8), 0) AS luck_sum
    FROM s GROUP BY player
)
SELECT
    (SELECT count(*) FROM g) AS games,
    ({MERGES}) AS merges,
    (SELECT coalesce(max(end_position), 0) FROM g) AS last,
    (SELECT coalesce(sum(end_position), 0) FROM g) AS total,
    (SELECT count(*) FROM g WHERE result_only) AS result_only,
    (SELECT jsonb_build_object(
        'events', jsonb_build_array(coalesce(sum(events), 0), count(events)),
        'turns', jsonb_build_array(coalesce(sum(turns), 0), count(turns)),
        'minutes', jsonb_build_array(coalesce(sum(minutes), 0), count(minutes))) FROM g WHERE NOT result_only)
        AS sums,
    (SELECT count(*) FROM g WHERE NOT result_only AND (places ->> coalesce(first_seat, 0))::int = 1) AS first_wins,
    (SELECT coalesce(jsonb_object_agg(ended_by, n), '{}')
     FROM (SELECT ended_by, count(*) AS n FROM g WHERE NOT result_only GROUP BY ended_by) e) AS ended_by,
    (SELECT coalesce(jsonb_object_agg(seat, jsonb_build_array(n, wins)), '{}')
     FROM (SELECT seat, count(*) AS n, count(*) FILTER (WHERE place = 1) AS wins FROM s
           WHERE NOT result_only GROUP BY seat) b)
        AS by_seat,
    (SELECT coalesce(jsonb_object_agg(p.player, jsonb_build_object(
        'games', p.games, 'wins', p.wins, 'places', p.places, 'chance_events', p.chance_events,
        'luck_sum', p.luck_sum, 'longest', st.longest, 'current', st.current)), '{}')
     FROM players p JOIN streaks st USING (player)) AS players,
    (SELECT coalesce(jsonb_agg(jsonb_build_array(player, opponent, n)), '[]')
     FROM (SELECT player, opponent, count(*) AS n FROM pairs GROUP BY player, opponent) m) AS met,
    (SELECT coalesce(jsonb_agg(jsonb_build_array(player, opponent, ahead, behind, level)), '[]')
     FROM (SELECT player, opponent, count(*) FILTER (WHERE mine < theirs) AS ahead,
                  count(*) FILTER (WHERE mine > theirs) AS behind, count(*) FILTER (WHERE mine = theirs) AS level
           FROM pairs WHERE player < opponent GROUP BY player, opponent) h) AS head
""".replace("{MERGES}", MERGES)

#: What a league's tally is read from: its finished games (``after``: those that ended since),
#: and how many merges and un-merges of players its club has made (``club/merges.py``).
GAMES = """
SELECT count(*) AS games, coalesce(max(end_position), 0) AS last, coalesce(sum(end_position), 0) AS total,
       ({MERGES}) AS merges
FROM stats_games WHERE league_id = %(league)s AND status = 'finished' AND end_position <= %(end)s
""".replace("{MERGES}", MERGES)
ENDED_SINCE = """
SELECT end_position,
       (SELECT jsonb_agg(coalesce(m.kept_id::text, x.player) ORDER BY x.ord)
        FROM jsonb_array_elements_text(s.seats) WITH ORDINALITY AS x(player, ord)
        LEFT JOIN player_merges m ON m.club_id = s.club_id AND m.merged_id::text = x.player) AS seats,
       places, first_seat, luck, events, turns, result_only,
       coalesce(ended_by, 'unknown') AS ended_by,
       CASE WHEN events > 0 THEN extract(epoch FROM ended_at - created_at)::float8 / 60 END AS minutes
FROM stats_games s WHERE league_id = %s AND status = 'finished' AND end_position > %s ORDER BY end_position
"""
#: How long the table played, where a result-only game's record says so.
PLAY_LENGTH = """
SELECT count(r.minutes) AS games, avg(r.minutes)::float8 AS minutes
FROM result_games r JOIN stats_games s ON s.game_id = r.game_id
WHERE s.league_id = %s AND s.status = 'finished'
"""
#: No end position is past this.
END = 2**62


@dataclass
class Tally:
    """A league's finished games in sums that a later game adds to."""

    games: int = 0
    last: int = 0  # the highest end position
    total: int = 0  # the sum of the end positions
    merges: int = 0  # the club's merge events when it was summed: a merge sums the league again
    result_only: int = 0  # games logged by their result alone: in the players' figures, not in those of play
    sums: dict[str, list[float]] = field(default_factory=dict)  # events, turns, minutes: [sum, count]
    first_wins: int = 0
    ended_by: Counter = field(default_factory=Counter)
    by_seat: dict[int, list[int]] = field(default_factory=dict)  # seat -> [games, wins]
    players: dict[str, dict[str, Any]] = field(default_factory=dict)
    met: Counter = field(default_factory=Counter)  # (player, opponent) -> games together
    head: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # a < b -> [ahead, behind, level]

    def names(self, games: dict[str, Any]) -> bool:
        """Whether this tally holds exactly these games (``GAMES``'s row)."""
        return (self.games, self.last, self.total, self.merges) == (
            games["games"],
            games["last"],
            int(games["total"]),
            games["merges"],
        )

    def dump(self) -> dict[str, Any]:
        """The tally as JSON (``load`` reads it back)."""
        return {
            "games": self.games,
            "last": self.last,
            "total": self.total,
            "merges": self.merges,
            "result_only": self.result_only,
            "sums": self.sums,
            "first_wins": self.first_wins,
            "ended_by": dict(self.ended_by),
            "by_seat": {str(seat): v for seat, v in self.by_seat.items()},
            "players": self.players,
            "met": sorted([a, b, n] for (a, b), n in self.met.items()),
            "head": sorted([a, b, *v] for (a, b), v in self.head.items()),
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Tally:
        return cls.summed(data)

    @classmethod
    def summed(cls, row: dict[str, Any]) -> Tally:
        """The tally PostgreSQL summed (``FIGURES``)."""
        return cls(
            games=row["games"],
            last=row["last"],
            total=int(row["total"]),
            merges=row.get("merges", 0),
            result_only=row["result_only"],
            sums={k: [float(v[0]), int(v[1])] for k, v in row["sums"].items()},
            first_wins=row["first_wins"],
            ended_by=Counter(row["ended_by"]),
            by_seat={int(seat): list(v) for seat, v in row["by_seat"].items()},
            players=row["players"],
            met=Counter({(a, b): n for a, b, n in row["met"]}),
            head={(a, b): [ahead, behind, level] for a, b, ahead, behind, level in row["head"]},
        )

    def add(self, game: dict[str, Any]) -> None:
        """One more finished game, ended after every game already in the tally."""
        self.games += 1
        self.last = game["end_position"]
        self.total += game["end_position"]
        seats, places = game["seats"], game["places"]
        self.result_only += game["result_only"]
        if not game["result_only"]:
            self._add_play(game)
        for seat, player in enumerate(seats):
            place = places[seat]
            p = self.players.setdefault(
                player,
                {
                    "games": 0,
                    "wins": 0,
                    "places": 0,
                    "chance_events": 0,
                    "luck_sum": 0.0,
                    "longest": 0,
                    "current": 0,
                },
            )
            p["games"] += 1
            p["places"] += place
            p["current"] = p["current"] + 1 if place == 1 else 0
            p["wins"] += place == 1
            p["longest"] = max(p["longest"], p["current"])
            luck = (game["luck"] or {}).get(str(seat))
            if luck:
                p["chance_events"] += luck["count"]
                p["luck_sum"] += luck["sum"]
            for other_seat, other in enumerate(seats):
                if other == player:
                    continue
                self.met[(player, other)] += 1
                if player < other:
                    mine, theirs = place, places[other_seat]
                    self.head.setdefault((player, other), [0, 0, 0])[
                        0 if mine < theirs else 1 if mine > theirs else 2
                    ] += 1

    def _add_play(self, game: dict[str, Any]) -> None:
        """The figures of play of a game played action by action."""
        for key in ("events", "turns", "minutes"):
            cell = self.sums.setdefault(key, [0.0, 0])
            if game[key] is not None:
                cell[0] += float(game[key])
                cell[1] += 1
        places = game["places"]
        self.first_wins += places[game["first_seat"] or 0] == 1
        self.ended_by[game["ended_by"]] += 1
        for seat, place in enumerate(places):
            cell = self.by_seat.setdefault(seat, [0, 0])
            cell[0] += 1
            cell[1] += place == 1

    def figures(self, names: dict[str, str]) -> dict[str, Any]:
        """The page's figures (the head-to-head table whole, in the API's order)."""
        opponents: dict[str, list[int]] = defaultdict(list)
        for (player, _), n in self.met.items():
            opponents[player].append(n)
        played = self.games - self.result_only
        return {
            "games": self.games,
            "result_only_games": self.result_only,
            "average_length": {k: (s / n if n else None) for k, (s, n) in self.sums.items()},
            "first_player": {
                "games": played,
                "wins": self.first_wins,
                "win_rate": self.first_wins / played if played else None,
            },
            "win_rate_by_seat": [
                {"seat": seat, "games": n, "wins": wins, "win_rate": wins / n if n else None}
                for seat, (n, wins) in sorted(self.by_seat.items())
            ],
            "ended_by": dict(self.ended_by.most_common()),
            "players": [
                {
                    "player": player,
                    "name": names.get(player),
                    "games": p["games"],
                    "wins": p["wins"],
                    "win_rate": p["wins"] / p["games"],
                    "average_place": p["places"] / p["games"],
                    "longest_winning_streak": p["longest"],
                    "current_winning_streak": p["current"],
                    "h_index": h_index(opponents[player]),
                    "luck": {
                        "chance_events": p["chance_events"],
                        "average_percentile": p["luck_sum"] / p["chance_events"]
                        if p["chance_events"]
                        else None,
                        "expected_percentile": 0.5,
                    },
                }
                for player, p in sorted(self.players.items())
            ],
            "head_to_head": [
                {
                    "player": a,
                    "opponent": b,
                    "ahead": ahead,
                    "behind": behind,
                    "level": level,
                    "games": ahead + behind + level,
                    "name": names.get(a),
                    "opponent_name": names.get(b),
                }
                for (a, b), (ahead, behind, level) in sorted(self.head.items())
            ],
        }


#: The latest tally of each league this process has read.
TALLIES: dict[UUID, Tally] = {}
_TALLIES_LOCK = threading.Lock()

STORED = "SELECT games, last, total, tally FROM stats_tallies WHERE league_id = %s"


def tally(conn: psycopg.Connection, league_id: UUID) -> Tally:
    """The league's tally now: the one this process kept, else the one the
    statistics projection stored (``stats_tallies``), when either names the
    league's finished games; else one brought up to date (``advanced``)."""
    now = conn.execute(GAMES, {"league": league_id, "end": END}).fetchone()
    with _TALLIES_LOCK:
        kept = TALLIES.get(league_id)
    if kept is not None and kept.names(now):
        return kept
    stored = conn.execute(STORED, (league_id,)).fetchone()
    if stored is not None and (stored["games"], stored["last"], stored["total"]) == (
        now["games"],
        now["last"],
        now["total"],
    ):
        return _keep(league_id, Tally.load(stored["tally"]))
    return _keep(league_id, advanced(conn, league_id, kept, now))


def advanced(
    conn: psycopg.Connection,
    league_id: UUID,
    kept: Tally | None,
    now: dict[str, Any] | None = None,
    again: Callable[[], Tally] | None = None,
) -> Tally:
    """``kept`` plus the league's games that ended since, when no game it
    holds left the league's finished games; else the league summed again
    (``again``, by default by PostgreSQL)."""
    now = now or conn.execute(GAMES, {"league": league_id, "end": END}).fetchone()
    if kept is not None and kept.names(now):
        return kept
    if kept is not None and kept.last <= now["last"] and kept.merges == now["merges"]:
        before = conn.execute(GAMES, {"league": league_id, "end": kept.last}).fetchone()
        if (before["games"], before["total"]) == (kept.games, kept.total):
            return _added(conn, league_id, copy.deepcopy(kept))
    if again is not None:
        return again()
    return Tally.summed(conn.execute(FIGURES, {"league": league_id}).fetchone())


def _added(conn: psycopg.Connection, league_id: UUID, kept: Tally) -> Tally:
    for game in conn.execute(ENDED_SINCE, (league_id, kept.last)).fetchall():
        kept.add(game)
    return kept


def store_tally(conn: psycopg.Connection, league_id: UUID) -> None:
    """Bring the league's stored tally up to date with its finished games
    (the statistics projection calls this in the transaction that wrote
    them). The stored tally only ever adds games in the order they ended,
    from none when a game left it, so it is the same whatever the batches
    were: a rebuild equals it."""
    stored = conn.execute(STORED, (league_id,)).fetchone()
    now = conn.execute(GAMES, {"league": league_id, "end": END}).fetchone()
    fresh = advanced(
        conn,
        league_id,
        Tally.load(stored["tally"]) if stored else Tally(),
        now,
        again=lambda: _added(conn, league_id, Tally(merges=now["merges"])),
    )
    conn.execute(
        "INSERT INTO stats_tallies (league_id, games, last, total, tally) VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT (league_id) DO UPDATE SET games = EXCLUDED.games, last = EXCLUDED.last,"
        " total = EXCLUDED.total, tally = EXCLUDED.tally",
        (league_id, fresh.games, fresh.last, fresh.total, Jsonb(fresh.dump())),
    )


def _keep(league_id: UUID, fresh: Tally) -> Tally:
    with _TALLIES_LOCK:
        kept = TALLIES.get(league_id)
        if kept is None or kept.last <= fresh.last:
            TALLIES[league_id] = fresh
    return fresh


def statistics_page(
    records: Records, league_id: UUID, principal: Principal | None, page: int = 1, upto: int | None = None
) -> dict[str, Any]:
    """The league's figures with one page of its head-to-head table and the
    engines' own figures over the ``ENGINE_WINDOW`` games ending with the
    ``upto``-th finished game (default: the latest)."""
    page = max(page, 1)
    with records.pool.connection() as conn:
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        league = visible_league(conn, league_id, principal)
        position = position_of(conn, "statistics")
        figures = tally(conn, league_id)
        games = figures.games - figures.result_only  # the engine's figures are of the games played
        high = max(min(upto, games), 0) if upto is not None else games
        low = max(high - ENGINE_WINDOW, 0)
        merged = merges.mapping(conn, league["club_id"])
        window = [
            {**g, "seats": merges.follow(merged, g["seats"])}
            for g in conn.execute(
                "SELECT engine, seats, engine_stats FROM stats_games WHERE league_id = %s AND status = 'finished'"
                " AND NOT result_only ORDER BY end_position OFFSET %s LIMIT %s",
                (league_id, low, high - low),
            )
        ]
        names = player_names(conn, list(figures.players))
        play = conn.execute(PLAY_LENGTH, (league_id,)).fetchone()
    shown = figures.figures(names)
    pairs = len(shown["head_to_head"])
    shown["head_to_head"] = shown["head_to_head"][(page - 1) * PAIRS_PER_PAGE : page * PAIRS_PER_PAGE]
    by_engine = per_engine(window, names)
    shown["engine"] = by_engine[0]["merged"] if len(by_engine) == 1 else {}
    return {
        "league": league_info(league),
        "position": position,
        "statistics": shown,
        "engine_figures": by_engine,
        "play_length": {"games": play["games"], "minutes": play["minutes"]},
        "pairs": {"page": page, "pages": max((pairs + PAIRS_PER_PAGE - 1) // PAIRS_PER_PAGE, 1)},
        "engine_window": {
            "from": low + 1 if window else 0,
            "to": high,
            "earlier": low if low > 0 else None,
            "later": min(high + ENGINE_WINDOW, games) if high < games else None,
        },
    }


def per_engine(games: list[dict[str, Any]], names: dict[str, str]) -> list[dict[str, Any]]:
    """Each game's own figures over its own games alone (a league open to any
    game holds games whose figures do not mix), by the game's name: its
    title, how many of ``games`` are of it (``played``) and the figures in words."""
    out = []
    for engine in sorted({g["engine"] for g in games}, key=engine_title):
        played = [g for g in games if g["engine"] == engine]
        merged = engine_statistics(played)
        out.append(
            {
                "title": engine_title(engine),
                "played": len(played),
                "merged": merged,
                **engine_figures(merged, names),
            }
        )
    return [e for e in out if e["merged"]]
