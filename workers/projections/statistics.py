"""Per-game figures for league statistics, filled when a game ends.

When a game's ``GameEnded`` is applied, its live line (up to that event) is
folded once through its engine: the number of engine events and of turns,
the first player, each seat's luck (``engine.luck`` on every chance event:
the percentile of the outcome for the seat it fell to) and the engine's own
``statistics`` hook on the final state. A result-only game
(``recording/results.py``) has no action to fold: only its result is kept, and
it is marked ``result_only`` so that the figures of play leave it out. A retraction that takes the end back
clears the figures; abandoned games are kept but never counted.

The league-level statistics (win rates, distributions, head-to-head, streaks,
H-index, luck against results) are aggregated from these rows when read
(``service/records/reading/league_figures.py``); the statistics page's sums of them
are kept per league (``stats_tallies``) in the same transaction, so that a
new process does not sum a league again.
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from engines import registry
from engines.base import Event
from service.records.log import store
from service.records.log.fold import GAME_CREATED, RESULT_RECORDED, SERVICE_EVENTS, live_line
from service.records.log.store import StoredEvent
from service.records.pages.league_figures_page import store_tally
from service.records.reading import league
from service.records.reading.league_figures import FIELDS
from service.records.recording.games import engine_config
from workers.projections.standings import settle_merges

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
    tables = ("stats_games", "stats_tallies", "stats_merges")

    def settle(self, conn: psycopg.Connection) -> None:
        """Sum again the stored tallies of each club whose merges changed."""
        settle_merges(conn, "stats_merges", self._club_merged)

    def _club_merged(self, conn: psycopg.Connection, club_id: UUID, merged: dict[str, str]) -> None:
        for row in conn.execute(
            "SELECT id FROM leagues WHERE club_id = %s ORDER BY id", (club_id,)
        ).fetchall():
            if conn.execute("SELECT 1 FROM stats_tallies WHERE league_id = %s", (row["id"],)).fetchone():
                store_tally(conn, row["id"])

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
            streams = store.read_streams(conn, to_fold, max(ended[g].position for g in to_fold))
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
            for league_id in sorted({games[i]["league_id"] for i in changed} - {None}, key=str):
                store_tally(conn, league_id)

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
                "result_only": bool(d.get("result_only")),
                "created_at": e.recorded_at,
                "played_on": league.day_given(e),
                **dict.fromkeys(RESULT_FIELDS),
            }
            return
        game = games.get(e.game_id)
        if game is None:
            return
        if e.type == RESULT_RECORDED:
            game["played_on"] = league.day_given(e) or game["played_on"]
            return
        change = league.result_change(game["status"], game["end_version"], e)
        if change == league.ENDED:
            game.update(
                status="finished",
                played_on=game["played_on"] or league.day_ended(e),  # a corrected end keeps the first's day
                ended_at=e.recorded_at,
                end_version=e.version,
                end_position=e.position,
                **league.game_result(e, len(game["seats"])),
            )
            ended[e.game_id] = e
        elif change == league.REOPENED:
            game.update(status="active", **dict.fromkeys(RESULT_FIELDS))
        elif change == league.ABANDONED:
            game["status"] = "abandoned"


def fold_figures(conn: psycopg.Connection, game: dict, stream: list[StoredEvent]) -> dict[str, Any]:
    if game["result_only"]:
        # Logged by its result alone: no action, so no length, first player, luck or figures of play.
        return {"events": 0, "turns": None, "first_seat": None, "engine_stats": None, "luck": {}}
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
        for seat, pct in engine.luck(state, event).items():
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
    engine_stats = plain(engine.statistics(state))
    if isinstance(engine_stats, dict) and isinstance(engine_stats.get("turns"), int):
        turns = engine_stats["turns"]
    return {
        "events": count,
        "turns": turns,
        "first_seat": first_seat if first_seat is not None else 0,
        "engine_stats": engine_stats,
        "luck": luck,
    }
