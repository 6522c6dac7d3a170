"""Game replays: each game's steps, with a state kept every few steps.

Step ``n`` is the game's event of version ``n``. The projection keeps a
game's header (players' names, status, step count, seed once revealed, and
its retractions) and the full state after step 1 (``GameCreated``: the
initial state), after every ``KEEP_EVERY``-th step, and after each
``ActionsRetracted`` (the state the game went back to). A step's event comes
from the log and its state is folded from the nearest kept state at or before
it when the replay is read (service/records/reading/steps.py): at most
``KEEP_EVERY - 1`` events to fold, a fraction of the storage of a state per
step. What a reader may see (a seat's view, redacted events) is decided then
too.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from engines import registry
from engines.base import Engine, Event, GameConfig
from service.records.log import store
from service.records.log.fold import (
    ACTIONS_RETRACTED,
    GAME_ABANDONED,
    GAME_CREATED,
    GAME_ENDED,
    SERVICE_EVENTS,
)
from service.records.log.store import StoredEvent
from service.records.reading.steps import fold_steps, kept_state_at
from service.records.recording.games import engine_config, player_names

GAME_FIELDS = (
    "game_id, club_id, engine, seats, names, options, dealer, catalog, status, steps, live_version, seed,"
    " retractions"
)

# A kept state every KEEP_EVERY steps: a step is read by folding at most
# KEEP_EVERY - 1 events onto one (docs/architecture.md has the figures).
KEEP_EVERY = 16


class Replays:
    name = "replays"
    event_types = None  # every event is a step
    tables = ("replay_games", "replay_states")

    def apply(self, conn: psycopg.Connection, events: list[StoredEvent], batch) -> None:
        _Steps(conn, {e.game_id for e in events}).apply(events, batch)


def _seat_ids(data: dict[str, Any]) -> list[UUID]:
    """The seats of a GameCreated that are player ids (a malformed one fails
    its own game when applied, not the batch)."""
    ids = []
    for seat in data.get("seats") or [] if isinstance(data, dict) else []:
        try:
            ids.append(UUID(str(seat)))
        except ValueError:
            continue
    return ids


class _Steps:
    """One batch's work: the games it touches, their engines and states, and
    the states it keeps (nothing outlives the batch)."""

    def __init__(self, conn: psycopg.Connection, ids: set[UUID]):
        self.conn = conn
        self.games: dict[UUID, dict[str, Any]] = {
            r["game_id"]: r
            for r in conn.execute(
                f"SELECT {GAME_FIELDS} FROM replay_games WHERE game_id = ANY(%s)", (list(ids),)
            )
        }
        self.runtime: dict[UUID, tuple[Engine, GameConfig]] = {}
        self.states: dict[UUID, Any] = {}  # current state objects
        self.kept: dict[tuple[UUID, int], Any] = {}  # new kept states (objects) by (game, step)

    def apply(self, events: list[StoredEvent], batch) -> None:
        # Every new game's players' names in one query (not one per game).
        self.names = player_names(
            self.conn, {s for e in events if e.type == GAME_CREATED for s in _seat_ids(e.data)}
        )
        changed: set[UUID] = set()
        for event in batch.live(events):
            try:
                self._event(event)
            except Exception as error:  # noqa: BLE001 - a poison event stops this game only
                batch.fail(event, error)
                continue
            changed.add(event.game_id)
        with self.conn.cursor() as cur:
            if changed:
                cur.executemany(
                    f"INSERT INTO replay_games ({GAME_FIELDS})"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT (game_id) DO UPDATE SET status = EXCLUDED.status, steps = EXCLUDED.steps,"
                    " live_version = EXCLUDED.live_version, seed = EXCLUDED.seed,"
                    " retractions = EXCLUDED.retractions",
                    [
                        (
                            g["game_id"],
                            g["club_id"],
                            g["engine"],
                            Jsonb(g["seats"]),
                            Jsonb(g["names"]),
                            Jsonb(g["options"]),
                            g["dealer"],
                            Jsonb(g["catalog"]) if g["catalog"] else None,
                            g["status"],
                            g["steps"],
                            g["live_version"],
                            g["seed"],
                            Jsonb(g["retractions"]),
                        )
                        for g in (self.games[i] for i in sorted(changed, key=str))
                    ],
                )
            kept = [(g, step, state) for (g, step), state in self.kept.items() if g in changed]
            if kept:
                cur.executemany(
                    "INSERT INTO replay_states (game_id, step, state) VALUES (%s, %s, %s)",
                    [(g, step, Jsonb(self._engine(g).dump_state(state))) for g, step, state in kept],
                )

    # -- one event ---------------------------------------------------------------

    def _event(self, e: StoredEvent) -> None:
        if e.type == GAME_CREATED:
            self._created(e)
            return
        game = self.games.get(e.game_id)
        if game is None:
            raise LookupError("no GameCreated before this event")
        engine = self._runtime(game)[0]
        state = self._state(game)
        updates: dict[str, Any] = {"steps": e.version}
        keep = e.version % KEEP_EVERY == 0
        if e.type == ACTIONS_RETRACTED:
            to = int(e.data["to_version"])
            new_state, keep = self._state_at(game, to), True
            updates.update(live_version=to, retractions=[*game["retractions"], [e.version, to]])
            if game["status"] == "finished":
                updates.update(status="active", seed=None)
        elif e.type in (GAME_ENDED, GAME_ABANDONED):
            new_state = state
            updates.update(
                status="finished" if e.type == GAME_ENDED else "abandoned",
                seed=e.data.get("seed"),
                live_version=e.version,
            )
        elif e.type in SERVICE_EVENTS:  # a fact about the record (a result-only game's result): no move
            new_state = state
            updates["live_version"] = e.version
        else:
            new_state = engine.evolve(state, Event(e.type, e.data))
            updates["live_version"] = e.version
        # Nothing above wrote anything: a failure leaves the game as it was.
        self.states[e.game_id] = new_state
        game.update(updates)
        if keep:
            self.kept[(e.game_id, e.version)] = new_state

    def _created(self, e: StoredEvent) -> None:
        d = e.data
        seats = [str(s) for s in d["seats"]]
        engine = registry.get(d["engine"])
        config = engine_config(
            self.conn, len(seats), d.get("options") or {}, d.get("dealer", "server"), d.get("catalog")
        )
        state = engine.initial_state(config)
        self.games[e.game_id] = {
            "game_id": e.game_id,
            "club_id": UUID(str(d["club"])),
            "engine": engine.id,
            "seats": seats,
            "names": [self.names.get(s) for s in seats],
            "options": d.get("options") or {},
            "dealer": d.get("dealer", "server"),
            "catalog": d.get("catalog"),
            "status": "active",
            "steps": e.version,
            "live_version": e.version,
            "seed": None,
            "retractions": [],
        }
        self.runtime[e.game_id] = (engine, config)
        self.states[e.game_id] = state
        self.kept[(e.game_id, e.version)] = state

    def _engine(self, game_id: UUID) -> Engine:
        return self._runtime(self.games[game_id])[0]

    def _runtime(self, game: dict) -> tuple[Engine, GameConfig]:
        if game["game_id"] not in self.runtime:
            engine = registry.get(game["engine"])
            config = engine_config(
                self.conn, len(game["seats"]), game["options"], game["dealer"], game["catalog"]
            )
            self.runtime[game["game_id"]] = (engine, config)
        return self.runtime[game["game_id"]]

    def _state(self, game: dict) -> Any:
        if game["game_id"] not in self.states:
            self.states[game["game_id"]] = self._state_at(game, game["steps"])
        return self.states[game["game_id"]]

    def _state_at(self, game: dict, step: int) -> Any:
        """The state after ``step``: the nearest kept state (this batch's or a
        stored one) with the log's events up to ``step`` folded on."""
        engine, config = self._runtime(game)
        game_id = game["game_id"]
        at, state = max(
            ((s, st) for (g, s), st in self.kept.items() if g == game_id and s <= step),
            key=lambda kept: kept[0],
            default=(0, None),
        )
        if state is None:
            stored = kept_state_at(self.conn, engine, config, game_id, step)
            if stored is None:
                raise LookupError(f"no kept state of game {game_id} at or before step {step}")
            at, state = stored
        if at == step:
            return state
        return fold_steps(
            engine, state, store.read_stream(self.conn, game_id, after_version=at, to_version=step)
        )
