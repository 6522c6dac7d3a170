"""Game replays: every step of every game, with the state after it.

Step ``n`` is the game's event of version ``n``: the event as recorded, the
engine's plain-English line for it, and the full state after it (stored, so a
step is served without replaying from the start). Service events are steps
too: ``GameCreated`` (the initial state), ``GameEnded``/``GameAbandoned``
(state unchanged) and ``ActionsRetracted``, whose state is the state the game
went back to; the steps it took back are marked ``retracted_by``.

What a reader may see (a seat's view, redacted events) is decided when the
replay is read (service/records/steps.py), from these full states.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from engines import registry
from engines.base import Engine, Event, GameConfig
from service.records.fold import ACTIONS_RETRACTED, GAME_ABANDONED, GAME_CREATED, GAME_ENDED
from service.records.games import engine_config, player_names
from service.records.steps import name_list
from service.records.store import StoredEvent

GAME_FIELDS = (
    "game_id, club_id, engine, seats, names, options, dealer, catalog, status, steps, live_version, seed"
)


def describe_service(event_type: str, data: dict[str, Any], names: list[str], title: str) -> str:
    if event_type == GAME_CREATED:
        return f"A game of {title} begins: {', '.join(names)}."
    if event_type == GAME_ENDED:
        places = data.get("places") or []
        winners = [names[i] for i, p in enumerate(places) if p == 1 and i < len(names)]
        how = f" ({data['ended_by']})" if data.get("ended_by") else ""
        return f"The game is over{how}: {' and '.join(winners) or 'nobody'} won."
    if event_type == GAME_ABANDONED:
        reason = f": {data['reason']}" if data.get("reason") else ""
        return f"The game was abandoned{reason}."
    if event_type == ACTIONS_RETRACTED:
        reason = f" ({data['reason']})" if data.get("reason") else ""
        return f"The recorder took the game back to step {data.get('to_version')}{reason}."
    return event_type


class Replays:
    name = "replays"
    event_types = None  # every event is a step
    tables = ("replay_games", "replay_steps")

    def apply(self, conn: psycopg.Connection, events: list[StoredEvent], batch) -> None:
        _Steps(conn, {e.game_id for e in events}).apply(events, batch)


class _Steps:
    """One batch's work: the games it touches, their engines and states, and
    the steps it adds (nothing outlives the batch)."""

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
        self.pending: dict[tuple[UUID, int], dict[str, Any]] = {}  # new steps by (game, step)

    def apply(self, events: list[StoredEvent], batch) -> None:
        conn = self.conn
        retractions: list[tuple[UUID, int, int]] = []
        changed: set[UUID] = set()
        for event in batch.live(events):
            try:
                retraction = self._event(event)
            except Exception as error:  # noqa: BLE001 - a poison event stops this game only
                batch.fail(event, error)
                continue
            changed.add(event.game_id)
            if retraction is not None:
                retractions.append(retraction)
        steps = [s for s in self.pending.values() if s["game_id"] in changed]
        with conn.cursor() as cur:
            if changed:
                cur.executemany(
                    f"INSERT INTO replay_games ({GAME_FIELDS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT (game_id) DO UPDATE SET status = EXCLUDED.status, steps = EXCLUDED.steps,"
                    " live_version = EXCLUDED.live_version, seed = EXCLUDED.seed",
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
                        )
                        for g in (self.games[i] for i in sorted(changed, key=str))
                    ],
                )
            if steps:
                cur.executemany(
                    "INSERT INTO replay_steps (game_id, step, position, type, data, recorded_at, description, state)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    [
                        (
                            s["game_id"],
                            s["step"],
                            s["position"],
                            s["type"],
                            Jsonb(s["data"]),
                            s["recorded_at"],
                            s["description"],
                            Jsonb(s["state"]),
                        )
                        for s in steps
                    ],
                )
            # In log order, each marks the live steps between its target and itself.
            if retractions:
                cur.executemany(
                    "UPDATE replay_steps SET retracted_by = %s"
                    " WHERE game_id = %s AND step > %s AND step < %s AND retracted_by IS NULL",
                    [(by, game_id, to, by) for game_id, to, by in retractions],
                )

    # -- one event ---------------------------------------------------------------

    def _event(self, e: StoredEvent) -> tuple[UUID, int, int] | None:
        if e.type == GAME_CREATED:
            self._created(e)
            return None
        game = self.games.get(e.game_id)
        if game is None:
            raise LookupError("no GameCreated before this event")
        engine, config = self._runtime(game)
        names = name_list(game["names"], game["seats"])
        state = self._state(game, engine)
        retraction = None
        updates: dict[str, Any] = {"steps": e.version}
        if e.type == ACTIONS_RETRACTED:
            to = int(e.data["to_version"])
            new_state = self._state_at(game, engine, to)
            description = describe_service(e.type, e.data, names, engine.title)
            retraction = (e.game_id, to, e.version)
            updates["live_version"] = to
            if game["status"] == "finished":
                updates.update(status="active", seed=None)
        elif e.type in (GAME_ENDED, GAME_ABANDONED):
            new_state = state
            description = describe_service(e.type, e.data, names, engine.title)
            updates.update(
                status="finished" if e.type == GAME_ENDED else "abandoned",
                seed=e.data.get("seed"),
                live_version=e.version,
            )
        else:
            event = Event(e.type, e.data)
            new_state = engine.evolve(state, event)
            description = engine.describe(event, names)
            updates["live_version"] = e.version
        dumped = engine.dump_state(new_state)
        # Nothing above wrote anything: a failure leaves the game as it was.
        self.states[e.game_id] = new_state
        game.update(updates)
        self._step(e, description, dumped)
        return retraction

    def _created(self, e: StoredEvent) -> None:
        d = e.data
        seats = [str(s) for s in d["seats"]]
        engine = registry.get(d["engine"])
        config = engine_config(
            self.conn, len(seats), d.get("options") or {}, d.get("dealer", "server"), d.get("catalog")
        )
        found = player_names(self.conn, seats)
        state = engine.initial_state(config)
        game = {
            "game_id": e.game_id,
            "club_id": UUID(str(d["club"])),
            "engine": engine.id,
            "seats": seats,
            "names": [found.get(s) for s in seats],
            "options": d.get("options") or {},
            "dealer": d.get("dealer", "server"),
            "catalog": d.get("catalog"),
            "status": "active",
            "steps": e.version,
            "live_version": e.version,
            "seed": None,
        }
        description = describe_service(e.type, d, name_list(game["names"], seats), engine.title)
        dumped = engine.dump_state(state)
        self.games[e.game_id] = game
        self.runtime[e.game_id] = (engine, config)
        self.states[e.game_id] = state
        self._step(e, description, dumped)

    def _step(self, e: StoredEvent, description: str, state: Any) -> None:
        self.pending[(e.game_id, e.version)] = {
            "game_id": e.game_id,
            "step": e.version,
            "position": e.position,
            "type": e.type,
            "data": e.data,
            "recorded_at": e.recorded_at,
            "description": description,
            "state": state,
        }

    def _runtime(self, game: dict) -> tuple[Engine, GameConfig]:
        if game["game_id"] not in self.runtime:
            engine = registry.get(game["engine"])
            config = engine_config(
                self.conn, len(game["seats"]), game["options"], game["dealer"], game["catalog"]
            )
            self.runtime[game["game_id"]] = (engine, config)
        return self.runtime[game["game_id"]]

    def _state(self, game: dict, engine: Engine) -> Any:
        if game["game_id"] not in self.states:
            self.states[game["game_id"]] = self._state_at(game, engine, game["steps"])
        return self.states[game["game_id"]]

    def _state_at(self, game: dict, engine: Engine, step: int) -> Any:
        config = self._runtime(game)[1]
        pending = self.pending.get((game["game_id"], step))
        if pending is not None:
            return engine.load_state(pending["state"], config)
        row = self.conn.execute(
            "SELECT state FROM replay_steps WHERE game_id = %s AND step = %s", (game["game_id"], step)
        ).fetchone()
        if row is None:
            raise LookupError(f"step {step} of game {game['game_id']} is not stored")
        return engine.load_state(row["state"], config)
