"""Game replays as one viewer may see them, read from the replays projection.

Step ``n`` is the game's event of version ``n`` (read from the log), its
plain-English line, and the state after it on the live line as it stood then.
The projection keeps the state only every few steps and at each retraction
(whose state is the state it went back to); a step's state is the nearest
kept state at or before it with the events between folded on. No retraction
lies between a kept state and a later step before the next kept one, so the
fold is plain ``evolve``.

Who sees what: a finished or abandoned game's replay reveals everything (every
hand, every draw, the seed). A live game's replay shows what the caller may
see now (``access.viewer``). A seat's-eye replay shows, at every step, exactly
what that seat knew then: the engine's view of the state for that seat and
each event redacted for it, for whoever ``access.may_see_seat``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import psycopg

from engines.base import Engine, Event, GameConfig
from service.records import access
from service.records.access import Principal, Viewer
from service.records.errors import NotFound, ProjectionBehind
from service.records.log import store
from service.records.log.context import Records
from service.records.log.fold import (
    ACTIONS_RETRACTED,
    GAME_ABANDONED,
    GAME_CREATED,
    GAME_ENDED,
    SERVICE_EVENTS,
)
from service.records.log.store import StoredEvent
from service.records.reading.projection_state import position_of, projection_error
from service.records.recording import results
from service.records.recording.games import Game, config_of, get_game
from service.records.recording.wording import reworder


def describe_service(event_type: str, data: dict[str, Any], names: list[str], title: str) -> str:
    """The plain-English line of a service event."""
    if event_type == GAME_CREATED:
        return f"A game of {title} begins: {', '.join(names)}."
    if event_type == GAME_ENDED:
        places = data.get("places") or []
        winners = [names[i] for i, p in enumerate(places) if p == 1 and i < len(names)]
        how = f" ({str(data['ended_by']).replace('-', ' ')})" if data.get("ended_by") else ""
        return f"The game is over{how}: {' and '.join(winners) or 'nobody'} won."
    if event_type == GAME_ABANDONED:
        reason = f": {data['reason']}" if data.get("reason") else ""
        return f"The game was abandoned{reason}."
    if event_type == ACTIONS_RETRACTED:
        reason = f" ({data['reason']})" if data.get("reason") else ""
        return f"The recorder took the game back to step {data.get('to_version')}{reason}."
    return event_type


def kept_state_at(
    conn: psycopg.Connection, engine: Engine, config: GameConfig, game_id: UUID, step: int
) -> tuple[int, Any] | None:
    """The kept state nearest at or before ``step``: (its step, the state)."""
    row = conn.execute(
        "SELECT step, state FROM replay_states WHERE game_id = %s AND step <= %s ORDER BY step DESC LIMIT 1",
        (game_id, step),
    ).fetchone()
    return (row["step"], engine.load_state(row["state"], config)) if row else None


def fold_steps(engine: Engine, state: Any, events: Sequence[StoredEvent]) -> Any:
    """The state after ``events``, none of which is a retraction (see above)."""
    for event in events:
        if event.type == ACTIONS_RETRACTED:
            raise LookupError(f"step {event.version} is a retraction with no kept state")
        if event.type not in SERVICE_EVENTS:
            state = engine.evolve(state, Event(event.type, event.data))
    return state


def name_list(names: list[str | None], seats: list[str]) -> list[str]:
    """Players' names by seat, "Seat n" (counted from 1) where a name is missing."""
    return [n or f"Seat {i + 1}" for i, n in enumerate(names or [None] * len(seats))]


