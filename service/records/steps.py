"""Game replays as one viewer may see them, read from the replays projection.

Who sees what: a finished or abandoned game's replay reveals everything (every
hand, every draw, the seed). A live game's replay shows what the caller may
see now (``access.viewer``). A seat's-eye replay shows, at every step, exactly
what that seat knew then: the engine's view of the state for that seat and
each event redacted for it, for whoever ``access.may_see_seat``.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import psycopg

from engines.base import Event
from service.records import access, store
from service.records.access import Principal, Viewer
from service.records.context import Records
from service.records.errors import NotFound, ProjectionBehind
from service.records.fold import SERVICE_EVENTS
from service.records.games import Game, config_of, get_game
from service.records.projection_state import position_of, projection_error

STEP_COLUMNS = "step, position, type, data, description, state, recorded_at, retracted_by"


def name_list(names: list[str | None], seats: list[str]) -> list[str]:
    """Players' names by seat, "Seat n" where a name is missing."""
    return [n or f"Seat {i}" for i, n in enumerate(names or [None] * len(seats))]


class Replay:
    """One game's replay as one viewer may see it."""

    def __init__(self, conn: psycopg.Connection, game: Game, viewer: Viewer, min_position: int | None):
        self.conn, self.game, self.viewer, self.engine = conn, game, viewer, game.engine
        self.config = config_of(conn, game)
        position = position_of(conn, "replays", min_position)
        self.row = conn.execute(
            "SELECT names, status, steps, seed FROM replay_games WHERE game_id = %s", (game.id,)
        ).fetchone()
        error = projection_error(conn, "replays", game.id)
        if self.row is None:
            if error is not None:
                self.row = {
                    "names": [None] * len(game.seats),
                    "status": game.status,
                    "steps": 0,
                    "seed": None,
                }
            elif position < store.first_position(conn, game.id):
                raise ProjectionBehind("replays", position, store.first_position(conn, game.id))
            else:
                raise NotFound("replay", "This game has no replay.")
        self.names = name_list(self.row["names"], game.seats)
        self.error = (
            f"step at position {error['position']} ({error['event_type']}): {error['error']}"
            if error
            else None
        )

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
        return self.conn.execute(
            f"SELECT {STEP_COLUMNS} FROM replay_steps WHERE game_id = %s AND step >= %s AND step <= %s"
            " ORDER BY step LIMIT %s",
            (self.game.id, from_step, to_step or self.row["steps"], limit),
        ).fetchall()

    def step(self, row: dict[str, Any]) -> dict[str, Any]:
        if self.viewer == "all":
            return dict(row)
        data, description = row["data"], row["description"]
        if row["type"] not in SERVICE_EVENTS:
            event = self.engine.redact(Event(row["type"], row["data"]), self.viewer)
            data = dict(event.data)
            try:
                description = self.engine.describe(event, self.names)
            except Exception:  # noqa: BLE001 - a line of text must not fail the replay
                description = row["type"]
        state = self.engine.view(self.engine.load_state(row["state"], self.config), self.viewer)
        return {**row, "data": data, "description": description, "state": state}


def _open(
    conn, game_id: UUID, principal: Principal | None, seat: int | None, min_position: int | None
) -> Replay:
    game = access.may_see_game(get_game(conn, game_id), principal)
    return Replay(conn, game, access.seat_eye(game, principal, seat), min_position)


def steps(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    seat: int | None,
    min_position: int | None,
    from_step: int,
    to_step: int | None,
    limit: int,
) -> dict[str, Any]:
    """A range of steps (at most ``limit``): each event, its line and the state after it."""
    with records.pool.connection() as conn:
        replay = _open(conn, game_id, principal, seat, min_position)
        rows = replay.rows(from_step, to_step, limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    return {
        "game": replay.header(),
        "steps": [replay.step(r) for r in rows],
        "next_step": rows[-1]["step"] + 1 if more else None,
    }


def one_step(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    seat: int | None,
    min_position: int | None,
    step: int,
) -> dict[str, Any]:
    """One step by number (its stored state: nothing is replayed from the start)."""
    with records.pool.connection() as conn:
        replay = _open(conn, game_id, principal, seat, min_position)
        row = conn.execute(
            f"SELECT {STEP_COLUMNS} FROM replay_steps WHERE game_id = %s AND step = %s", (game_id, step)
        ).fetchone()
    if row is None:
        raise NotFound("step", f"The replay has steps 1 to {replay.row['steps']}.")
    return {"game": replay.header(), "step": replay.step(row)}


def export(
    records: Records, game_id: UUID, principal: Principal | None, seat: int | None, min_position: int | None
) -> dict[str, Any]:
    """The whole replay: its header and every step."""
    with records.pool.connection() as conn:
        replay = _open(conn, game_id, principal, seat, min_position)
        rows = conn.execute(
            f"SELECT {STEP_COLUMNS} FROM replay_steps WHERE game_id = %s ORDER BY step", (game_id,)
        ).fetchall()
    return {"game": replay.header(), "steps": [replay.step(r) for r in rows]}
