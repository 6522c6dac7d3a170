"""Game replays (from the replays projection): steps, ranges, seat's-eye, export.

Who sees what: a finished or abandoned game's replay reveals everything (every
hand, every draw, the seed). A live game's replay shows what the caller may
see now (a seat token: its seat's view; the recorder of a table game:
everything; otherwise the spectator's view). A seat's-eye replay (``?seat=``)
shows, at every step, exactly what that seat knew then: the engine's view of
the state for that seat and each event redacted for it. While the game is
on, only that seat's token or the recorder may ask for it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Response, json
from flask_smorest import Blueprint

from engines.base import Event
from schemas.projections import ExportQuery, Replay, ReplayExport, ReplayQuery, ReplayStepView, StepQuery
from service import database, games
from service.api.common import NDJSON, ndjson_only, negotiated, problems, visible_game, wants_ndjson
from service.api.projections import ProjectionBehind, documents_behind, handle_behind, position_of
from service.auth import current_principal
from service.errors import Problem
from service.replay import SERVICE_EVENTS
from workers.projections.replays import name_list

blp = Blueprint("replays", __name__, url_prefix="/games/<uuid:game_id>/replay", description="Game replays")
handle_behind(blp)

STEP_COLUMNS = "step, position, type, data, description, state, recorded_at, retracted_by"


def _viewer(game: games.Game, seat: int | None) -> int | None | str:
    principal = current_principal()
    if seat is None:
        return games.viewer_seat(game, principal)
    if seat >= len(game.seats):
        raise Problem(422, "no-such-seat", f"Seats run from 0 to {len(game.seats) - 1}.")
    if game.status != "active":
        return seat
    if (
        principal is not None
        and principal.club_id == game.club_id
        and (principal.is_admin or (principal.game_id == game.id and principal.seat == seat))
    ):
        return seat
    raise Problem(
        403, "seat-view-forbidden", "While the game is on, only that seat or the recorder sees its replay."
    )


class Renderer:
    """Steps as one viewer may see them."""

    def __init__(self, conn, game: games.Game, viewer: int | None | str, min_position: int | None):
        self.game, self.viewer, self.engine = game, viewer, game.engine
        self.config = games.config_of(conn, game)
        position = position_of(conn, "replays", min_position)
        self.row = conn.execute(
            "SELECT names, status, steps, seed FROM replay_games WHERE game_id = %s", (game.id,)
        ).fetchone()
        error = conn.execute(
            "SELECT position, event_type, error FROM projection_errors WHERE projection = 'replays' AND game_id = %s",
            (game.id,),
        ).fetchone()
        if self.row is None:
            if error is not None:
                self.row = {
                    "names": [None] * len(game.seats),
                    "status": game.status,
                    "steps": 0,
                    "seed": None,
                }
            elif position < _created_position(conn, game.id):
                raise ProjectionBehind("replays", position, _created_position(conn, game.id))
            else:
                raise Problem(404, "not-found", "This game has no replay.")
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


def _created_position(conn, game_id: UUID) -> int:
    row = conn.execute("SELECT min(position) AS p FROM events WHERE game_id = %s", (game_id,)).fetchone()
    return int(row["p"] or 0)


@blp.get("")
@blp.arguments(ReplayQuery, location="query")
@blp.response(200, Replay)
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def replay(query, game_id):
    """A range of steps (`from_step`, `to_step`, at most `limit`): each event, its plain-English line
    and the state after it. `seat` gives the seat's-eye replay."""
    with database.pool().connection() as conn:
        game = visible_game(conn, game_id)
        renderer = Renderer(conn, game, _viewer(game, query["seat"]), query["min_position"])
        last = query["to_step"] or renderer.row["steps"]
        rows = conn.execute(
            f"SELECT {STEP_COLUMNS} FROM replay_steps WHERE game_id = %s AND step >= %s AND step <= %s"
            " ORDER BY step LIMIT %s",
            (game.id, query["from_step"], last, query["limit"] + 1),
        ).fetchall()
    more = len(rows) > query["limit"]
    rows = rows[: query["limit"]]
    return {
        "game": renderer.header(),
        "steps": [renderer.step(r) for r in rows],
        "next_step": rows[-1]["step"] + 1 if more else None,
    }


@blp.get("/steps/<int:step>")
@blp.arguments(StepQuery, location="query")
@blp.response(200, ReplayStepView)
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def replay_step(query, game_id, step):
    """One step by number (its stored state: nothing is replayed from the start)."""
    with database.pool().connection() as conn:
        game = visible_game(conn, game_id)
        renderer = Renderer(conn, game, _viewer(game, query["seat"]), query["min_position"])
        row = conn.execute(
            f"SELECT {STEP_COLUMNS} FROM replay_steps WHERE game_id = %s AND step = %s", (game.id, step)
        ).fetchone()
    if row is None:
        raise Problem(404, "not-found", f"The replay has steps 1 to {renderer.row['steps']}.")
    return {"game": renderer.header(), "step": renderer.step(row)}


@blp.get("/export")
@blp.arguments(ExportQuery, location="query")
@blp.response(200, ReplayExport, content_type="application/json")
@blp.doc(
    responses=negotiated(
        "ReplayExport",
        'The whole replay (with `format=ndjson` too: a `{"game": ...}` line, then one step per line)',
        "/games/{game_id}/replay/export.ndjson",
    )
)
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def export(query, game_id):
    """The whole replay in one document (JSON) or as NDJSON lines."""
    header, steps = _export(query, game_id)
    wants = query["format"] or ("ndjson" if wants_ndjson() else "json")
    if wants == "ndjson":
        return _lines(header, steps)
    return {"game": header, "steps": steps}


@blp.get("/export.ndjson")
@blp.arguments(StepQuery, location="query")
@blp.response(200, content_type=NDJSON)
@blp.doc(responses=ndjson_only('The whole replay: a `{"game": ...}` line, then one step per line'))
@documents_behind(blp)
@problems(blp, 401, 403, 404, 422)
def export_ndjson(query, game_id):
    """The whole replay as NDJSON lines."""
    return _lines(*_export(query, game_id))


def _export(query, game_id: UUID) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    with database.pool().connection() as conn:
        game = visible_game(conn, game_id)
        renderer = Renderer(conn, game, _viewer(game, query["seat"]), query["min_position"])
        rows = conn.execute(
            f"SELECT {STEP_COLUMNS} FROM replay_steps WHERE game_id = %s ORDER BY step", (game.id,)
        ).fetchall()
    return renderer.header(), [renderer.step(r) for r in rows]


def _lines(header: dict[str, Any], steps: list[dict[str, Any]]) -> Response:
    dump = ReplayStepView()
    lines = [json.dumps({"game": dump.dump({"game": header})["game"]})]
    lines += [json.dumps(dump.dump({"step": s})["step"]) for s in steps]
    return Response("\n".join(lines) + "\n", mimetype=NDJSON)
