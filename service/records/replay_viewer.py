"""A replay as the viewer draws it: every step's line and table, fetched once.

Each step carries its log line and its table view model (``engine.table``) as
the replay's viewer saw it then (``steps.Replay``: the whole game once it is
over, a seat's own knowledge in a seat's-eye replay), so stepping needs no
further request. Consecutive steps often leave the table as it was; each
distinct table is listed once and steps point at it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from uuid import UUID

from engines.base import Event
from service.records import access
from service.records.access import Principal
from service.records.context import Records
from service.records.fold import SERVICE_EVENTS
from service.records.games import get_game
from service.records.steps import Replay


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
    """The whole replay for the viewer: ``tables`` (each distinct table once),
    ``steps`` (step number, line, index of its table, retracted or not), the
    header, the players' names, the seats whose eyes the caller may borrow and
    ``drawn``, a key naming this drawing (game, viewer, version): what is made
    from it may be kept under that key."""
    with records.pool.connection() as conn:
        game = access.may_see_game(get_game(conn, game_id), principal)
        replay = Replay(conn, game, access.seat_eye(game, principal, seat), None, positions=False)
        key = (game.id, json.dumps(replay.viewer), replay.row["steps"], game.version, tuple(replay.names))
        drawn = _DRAWN.get(key)
        if drawn is None:
            drawn = _DRAWN[key] = _draw(replay, replay.rows())
            while len(_DRAWN) > _KEEP:
                _DRAWN.pop(next(iter(_DRAWN)))
    tables, steps = drawn
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


#: The replays drawn lately, by game, viewer (as checked above) and how far the game and its replay are:
#: the replay page and its steps, fetched right after it, draw each replay once.
_DRAWN: dict[tuple, tuple[list, list]] = {}
_KEEP = 8


def _draw(replay: Replay, rows: list[dict[str, Any]]) -> tuple[list, list]:
    """Every row's table (each distinct one once) and line."""
    tables: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    steps = []
    for row in rows:
        table = replay.engine.table(row["state"], replay.viewer, replay.names)
        key = json.dumps(table, sort_keys=True)
        if key not in index:
            index[key] = len(tables)
            tables.append(table)
        steps.append(
            {
                "step": row["step"],
                "line": step_line(replay, row),
                "table": index[key],
                "retracted": row["retracted_by"] is not None,
            }
        )
    return tables, steps


def chapters(steps: list[dict[str, Any]], tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Steps grouped by round, then by turn within it, in order: the table of contents."""
    out: list[dict[str, Any]] = []
    for step in steps:
        table = tables[step["table"]]
        heading, turn = table["round"] or "Setting up", table["turn"]
        if not out or out[-1]["title"] != heading:
            out.append({"title": heading, "first": step["step"], "turns": []})
        turns = out[-1]["turns"]
        if not turns or turns[-1]["title"] != turn:
            turns.append({"title": turn, "first": step["step"], "steps": []})
        turns[-1]["steps"].append(step)
    return out
