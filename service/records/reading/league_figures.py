"""A league's statistics, aggregated when read from the statistics projection's
per-game rows: lengths, win rates by seat and for the first player, score
distributions, how games ended, head-to-head records, winning streaks,
H-index, each engine's own figures, and luck beside results."""

from __future__ import annotations

import json
import statistics as pystats
from collections import Counter, defaultdict
from typing import Any
from uuid import UUID

from service.records import access
from service.records.access import Principal
from service.records.club import merges
from service.records.log.context import Records
from service.records.reading.league import league_info
from service.records.reading.projection_state import position_of, visible_league
from service.records.recording.games import player_names

#: The statistics projection's per-game row.
FIELDS = (
    "game_id, club_id, league_id, engine, seats, status, result_only, created_at, ended_at, played_on, end_version,"
    " end_position,"
    " events, turns, first_seat, places, scores, ended_by, engine_stats, luck"
)


def statistics(
    records: Records, league_id: UUID, principal: Principal | None, min_position: int | None
) -> dict[str, Any]:
    """The league's finished games in figures, with the players' names."""
    with records.pool.connection() as conn:
        league = visible_league(conn, league_id, principal)
        access.may_wait_for_position(principal, league["club_id"], min_position)
        position = position_of(conn, "statistics", min_position)
        merged = merges.mapping(conn, league["club_id"])
        games = [
            {**g, "seats": merges.follow(merged, g["seats"])}
            for g in conn.execute(
                f"SELECT {FIELDS} FROM stats_games WHERE league_id = %s AND status = 'finished'"
                " ORDER BY end_position",
                (league_id,),
            )
        ]
        figures = league_statistics(games)
        names = player_names(conn, [p["player"] for p in figures["players"]])
    for key in ("players", "longest_winning_streaks", "head_to_head"):
        for row in figures[key]:
            row["name"] = names.get(row["player"])
            if "opponent" in row:
                row["opponent_name"] = names.get(row["opponent"])
    answer = {"league": league_info(league), "position": position, "statistics": figures}
    return access.positions_for(principal, league["club_id"], answer)


def summary(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"count": 0}
    ordered = sorted(values)
    q = pystats.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else [ordered[0]] * 3
    return {
        "count": len(ordered),
        "min": ordered[0],
        "p25": q[0],
        "median": q[1],
        "p75": q[2],
        "max": ordered[-1],
        "mean": sum(ordered) / len(ordered),
    }


def merge_engine_stats(values: list[Any]) -> Any:
    """Numbers: total and mean; dicts: merged key by key; strings and the
    items of lists (services held, cronies won): counted."""
    values = [v for v in values if v is not None]
    if not values:
        return None
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return {"total": sum(values), "mean": sum(values) / len(values), "games": len(values)}
    if all(isinstance(v, dict) for v in values):
        keys = sorted({k for v in values for k in v})
        return {k: merge_engine_stats([v.get(k) for v in values]) for k in keys}
    counts: Counter = Counter()
    for v in values:
        for item in v if isinstance(v, list) else [v]:
            counts[json.dumps(item, sort_keys=True) if not isinstance(item, str) else item] += 1
    return {"counts": dict(counts.most_common())}


def h_index(counts: list[int]) -> int:
    ordered = sorted(counts, reverse=True)
    return sum(1 for i, c in enumerate(ordered, start=1) if c >= i)