class Replay:
    """One game's replay as one viewer may see it."""

    def __init__(
        self,
        conn: psycopg.Connection,
        game: Game,
        viewer: Viewer,
        min_position: int | None,
        positions: bool = True,
    ):
        self.conn, self.game, self.viewer, self.engine = conn, game, viewer, game.engine
        self.positions = positions
        self.config = config_of(conn, game)
        self.reword = reworder(self.config.catalog)
        position = position_of(conn, "replays", min_position)
        self.row = conn.execute(
            "SELECT names, status, steps, seed, retractions FROM replay_games WHERE game_id = %s", (game.id,)
        ).fetchone()
        error = projection_error(conn, "replays", game.id)
        if self.row is None:
            if error is not None:
                self.row = {
                    "names": [None] * len(game.seats),
                    "status": game.status,
                    "steps": 0,
                    "seed": None,
                    "retractions": [],
                }
            elif position < store.first_position(conn, game.id):
                raise ProjectionBehind(
                    "replays", position, store.first_position(conn, game.id), self.positions
                )
            else:
                raise NotFound("replay", "This game has no replay.")
        self.names = name_list(self.row["names"], game.seats)
        where = f" at position {error['position']}" if error and positions else ""
        self.error = f"step{where} ({error['event_type']}): {error['error']}" if error else None

    def header(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "engine": self.game.engine_id,
            "seats": [
                {"seat": i, "player": p, "name": n}
                for i, (p, n) in enumerate(zip(self.game.seats, self.row["names"], strict=False))
            ],
            "dealer": self.game.dealer,
            "status": self.game.status,
            "viewer": self.viewer,
            "seed": self.row["seed"] if self.game.status != "active" else None,
            "step_count": self.row["steps"],
            "game_version": self.game.version,
            "error": self.error,
        }

    def rows(self, from_step: int = 1, to_step: int | None = None, limit: int | None = None) -> list[dict]:
        """Steps ``from_step`` to ``to_step`` (at most ``limit``), each with the state after it."""
        last = min(to_step or self.row["steps"], self.row["steps"])
        if from_step > last:
            return []
        if limit is not None:
            last = min(last, from_step + limit - 1)
        kept = kept_state_at(self.conn, self.engine, self.config, self.game.id, from_step)
        if kept is None:
            return []
        at, state = kept
        # Past the first step, a state is read only at a retraction (it goes
        # back to it); the others are folded on, twenty times faster than read.
        retractions = [by for by, _ in self.row["retractions"] if at < by <= last]
        later = (
            {
                r["step"]: r["state"]
                for r in self.conn.execute(
                    "SELECT step, state FROM replay_states WHERE game_id = %s AND step = ANY(%s)",
                    (self.game.id, retractions),
                )
            }
            if retractions
            else {}
        )
        rows = []
        # From the kept step itself (its state is the kept one) to the last asked for.
        for event in store.read_stream(self.conn, self.game.id, after_version=at - 1, to_version=last):
            if event.version in later:
                state = self.engine.load_state(later[event.version], self.config)
            elif event.version > at:
                state = fold_steps(self.engine, state, [event])
            if event.version >= from_step:
                rows.append(self._row(event, state))
        return rows

    def _row(self, event: StoredEvent, state: Any) -> dict[str, Any]:
        return {
            "step": event.version,
            "position": event.position,
            "type": event.type,
            "data": event.data,
            "description": self._describe(event),
            "state": state,
            "recorded_at": event.recorded_at,
            "retracted_by": next((by for by, to in self.row["retractions"] if to < event.version < by), None),
        }

    def _describe(self, event: StoredEvent) -> str:
        if event.type in SERVICE_EVENTS:
            return describe_service(event.type, event.data, self.names, self.engine.title)
        try:
            return self.reword(self.engine.describe(Event(event.type, event.data), self.names))
        except Exception:  # noqa: BLE001 - a line of text must not fail the replay
            return event.type

    def step(self, row: dict[str, Any], table: bool = False) -> dict[str, Any]:
        """A step as the viewer may see it (``table``: with the table view model)."""
        if table:
            return {**self.step(row), "table": self.engine.table(row["state"], self.viewer, self.names)}
        if not self.positions:
            row = {k: v for k, v in row.items() if k != "position"}
        if self.viewer == "all":
            return {**row, "state": self.engine.dump_state(row["state"])}
        data, description = row["data"], row["description"]
        if row["type"] not in SERVICE_EVENTS:
            event = self.engine.redact(Event(row["type"], row["data"]), self.viewer)
            data = dict(event.data)
            try:
                description = self.reword(self.engine.describe(event, self.names))
            except Exception:  # noqa: BLE001 - a line of text must not fail the replay
                description = row["type"]
        state = self.engine.view(row["state"], self.viewer)
        return {**row, "data": data, "description": description, "state": state}


def _open(
    conn, game_id: UUID, principal: Principal | None, seat: int | None, min_position: int | None
) -> Replay:
    game = access.may_see_game(get_game(conn, game_id), principal)
    results.refuse_replay(conn, game_id)
    access.may_wait_for_position(principal, game.club_id, min_position)
    return Replay(
        conn,
        game,
        access.seat_eye(game, principal, seat),
        min_position,
        access.may_see_positions(principal, game.club_id),
    )


def steps(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    seat: int | None,
    min_position: int | None,
    from_step: int,
    to_step: int | None,
    limit: int,
    table: bool = False,
) -> dict[str, Any]:
    """A range of steps (at most ``limit``): each event, its line and the state after it."""
    with records.pool.connection() as conn:
        replay = _open(conn, game_id, principal, seat, min_position)
        rows = replay.rows(from_step, to_step, limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    return {
        "game": replay.header(),
        "steps": [replay.step(r, table) for r in rows],
        "next_step": rows[-1]["step"] + 1 if more else None,
    }


def one_step(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    seat: int | None,
    min_position: int | None,
    step: int,
    table: bool = False,
) -> dict[str, Any]:
    """One step by number (from the nearest kept state: nothing is replayed from the start)."""
    with records.pool.connection() as conn:
        replay = _open(conn, game_id, principal, seat, min_position)
        rows = replay.rows(step, step, 1)
    if not rows:
        raise NotFound("step", f"The replay has steps 1 to {replay.row['steps']}.")
    return {"game": replay.header(), "step": replay.step(rows[0], table)}


def export(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    seat: int | None,
    min_position: int | None,
    table: bool = False,
) -> dict[str, Any]:
    """The whole replay: its header and every step."""
    with records.pool.connection() as conn:
        replay = _open(conn, game_id, principal, seat, min_position)
        rows = replay.rows()
    return {"game": replay.header(), "steps": [replay.step(r, table) for r in rows]}
