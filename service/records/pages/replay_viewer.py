"""A replay as the viewer draws it: every step's line and heading at once,
each step's table when it is first asked for.

Each step carries its log line and its heading (the table's round and turn,
for the table of contents) as the replay's viewer saw it then (``steps.Replay``:
the whole game once it is over, a seat's own knowledge in a seat's-eye
replay). Its table view model (``engine.table``) is drawn from its state only
when a page or a window of steps shows it, and kept with the drawing: the
first load of a long game draws the few dozen tables it ships, not all of
them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from engines.base import Engine, Event
from service.records import access
from service.records.access import Principal, Viewer
from service.records.log.context import Records
from service.records.log.fold import SERVICE_EVENTS
from service.records.reading.steps import Replay
from service.records.recording import results
from service.records.recording.games import Game, get_game


def step_line(replay: Replay, row: dict[str, Any]) -> str:
    """A step's log line as the replay's viewer may read it."""
    if replay.viewer == "all" or row["type"] in SERVICE_EVENTS:
        return row["description"]
    event = replay.engine.redact(Event(row["type"], row["data"]), replay.viewer)
    try:
        return replay.reword(replay.engine.describe(event, replay.names))
    except Exception:  # noqa: BLE001 - a line of text must not fail the replay
        return row["description"]


def replay_steps(
    records: Records, game_id: UUID, principal: Principal | None, seat: int | None
) -> dict[str, Any]:
    """The whole replay for the viewer: ``steps`` (step number, line, round
    and turn, retracted or not), ``tables`` (a step's table by its number,
    drawn when first read), the header, the players' names, the seats whose
    eyes the caller may borrow and ``drawn``, a key naming this drawing (game,
    viewer, version): what is made from it may be kept under that key. A game
    logged by its result alone has no steps: it says so (``result_only``)."""
    with records.pool.connection() as conn:
        game = access.may_see_game(get_game(conn, game_id), principal)
        if results.is_result_only(conn, game.id):
            return _no_replay(game)
        replay = Replay(conn, game, access.seat_eye(game, principal, seat), None, positions=False)
        key = (game.id, json.dumps(replay.viewer), replay.row["steps"], game.version, tuple(replay.names))
        drawn = _DRAWN.get(key)
        if drawn is None:
            drawn = _DRAWN[key] = _draw(replay, replay.rows())
            while len(_DRAWN) > _KEEP:
                _DRAWN.pop(next(iter(_DRAWN)))
    steps, tables = drawn
    return {
        "drawn": hashlib.sha256(repr(key).encode()).hexdigest()[:20],
        "game": replay.header(),
        "title": game.engine.title,
        "names": replay.names,
        "seat": seat,
        "seat_views": [s for s in range(len(game.seats)) if access.may_see_seat(game, principal, s)],
        "tables": tables,
        "steps": steps,
    }


def _no_replay(game: Game) -> dict[str, Any]:
    """The replay of a result-only game: no steps, and the reason."""
    return {
        "drawn": hashlib.sha256(repr((game.id, game.version, "result-only")).encode()).hexdigest()[:20],
        "game": {"game": game.id},
        "title": game.engine.title,
        "names": [],
        "seat": None,
        "seat_views": [],
        "tables": {},
        "steps": [],
        "result_only": True,
    }


#: The replays drawn lately, by game, viewer (as checked above) and how far the game and its replay are:
#: the replay page and its steps, fetched right after it, draw each replay once.
_DRAWN: dict[tuple, tuple[list, Tables]] = {}
_KEEP = 8


class Tables:
    """Each step's table by its step number, drawn from the step's state when
    first read and kept (a drawing is immutable: its game's version is in its key)."""

    def __init__(self, engine: Engine, viewer: Viewer, names: Sequence[str], states: Sequence[Any]):
        self.engine, self.viewer, self.names, self.states = engine, viewer, names, states
        self.drawn: dict[int, dict[str, Any]] = {}

    def __getitem__(self, step: int) -> dict[str, Any]:
        table = self.drawn.get(step)
        if table is None:
            table = self.drawn[step] = self.engine.table(self.states[step - 1], self.viewer, self.names)
        return table


def _draw(replay: Replay, rows: list[dict[str, Any]]) -> tuple[list, Tables]:
    """Every row's line and heading, and its table when asked for."""
    steps = []
    for row in rows:
        round, turn = replay.engine.heading(row["state"], replay.names)
        steps.append(
            {
                "step": row["step"],
                "line": step_line(replay, row),
                "round": round,
                "turn": turn,
                "retracted": row["retracted_by"] is not None,
            }
        )
    return steps, Tables(replay.engine, replay.viewer, replay.names, [row["state"] for row in rows])


def chapters(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Steps grouped by round, then by turn within it, in order: the table of contents."""
    out: list[dict[str, Any]] = []
    for step in steps:
        heading, turn = step["round"] or "Setting up", step["turn"]
        if not out or out[-1]["title"] != heading:
            out.append({"title": heading, "first": step["step"], "turns": []})
        turns = out[-1]["turns"]
        if not turns or turns[-1]["title"] != turn:
            turns.append({"title": turn, "first": step["step"], "steps": []})
        turns[-1]["steps"].append(step)
    return out