def block(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The statistics of a list of finished games (of one league, or one engine
    in it). The figures of play (length, seats, first player, how games ended,
    the game's own figures) are over the games played action by action
    (``played``): a result-only game has no actions, only its result, which
    counts in the players' figures and the scores."""
    played = [g for g in games if not g["result_only"]]
    seats_max = max((len(g["seats"]) for g in played), default=0)
    by_seat = []
    for seat in range(seats_max):
        at_seat = [g for g in played if seat < len(g["seats"])]
        wins = sum(1 for g in at_seat if g["places"][seat] == 1)
        by_seat.append(
            {
                "seat": seat,
                "games": len(at_seat),
                "wins": wins,
                "win_rate": wins / len(at_seat) if at_seat else None,
            }
        )
    first_wins = sum(1 for g in played if g["places"][g["first_seat"] or 0] == 1)
    # Recording time: from a game's first recorded action to its last.
    minutes = [(g["ended_at"] - g["created_at"]).total_seconds() / 60 for g in played if g["events"]]
    scored = [g for g in games if g["scores"] is not None]  # a result logged without scores has none
    all_scores = [s for g in scored for s in g["scores"]]
    winner_scores = [s for g in scored for s, p in zip(g["scores"], g["places"], strict=True) if p == 1]
    return {
        "games": len(games),
        "result_only_games": len(games) - len(played),
        "average_length": {
            "events": _mean([g["events"] for g in played]),
            "turns": _mean([g["turns"] for g in played]),
            "minutes": _mean(minutes),
        },
        "win_rate_by_seat": by_seat,
        "first_player": {
            "games": len(played),
            "wins": first_wins,
            "win_rate": first_wins / len(played) if played else None,
        },
        "scores": {"all": summary(all_scores), "winners": summary(winner_scores)},
        "ended_by": dict(Counter(g["ended_by"] or "unknown" for g in played).most_common()),
        "engine": engine_statistics(played),
    }


def engine_statistics(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The engines' own figures (their ``statistics`` hook) over the games:
    game-level figures merged, and the per-seat figures (``seats``, a list
    by seat) merged for everyone and for each player."""
    merged = merge_engine_stats([_without(g["engine_stats"], "seats") for g in games]) or {}
    everyone: list[dict[str, Any]] = []
    by_player: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for g in games:
        rows = (g["engine_stats"] or {}).get("seats") if isinstance(g["engine_stats"], dict) else None
        for seat, row in enumerate(rows or []):
            if isinstance(row, dict) and seat < len(g["seats"]):
                figures = _without(row, "seat")
                everyone.append(figures)
                by_player[g["seats"][seat]].append(figures)
    if everyone:
        merged["seats"] = {
            "all": merge_engine_stats(everyone),
            "by_player": {player: merge_engine_stats(rows) for player, rows in sorted(by_player.items())},
        }
    return merged


def _without(figures: Any, key: str) -> Any:
    return {k: v for k, v in figures.items() if k != key} if isinstance(figures, dict) else figures


def _mean(values: list[float | None]) -> float | None:
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def league_statistics(games: list[dict[str, Any]]) -> dict[str, Any]:
    """``games``: finished ``stats_games`` rows of a league, in the order they ended."""
    result = block(games)
    result["by_engine"] = {
        e: block([g for g in games if g["engine"] == e]) for e in sorted({g["engine"] for g in games})
    }
    if len(result["by_engine"]) > 1:
        result["engine"] = {}  # each game's own figures are its own: under ``by_engine``, never mixed
    players: dict[str, dict[str, Any]] = {}
    pairs: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # a ahead of b, behind, level
    opponents: dict[str, Counter] = defaultdict(Counter)
    for g in games:
        for seat, player in enumerate(g["seats"]):
            p = players.setdefault(
                player,
                {
                    "games": 0,
                    "wins": 0,
                    "places": [],
                    "streak": 0,
                    "best_streak": 0,
                    "chance_events": 0,
                    "luck_sum": 0.0,
                },
            )
            place = g["places"][seat]
            p["games"] += 1
            p["places"].append(place)
            if place == 1:
                p["wins"] += 1
                p["streak"] += 1
                p["best_streak"] = max(p["best_streak"], p["streak"])
            else:
                p["streak"] = 0
            cell = (g["luck"] or {}).get(str(seat))
            if cell:
                p["chance_events"] += cell["count"]
                p["luck_sum"] += cell["sum"]
            for other_seat, other in enumerate(g["seats"]):
                if other == player:
                    continue
                opponents[player][other] += 1
                if player < other:
                    a, b = g["places"][seat], g["places"][other_seat]
                    pairs[(player, other)][0 if a < b else 1 if a > b else 2] += 1
    result["players"] = [
        {
            "player": player,
            "games": p["games"],
            "wins": p["wins"],
            "win_rate": p["wins"] / p["games"],
            "average_place": sum(p["places"]) / p["games"],
            "longest_winning_streak": p["best_streak"],
            "current_winning_streak": p["streak"],
            "h_index": h_index(list(opponents[player].values())),
            "luck": {
                "chance_events": p["chance_events"],
                "average_percentile": p["luck_sum"] / p["chance_events"] if p["chance_events"] else None,
                "expected_percentile": 0.5,
            },
        }
        for player, p in sorted(players.items())
    ]
    result["head_to_head"] = [
        {"player": a, "opponent": b, "ahead": w, "behind": l_, "level": t, "games": w + l_ + t}
        for (a, b), (w, l_, t) in sorted(pairs.items())
    ]
    streaks = sorted(result["players"], key=lambda p: (-p["longest_winning_streak"], p["player"]))
    result["longest_winning_streaks"] = [
        {"player": p["player"], "streak": p["longest_winning_streak"]}
        for p in streaks
        if p["longest_winning_streak"]
    ][:10]
    return result
