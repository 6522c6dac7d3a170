"""League standings with openskill ratings (``service.records.reading.ratings``).

Per league game (``GameCreated.data["league"]``) the projection keeps the
game's live result: ``GameEnded`` sets it, an ``ActionsRetracted`` that takes
the game back before its end removes it (a later ``GameEnded`` sets the new
one), ``GameAbandoned`` means it never counts.

Ratings are a projection of the log, never a running total: a league's rated
games are ordered by the day each was played (``league.day_given``, else the
day it ended), then by the position at which it *first* ended (a corrected
result keeps its place in history), and whenever a result changes, or a game
played before others arrives after them (imported history), every rating from
that game on is recomputed from the ratings just before it. Such a game is
marked ``arrived_late``, for the league page to say so.
Standings rows (games, wins, placements, points, average score, rating,
rank) are recomputed from the league's results after each batch.

A merge of two players (``service/records/club/merges.py``) is folded the
same way: the seats of every game are read as the players they follow now,
and when a club's merges change (a merge or an un-merge) every league of the
club is recomputed from its first game (``settle``).

Tie-breaks, in order (see docs/workers.md): points, wins, rating (openskill
ordinal mu - 3 sigma), average score, fewer games played; players still level
share the rank ("1, 2, 2, 4"). Players with fewer than the league's
``min_games`` are listed unranked after the ranked ones.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from service.records.club import merges
from service.records.log.fold import GAME_CREATED, RESULT_RECORDED, SERVICE_EVENTS
from service.records.log.store import StoredEvent
from service.records.reading import league, ratings
from service.records.reading.league import DEFAULT_POINTS, ordinal, points_for, rank_key

GAME_FIELDS = (
    "game_id, league_id, seats, status, ended_version, ended_position, first_end_position,"
    " places, scores, ended_by, ended_at, played_on, arrived_late"
)


class Standings:
    name = "standings"
    event_types = SERVICE_EVENTS  # results only
    tables = ("standings_games", "rating_history", "standings", "standings_merges")

    def settle(self, conn: psycopg.Connection) -> None:
        """Recompute every league of each club whose merges changed since this
        projection last folded them, and note the merges it folded."""
        settle_merges(conn, "standings_merges", self._club_merged)

    def _club_merged(self, conn: psycopg.Connection, club_id: UUID, merged: dict[str, str]) -> None:
        leagues = conn.execute("SELECT id FROM leagues WHERE club_id = %s ORDER BY id", (club_id,)).fetchall()
        for row in leagues:
            recompute_league(conn, row["id"], None, merged)

    def apply(self, conn: psycopg.Connection, events: list[StoredEvent], batch) -> None:
        ids = list({e.game_id for e in events})
        games: dict[UUID, dict[str, Any]] = {
            r["game_id"]: r
            for r in conn.execute(
                f"SELECT {GAME_FIELDS} FROM standings_games WHERE game_id = ANY(%s)", (ids,)
            )
        }
        changed: set[UUID] = set()
        dirty: dict[UUID, tuple] = {}  # league -> the earliest rating-order key that changed
        latest = LatestDays(conn)
        for event in batch.live(events):
            try:
                self._event(event, games, changed, dirty, latest)
            except Exception as error:  # noqa: BLE001 - a poison event stops this game only
                batch.fail(event, error)
        if changed:
            with conn.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO standings_games ({GAME_FIELDS}) VALUES ({', '.join(['%s'] * 13)})"
                    " ON CONFLICT (game_id) DO UPDATE SET status = EXCLUDED.status,"
                    " ended_version = EXCLUDED.ended_version, ended_position = EXCLUDED.ended_position,"
                    " first_end_position = EXCLUDED.first_end_position, places = EXCLUDED.places,"
                    " scores = EXCLUDED.scores, ended_by = EXCLUDED.ended_by, ended_at = EXCLUDED.ended_at,"
                    " played_on = EXCLUDED.played_on, arrived_late = EXCLUDED.arrived_late",
                    [
                        (
                            g["game_id"],
                            g["league_id"],
                            Jsonb(g["seats"]),
                            g["status"],
                            g["ended_version"],
                            g["ended_position"],
                            g["first_end_position"],
                            Jsonb(g["places"]) if g["places"] is not None else None,
                            Jsonb(g["scores"]) if g["scores"] is not None else None,
                            g["ended_by"],
                            g["ended_at"],
                            g["played_on"],
                            g["arrived_late"],
                        )
                        for g in (games[i] for i in changed)
                    ],
                )
        for league_id in sorted(dirty, key=str):
            recompute_league(conn, league_id, dirty[league_id])

    def _event(self, e: StoredEvent, games: dict, changed: set, dirty: dict, latest: LatestDays) -> None:
        if e.type == GAME_CREATED:
            league_id = e.data.get("league")
            if not league_id:
                return
            seats = [str(s) for s in e.data["seats"]]
            games[e.game_id] = {
                "game_id": e.game_id,
                "league_id": UUID(str(league_id)),
                "seats": seats,
                "status": "active",
                "ended_version": None,
                "ended_position": None,
                "first_end_position": None,
                "places": None,
                "scores": None,
                "ended_by": None,
                "ended_at": None,
                "played_on": league.day_given(e),
                "arrived_late": False,
            }
            changed.add(e.game_id)
            return
        game = games.get(e.game_id)
        if game is None:
            return  # not a league game
        if e.type == RESULT_RECORDED:
            game["played_on"] = league.day_given(e) or game["played_on"]
            changed.add(e.game_id)
            return
        change = league.result_change(game["status"], game["ended_version"], e)
        if change == league.ENDED:
            result = league.game_result(e, len(game["seats"]))
            if game["first_end_position"] is None:  # its first end: its day is known from now on
                game["played_on"] = game["played_on"] or league.day_ended(e)
                game["arrived_late"] = latest.arrives(game["league_id"], game["played_on"])
            first = game["first_end_position"] or e.position
            game.update(
                status="finished",
                ended_version=e.version,
                ended_position=e.position,
                first_end_position=first,
                ended_at=e.recorded_at,
                **result,
            )
            _mark(dirty, game["league_id"], _order(game))
        elif change == league.REOPENED:
            game.update(
                status="active",
                ended_version=None,
                ended_position=None,
                places=None,
                scores=None,
                ended_by=None,
                ended_at=None,
            )
            _mark(dirty, game["league_id"], _order(game))
        elif change == league.ABANDONED:
            if game["status"] == "finished":
                _mark(dirty, game["league_id"], _order(game))
            game["status"] = "abandoned"
        else:
            return
        changed.add(e.game_id)


class LatestDays:
    """The latest day played among each league's games that have ended, as the
    log has them so far: a game that ends with a day before it arrived late."""

    def __init__(self, conn: psycopg.Connection):
        self.conn, self.days = conn, {}

    def arrives(self, league_id: UUID, day: dt.date) -> bool:
        """Whether a game of ``league_id`` played on ``day`` arrives after a game played later."""
        if league_id not in self.days:
            self.days[league_id] = self.conn.execute(
                "SELECT max(played_on) AS day FROM standings_games"
                " WHERE league_id = %s AND first_end_position IS NOT NULL",
                (league_id,),
            ).fetchone()["day"]
        latest = self.days[league_id]
        self.days[league_id] = max(latest or day, day)
        return latest is not None and day < latest


def _order(game: dict) -> tuple:
    return league.rating_order(game["played_on"], game["first_end_position"])


def _mark(dirty: dict, league_id: UUID, key: tuple) -> None:
    dirty[league_id] = min(dirty.get(league_id, key), key)


def settle_merges(conn: psycopg.Connection, marks: str, redo) -> None:
    """For each club whose merges (``player_merges``) differ from those a
    projection last folded (its table ``marks``): ``redo(conn, club, merges)``,
    then note those merges as folded."""
    table = sql.Identifier(marks)
    clubs = conn.execute(
        sql.SQL(
            "SELECT DISTINCT coalesce(a.club_id, b.club_id) AS club_id FROM player_merges a"
            " FULL JOIN {} b ON a.merged_id = b.merged_id WHERE a.kept_id IS DISTINCT FROM b.kept_id"
        ).format(table)
    ).fetchall()
    for row in clubs:
        club_id = row["club_id"]
        merged = merges.mapping(conn, club_id)
        redo(conn, club_id, merged)
        conn.execute(sql.SQL("DELETE FROM {} WHERE club_id = %s").format(table), (club_id,))
        if merged:
            conn.execute(
                sql.SQL(
                    "INSERT INTO {} (merged_id, club_id, kept_id)"
                    " SELECT m, %s, k FROM unnest(%s::uuid[], %s::uuid[]) AS x(m, k)"
                ).format(table),
                (club_id, list(merged), list(merged.values())),
            )


def recompute_league(
    conn: psycopg.Connection, league_id: UUID, from_key: tuple | None = None, merged: dict | None = None
) -> None:
    """Ratings from the first counted game at or after ``from_key`` (in
    ``league.rating_order``; None: from the first) on, then the league's
    standings rows; each game's seats as the players they follow now
    (``merged``: the club's merges, read when None)."""
    row = conn.execute(
        "SELECT club_id, points_table, min_games FROM leagues WHERE id = %s", (league_id,)
    ).fetchone()
    points_table = (row["points_table"] if row else None) or DEFAULT_POINTS
    min_games = row["min_games"] if row else 1
    if merged is None:
        merged = merges.mapping(conn, row["club_id"]) if row else {}
    games = [
        {**g, "seats": merges.follow(merged, g["seats"])} if merged else g
        for g in conn.execute(
            f"SELECT {GAME_FIELDS} FROM standings_games WHERE league_id = %s AND status = 'finished'"
            " ORDER BY played_on, first_end_position, game_id",
            (league_id,),
        )
    ]
    start = next((i for i, g in enumerate(games) if from_key is None or _order(g) >= from_key), len(games))
    conn.execute("DELETE FROM rating_history WHERE league_id = %s AND seq > %s", (league_id, start))
    known: dict[str, tuple[float, float]] = {
        str(r["player_id"]): (r["mu_after"], r["sigma_after"])
        for r in conn.execute(
            "SELECT DISTINCT ON (player_id) player_id, mu_after, sigma_after FROM rating_history"
            " WHERE league_id = %s AND seq <= %s ORDER BY player_id, seq DESC",
            (league_id, start),
        )
    }
    history = []
    for seq, game in enumerate(games[start:], start=start + 1):
        history.extend(_rate(league_id, seq, game, known))
    if history:
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO rating_history (league_id, seq, game_id, player_id, seat, place, mu_before,"
                " sigma_before, mu_after, sigma_after) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                history,
            )
    rows = _standings_rows(league_id, games, known, points_table, min_games)
    conn.execute("DELETE FROM standings WHERE league_id = %s", (league_id,))
    if rows:
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO standings (league_id, player_id, games, wins, placements, points, score_total,"
                " average_score, mu, sigma, rating, ranked, rank)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                rows,
            )


def _rate(league_id: UUID, seq: int, game: dict, known: dict) -> list[tuple]:
    seats, places = game["seats"], game["places"]
    if len(set(seats)) != len(seats) or len(seats) < 2:
        return []  # a player in two seats, or a solo game: not rated
    before = [known.get(p, ratings.initial()) for p in seats]
    after = ratings.rate(before, places)
    rows = []
    for seat, (player, (mu0, s0), (mu1, s1)) in enumerate(zip(seats, before, after, strict=True)):
        known[player] = (mu1, s1)
        rows.append((league_id, seq, game["game_id"], UUID(player), seat, places[seat], mu0, s0, mu1, s1))
    return rows


def _standings_rows(league_id, games, known, points_table, min_games) -> list[tuple]:
    acc: dict[str, dict[str, Any]] = {}
    for game in games:
        for seat, player in enumerate(game["seats"]):
            place = game["places"][seat]
            a = acc.setdefault(
                player,
                {"games": 0, "wins": 0, "placements": Counter(), "points": 0.0, "score": None, "scored": 0},
            )
            a["games"] += 1
            a["wins"] += place == 1
            a["placements"][str(place)] += 1
            a["points"] += points_for(points_table, place)
            if game["scores"] is not None:  # a result logged without scores counts for no score
                a["score"] = (a["score"] or 0.0) + float(game["scores"][seat])
                a["scored"] += 1
    rows = []
    for player, a in acc.items():
        mu, sigma = known.get(player, ratings.initial())
        average = a["score"] / a["scored"] if a["scored"] else None
        a.update(mu=mu, sigma=sigma, rating=ordinal(mu, sigma), average=average)
        a["ranked"] = a["games"] >= max(min_games, 1)
        a["key"] = rank_key(a["points"], a["wins"], a["rating"], a["average"], a["games"])
    ranked = sorted((p for p in acc if acc[p]["ranked"]), key=lambda p: acc[p]["key"])
    rank_of: dict[str, int] = {}
    for i, player in enumerate(ranked):
        previous = ranked[i - 1] if i else None
        same = previous is not None and acc[previous]["key"] == acc[player]["key"]
        rank_of[player] = rank_of[previous] if same else i + 1
    for player, a in sorted(acc.items()):
        rows.append(
            (
                league_id,
                UUID(player),
                a["games"],
                a["wins"],
                Jsonb(dict(sorted(a["placements"].items()))),
                a["points"],
                a["score"],
                a["average"],
                a["mu"],
                a["sigma"],
                a["rating"],
                a["ranked"],
                rank_of.get(player),
            )
        )
    return rows
