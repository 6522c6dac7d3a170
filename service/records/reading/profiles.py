"""A player's profile: every finished game they played in their club, their
win rates overall, per game and per seat, streaks, rating history in each
league, and their record against every opponent.

The games are the statistics projection's (``stats_games``: every game of the
club, in a league or not, with its result). The figures are a plain fold of
those games in the order they were played (by day, then as they ended: ``figures``), so they can be checked
against the events themselves (``tests/records/test_profiles.py``). A merged-in
player's profile is the profile of the player they follow, and every game's
seats are read as the players they follow now (``club/merges.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from service.records import access
from service.records.access import Principal
from service.records.club import merges
from service.records.errors import NotFound
from service.records.log.context import Records
from service.records.reading import game_search
from service.records.reading.game_search import engine_title
from service.records.reading.ratings import shown
from service.records.recording.games import player_names

#: Games listed per page of a profile.
GAMES_PER_PAGE = 50
#: A league's latest rated games the profile's page lists (the API gives them all).
RATED_GAMES_SHOWN = 20


def figures(player: str, games: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Win rates overall, per game and per seat, streaks and head-to-head, from
    the player's finished games in the order they ended (each with ``engine``,
    ``seats`` as player ids and ``places``). A shared first place is a win."""
    played = wins = 0
    by_engine: dict[str, list[int]] = {}
    by_seat: dict[int, list[int]] = {}
    run = longest = 0
    opponents: dict[str, dict[str, int]] = {}
    for game in games:
        seats, places = [str(s) for s in game["seats"]], game["places"]
        for seat, who in enumerate(seats):
            if who != player:
                continue
            won = places[seat] == 1
            played += 1
            wins += won
            tally = by_engine.setdefault(game["engine"], [0, 0])
            tally[0] += 1
            tally[1] += won
            tally = by_seat.setdefault(seat, [0, 0])
            tally[0] += 1
            tally[1] += won
            run = run + 1 if won else 0
            longest = max(longest, run)
            for other_seat, other in enumerate(seats):
                if other == player:
                    continue
                h = opponents.setdefault(other, {"games": 0, "ahead": 0, "behind": 0, "level": 0})
                h["games"] += 1
                mine, theirs = places[seat], places[other_seat]
                h["ahead" if mine < theirs else "behind" if mine > theirs else "level"] += 1
    return {
        "games": played,
        "wins": wins,
        "win_rate": wins / played if played else None,
        "by_game": {e: {"games": n, "wins": w, "win_rate": w / n} for e, (n, w) in by_engine.items()},
        "by_seat": {s: {"games": n, "wins": w, "win_rate": w / n} for s, (n, w) in sorted(by_seat.items())},
        "streaks": {"longest_winning": longest, "current_winning": run},
        "head_to_head": opponents,
    }


PLAYER_GAMES = """
SELECT s.game_id, s.engine, s.league_id, l.name AS league, s.seats, s.places, s.scores, s.created_at,
       s.ended_at, s.played_on, s.end_position, s.result_only
FROM stats_games s LEFT JOIN leagues l ON l.id = s.league_id
WHERE s.club_id = %(club)s AND s.status = 'finished' AND s.seats ?| %(me)s::text[] AND {seen}
ORDER BY s.played_on, s.end_position
"""

RATINGS = """
SELECT h.league_id, l.name AS league, h.seq, h.place, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after,
       g.ended_at, g.played_on
FROM rating_history h JOIN leagues l ON l.id = h.league_id JOIN standings_games g USING (game_id)
WHERE h.player_id = %s ORDER BY l.created_at, h.league_id, h.seq
"""


def player_profile(
    records: Records, player_id: UUID, principal: Principal | None, page: int = 1
) -> dict[str, Any]:
    """The profile of ``player_id`` as its club's tokens may read it; the
    game list is paged (newest first, ``GAMES_PER_PAGE`` a page)."""
    with records.pool.connection() as conn:
        player_id = merges.followed(conn, player_id)
        player = conn.execute("SELECT id, club_id, name FROM players WHERE id = %s", (player_id,)).fetchone()
        if player is None:
            raise NotFound("player")
        viewer = access.may_see_player(principal, player["club_id"])
        me = str(player_id)
        seen, params = game_search.visible(viewer)
        merged = merges.mapping(conn, player["club_id"])
        games = [
            {**g, "seats": merges.follow(merged, g["seats"])}
            for g in conn.execute(
                PLAYER_GAMES.format(seen=seen),
                {"club": player["club_id"], "me": merges.group(conn, player_id), **params},
            )
        ]
        ratings = conn.execute(RATINGS, (player_id,)).fetchall()
        names = player_names(conn, {s for g in games for s in g["seats"]}, player["club_id"])
    folded = figures(me, games)
    pages = max(1, -(-len(games) // GAMES_PER_PAGE))
    page = min(max(page, 1), pages)
    newest = games[::-1][(page - 1) * GAMES_PER_PAGE : page * GAMES_PER_PAGE]
    head = [{"player": other, "name": names.get(other), **h} for other, h in folded["head_to_head"].items()]
    head.sort(key=lambda h: (-h["games"], h["name"] or ""))
    return {
        "player": {"id": me, "name": player["name"], "club": str(player["club_id"])},
        "games": folded["games"],
        "wins": folded["wins"],
        "win_rate": folded["win_rate"],
        "by_game": sorted(
            ({"engine": e, "title": engine_title(e), **f} for e, f in folded["by_game"].items()),
            key=lambda r: -r["games"],
        ),
        "by_seat": [{"seat": s + 1, **f} for s, f in folded["by_seat"].items()],
        "streaks": folded["streaks"],
        "head_to_head": head,
        "ratings": _rating_lines(ratings),
        "played": {
            "page": page,
            "pages": pages,
            "games": [_played(g, me, names) for g in newest],
        },
    }


def _played(game: dict[str, Any], me: str, names: dict[str, str]) -> dict[str, Any]:
    seats = [str(s) for s in game["seats"]]
    seat = seats.index(me)
    return {
        "game": str(game["game_id"]),
        "engine": game["engine"],
        "title": engine_title(game["engine"]),
        "league": {"id": str(game["league_id"]), "name": game["league"]} if game["league_id"] else None,
        "ended_at": game["ended_at"],
        "played_on": game["played_on"],
        "seat": seat + 1,
        "place": game["places"][seat],
        "score": game["scores"][seat] if game["scores"] else None,
        "result_only": game["result_only"],
        "players": [
            {"player": p, "name": names.get(p), "place": place}
            for p, place in sorted(zip(seats, game["places"], strict=True), key=lambda x: x[1])
        ],
    }


def _rating_lines(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    leagues: dict[str, dict[str, Any]] = {}
    for r in rows:
        line = leagues.setdefault(
            str(r["league_id"]), {"league": str(r["league_id"]), "name": r["league"], "games": []}
        )
        before, after = shown(r["mu_before"], r["sigma_before"]), shown(r["mu_after"], r["sigma_after"])
        line["games"].append(
            {
                "game": r["seq"],
                "ended_at": r["ended_at"],
                "played_on": r["played_on"],
                "place": r["place"],
                "rating": after,
                "change": after - before,
            }
        )
    return list(leagues.values())
