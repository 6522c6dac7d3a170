"""Per-game figures for league statistics, filled when a game ends.

When a game's ``GameEnded`` is applied, its live line (up to that event) is
folded once through its engine: the number of engine events and of turns,
the first player, each seat's luck (``engine.luck`` on every chance event:
the percentile of the outcome for the seat it fell to) and the engine's own
``statistics`` hook on the final state. A retraction that takes the end back
clears the figures; abandoned games are kept but never counted.

The league-level statistics (win rates, distributions, head-to-head, streaks,
H-index, luck against results) are aggregated from these rows when read
(``league_statistics``).

Engines without a ``luck`` or ``statistics`` hook (or whose hook raises
``NotImplementedError``) simply contribute nothing there.
"""

from __future__ import annotations

import json
import statistics as pystats
from collections import Counter, defaultdict
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from engines import registry
from engines.base import Engine, Event
from service import store
from service.replay import (
    ACTIONS_RETRACTED,
    GAME_ABANDONED,
    GAME_CREATED,
    GAME_ENDED,
    SERVICE_EVENTS,
    live_line,
)
from service.store import StoredEvent
from workers.projections.replays import engine_config

FIELDS = (
    "game_id, club_id, league_id, engine, seats, status, created_at, ended_at, end_version, end_position,"
    " events, turns, first_seat, places, scores, ended_by, engine_stats, luck"
)
JSON_FIELDS = {"seats", "places", "scores", "engine_stats", "luck"}


# What a game's end sets; a retraction past the end clears it again.
RESULT_FIELDS = (
    "ended_at",
    "end_version",
    "end_position",
    "events",
    "turns",
    "first_seat",
    "places",
    "scores",
    "ended_by",
    "engine_stats",
    "luck",
)


def _hook(engine: Engine, name: str, *args: Any) -> Any:
    method = getattr(engine, name, None)
    if method is None:
        return None
    try:
        return method(*args)
    except NotImplementedError:
        return None


def plain(value: Any) -> Any:
    """JSON-safe (an engine hook may return tuples, sets, enums)."""
    return json.loads(
        json.dumps(value, default=lambda v: sorted(v) if isinstance(v, (set, frozenset)) else str(v))
    )


class Statistics:
    name = "statistics"
    event_types = (
        SERVICE_EVENTS  # the engine events are never needed (statistics reads a stream when it ends)
    )
    tables = ("stats_games",)

    def apply(self, conn: psycopg.Connection, events: list[StoredEvent], batch) -> None:
        ids = list({e.game_id for e in events})
        games = {
            r["game_id"]: r
            for r in conn.execute(f"SELECT {FIELDS} FROM stats_games WHERE game_id = ANY(%s)", (ids,))
        }
        changed: set[UUID] = set()
        ended: dict[UUID, StoredEvent] = {}
        for event in batch.live(events):
            try:
                self._event(event, games, ended)
            except Exception as error:  # noqa: BLE001 - a poison event stops this game only
                batch.fail(event, error)
                continue
            if event.game_id in games and event.type in SERVICE_EVENTS:
                changed.add(event.game_id)
        to_fold = [
            g
            for g, e in ended.items()
            if games[g]["status"] == "finished" and games[g]["end_position"] == e.position
        ]
        if to_fold:
            upto = max(ended[g].position for g in to_fold)
            streams: dict[UUID, list[StoredEvent]] = defaultdict(list)
            rows = conn.execute(
                f"SELECT {store.COLUMNS} FROM events WHERE game_id = ANY(%s) AND position <= %s ORDER BY game_id, version",
                (to_fold, upto),
            )
            for row in rows:
                streams[row["game_id"]].append(StoredEvent(**row))
            for game_id in to_fold:
                end = ended[game_id]
                try:
                    figures = fold_figures(
                        conn, games[game_id], [e for e in streams[game_id] if e.position <= end.position]
                    )
                except Exception as error:  # noqa: BLE001 - the engine could not fold this game
                    batch.fail(end, error)
                    games[game_id]["status"] = "error"
                    continue
                games[game_id].update(figures)
        if changed:
            columns = FIELDS.split(", ")
            placeholders = ", ".join(["%s"] * len(columns))
            updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c != "game_id")
            with conn.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO stats_games ({FIELDS}) VALUES ({placeholders})"
                    f" ON CONFLICT (game_id) DO UPDATE SET {updates}",
                    [
                        tuple(
                            (Jsonb(g[c]) if g[c] is not None else None) if c in JSON_FIELDS else g[c]
                            for c in columns
                        )
                        for g in (games[i] for i in sorted(changed, key=str))
                    ],
                )

    def _event(self, e: StoredEvent, games: dict, ended: dict) -> None:
        if e.type == GAME_CREATED:
            d = e.data
            games[e.game_id] = {
                "game_id": e.game_id,
                "club_id": UUID(str(d["club"])),
                "league_id": UUID(str(d["league"])) if d.get("league") else None,
                "engine": d["engine"],
                "seats": [str(s) for s in d["seats"]],
                "status": "active",
                "created_at": e.recorded_at,
                **dict.fromkeys(RESULT_FIELDS),
            }
            return
        game = games.get(e.game_id)
        if game is None:
            return
        if e.type == GAME_ENDED:
            places = [int(p) for p in e.data["places"]]
            if len(places) != len(game["seats"]):
                raise ValueError(f"GameEnded places {places} do not fit {len(game['seats'])} seats")
            scores = [float(s) for s in (e.data.get("scores") or [0.0] * len(places))]
            game.update(
                status="finished",
                ended_at=e.recorded_at,
                end_version=e.version,
                end_position=e.position,
                places=places,
                scores=scores,
                ended_by=e.data.get("ended_by") or "",
            )
            ended[e.game_id] = e
        elif e.type == ACTIONS_RETRACTED:
            if game["status"] == "finished" and game["end_version"] > int(e.data["to_version"]):
                game.update(
                    status="active",
                    **dict.fromkeys(RESULT_FIELDS),
                )
        elif e.type == GAME_ABANDONED:
            game["status"] = "abandoned"


def fold_figures(conn: psycopg.Connection, game: dict, stream: list[StoredEvent]) -> dict[str, Any]:
    created = stream[0].data
    engine = registry.get(game["engine"])
    config = engine_config(
        conn,
        len(game["seats"]),
        created.get("options") or {},
        created.get("dealer", "server"),
        created.get("catalog"),
    )
    state = engine.initial_state(config)
    luck: dict[str, dict[str, float]] = {}
    count, turns, first_seat, last_seat = 0, 0, None, None
    for stored in live_line(stream):
        if stored.type in SERVICE_EVENTS:
            continue
        event = Event(stored.type, stored.data)
        for seat, pct in (_hook(engine, "luck", state, event) or {}).items():
            cell = luck.setdefault(str(int(seat)), {"sum": 0.0, "count": 0})
            cell["sum"] += float(pct)
            cell["count"] += 1
        state = engine.evolve(state, event)
        count += 1
        seat = stored.data.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool):
            if first_seat is None:
                first_seat = seat
            if seat != last_seat:
                turns += 1
                last_seat = seat
    engine_stats = plain(_hook(engine, "statistics", state) or {})
    if isinstance(engine_stats, dict) and isinstance(engine_stats.get("turns"), int):
        turns = engine_stats["turns"]
    return {
        "events": count,
        "turns": turns,
        "first_seat": first_seat if first_seat is not None else 0,
        "engine_stats": engine_stats,
        "luck": luck,
    }


# -- league statistics, aggregated when read ---------------------------------------


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
    """The statistics of a list of finished games (of one league, or one engine in it)."""
    seats_max = max((len(g["seats"]) for g in games), default=0)
    by_seat = []
    for seat in range(seats_max):
        played = [g for g in games if seat < len(g["seats"])]
        wins = sum(1 for g in played if g["places"][seat] == 1)
        by_seat.append(
            {
                "seat": seat,
                "games": len(played),
                "wins": wins,
                "win_rate": wins / len(played) if played else None,
            }
        )
    first_wins = sum(1 for g in games if g["places"][g["first_seat"] or 0] == 1)
    minutes = [(g["ended_at"] - g["created_at"]).total_seconds() / 60 for g in games]
    all_scores = [s for g in games for s in g["scores"]]
    winner_scores = [s for g in games for s, p in zip(g["scores"], g["places"], strict=True) if p == 1]
    return {
        "games": len(games),
        "average_length": {
            "events": _mean([g["events"] for g in games]),
            "turns": _mean([g["turns"] for g in games]),
            "minutes": _mean(minutes),
        },
        "win_rate_by_seat": by_seat,
        "first_player": {
            "games": len(games),
            "wins": first_wins,
            "win_rate": first_wins / len(games) if games else None,
        },
        "scores": {"all": summary(all_scores), "winners": summary(winner_scores)},
        "ended_by": dict(Counter(g["ended_by"] or "unknown" for g in games).most_common()),
        "engine": engine_statistics(games),
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
