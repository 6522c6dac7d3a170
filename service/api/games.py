"""Games: create, view, act, read the log, retract, abandon."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import current_app, request
from flask_smorest import Blueprint
from marshmallow import ValidationError

from engines import registry
from schemas.api import (
    Abandon,
    ActionRequest,
    ActionResult,
    EventPage,
    EventsQuery,
    FeedPage,
    FeedQuery,
    GameCreate,
    GameCreated,
    GameSummary,
    GameView,
    LegalActions,
    Retract,
    ViewQuery,
)
from schemas.games import for_engine, typed_commands
from service import database, games, notify, store
from service.api.common import (
    NDJSON,
    ndjson,
    ndjson_only,
    negotiated,
    problems,
    request_id,
    visible_game,
    wants_ndjson,
)
from service.api.engines import GAME_CREATE
from service.auth import current_principal, require_admin, require_principal
from service.errors import Problem, not_found

blp = Blueprint("games", __name__, description="Games, their actions and their event log")

IDEMPOTENCY_HEADER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "maxLength": 200},
    "description": "A retry with the same key and body returns the first answer and appends nothing.",
}


def _validate_options(engine_id: str, options: dict[str, Any]) -> dict[str, Any]:
    try:
        return for_engine(engine_id).OPTIONS().load(options)
    except ValidationError as err:
        raise Problem(422, "invalid-options", "The game options are not valid.", errors=err.messages) from err


def _validate_command(engine_id: str, command: dict[str, Any]) -> dict[str, Any]:
    shapes = typed_commands(engine_id)
    kind = command["type"]
    if kind not in shapes:
        raise Problem(
            422, "unknown-command", f"This game has no command {kind!r}.", errors={"type": sorted(shapes)}
        )
    try:
        return shapes[kind]().load(command)
    except ValidationError as err:
        raise Problem(
            422, "invalid-command", f"The {kind} command is not well formed.", errors=err.messages
        ) from err


def summary(game: games.Game, names: dict[str, str] | None = None) -> dict[str, Any]:
    names = names or {}
    return {
        "id": game.id,
        "engine": game.engine_id,
        "seats": [{"seat": i, "player": p, "name": names.get(p)} for i, p in enumerate(game.seats)],
        "options": game.options,
        "dealer": game.dealer,
        "league": game.league_id,
        "public": game.public,
        "catalog": dict(zip(("kind", "id", "version"), game.catalog, strict=True)) if game.catalog else None,
        "status": game.status,
        "version": game.version,
    }


def _names(conn, game: games.Game) -> dict[str, str]:
    rows = conn.execute("SELECT id, name FROM players WHERE club_id = %s", (game.club_id,)).fetchall()
    return {str(r["id"]): r["name"] for r in rows}


@blp.post("/clubs/<uuid:club>/games")
@blp.arguments(GameCreate)
@blp.doc(
    requestBody={"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{GAME_CREATE}"}}}}
)
@blp.response(201, GameCreated)
@problems(blp, 400, 401, 403, 404, 413, 422, 503)
def create_game(body, club):
    """Create a game (admin token): seats mapped to players, options, dealer, league.

    Returns the game and one token per seat (shown once)."""
    principal = require_admin(club)
    if body["engine"] not in registry.available():
        raise Problem(
            422, "unknown-engine", f"No engine {body['engine']!r}.", errors={"engine": registry.available()}
        )
    options = _validate_options(body["engine"], body["options"])
    settings = current_app.extensions["tablerecord.settings"]
    game, tokens, stored = games.create_game(
        database.pool(), club, principal, body, options, request_id(), settings.snapshot_every
    )
    notify.events_committed(stored[-1].position)
    with database.pool().connection() as conn:
        names = _names(conn, game)
    seat_tokens = [
        {"seat": i, "player": p, "token": t} for i, (p, t) in enumerate(zip(game.seats, tokens, strict=True))
    ]
    return {**summary(game, names), "seat_tokens": seat_tokens}


@blp.get("/clubs/<uuid:club>/games")
@blp.response(200, GameSummary(many=True))
@problems(blp, 401, 403, 404)
def list_games(club):
    """The club's games, newest first (admin token)."""
    require_admin(club)
    with database.pool().connection() as conn:
        rows = conn.execute(
            f"SELECT {games.GAME_COLUMNS} FROM games WHERE club_id = %s ORDER BY created_at DESC LIMIT 500",
            (club,),
        ).fetchall()
        names = dict(_names_for_club(conn, club))
    return [summary(games._game(r), names) for r in rows]


def _names_for_club(conn, club: UUID):
    for r in conn.execute("SELECT id, name FROM players WHERE club_id = %s", (club,)).fetchall():
        yield str(r["id"]), r["name"]


@blp.get("/clubs/<uuid:club>/events")
@blp.arguments(FeedQuery, location="query")
@blp.response(200, FeedPage, content_type="application/json")
@blp.doc(responses=negotiated("FeedPage", "A page of the club's events", "/clubs/{club}/events.ndjson"))
@problems(blp, 401, 403, 404, 422)
def club_feed(query, club):
    """Every event of the club's games in global position order (admin token).

    A follower (an export, a club website) keeps the last position it read and
    asks for what came after: no event is ever skipped, even one whose
    transaction committed late. Events appear as the recorder may see them."""
    events = _club_events(query, club)
    if wants_ndjson():
        return ndjson(events)
    return {
        "events": events,
        "next_after_position": events[-1]["position"] if events else query["after_position"],
    }


@blp.get("/clubs/<uuid:club>/events.ndjson")
@blp.arguments(FeedQuery, location="query")
@blp.response(200, content_type=NDJSON)
@blp.doc(responses=ndjson_only("A page of the club's events (as in `/clubs/{club}/events`)"))
@problems(blp, 401, 403, 404, 422)
def club_feed_ndjson(query, club):
    """The club's event feed, one event per line (admin token)."""
    return ndjson(_club_events(query, club))


def _club_events(query, club: UUID) -> list[dict[str, Any]]:
    principal = require_admin(club)
    with database.pool().connection() as conn:
        page = store.read_club(conn, club, query["after_position"], query["limit"])
        ids = list({e.game_id for e in page})
        rows = conn.execute(f"SELECT {games.GAME_COLUMNS} FROM games WHERE id = ANY(%s)", (ids,)).fetchall()
    by_id = {r["id"]: games._game(r) for r in rows}
    return [
        {
            "game": e.game_id,
            **games.redact_stored(by_id[e.game_id], e, games.viewer_seat(by_id[e.game_id], principal)),
        }
        for e in page
    ]


@blp.get("/games/<uuid:game_id>")
@blp.arguments(ViewQuery, location="query")
@blp.response(200, GameView)
@problems(blp, 401, 403, 404, 422)
def get_game(query, game_id):
    """The game's state as the caller may see it, its version and outcome."""
    with database.pool().connection() as conn:
        game = visible_game(conn, game_id)
        principal = current_principal()
        as_seat = query["seat"]
        if as_seat is not None and not (
            principal and principal.is_admin and principal.club_id == game.club_id
        ):
            raise Problem(403, "recorder-only", "Only the recorder may choose the seat to see as.")
        if as_seat is not None and not 0 <= as_seat < len(game.seats):
            raise Problem(422, "no-such-seat", f"Seats run from 0 to {len(game.seats) - 1}.")
        seat = games.viewer_seat(game, principal, as_seat)
        state = games.load_state(conn, game)
        names = _names(conn, game)
    engine = game.engine
    view = engine.dump_state(state) if seat == "all" else engine.view(state, seat)
    outcome = engine.outcome(state)
    request_ = engine.chance(state) if game.status == "active" else None
    return {
        **summary(game, names),
        "viewer": seat,
        "state": view,
        "outcome": {
            "finished": outcome.finished,
            "places": list(outcome.places),
            "scores": list(outcome.scores),
            "ended_by": outcome.ended_by,
        },
        "waiting_for_chance": (
            {
                "command": request_.command,
                "dice": request_.dice,
                "draw": request_.draw,
                "seat": request_.seat,
                "fixed": dict(request_.fixed),
            }
            if request_
            else None
        ),
        "seed": game.seed if game.status != "active" and game.dealer == "server" else None,
    }


@blp.get("/games/<uuid:game_id>/legal-actions")
@blp.response(200, LegalActions)
@problems(blp, 401, 403, 404)
def legal_actions(game_id):
    """The commands the caller may post now: its seat's, or every seat's for the recorder."""
    principal = require_principal()
    with database.pool().connection() as conn:
        game = games.get_game(conn, game_id)
        if principal.club_id != game.club_id or (not principal.is_admin and principal.game_id != game.id):
            raise not_found("game")
        state = games.load_state(conn, game)
    engine = game.engine
    actors: list[int | None] = []
    if game.status == "active":
        if principal.is_admin:
            actors = [*range(len(game.seats)), *([None] if game.dealer == "table" else [])]
        else:
            actors = [principal.seat]
    seats = {
        "dealer" if seat is None else str(seat): [
            _postable(seat, c) for c in engine.legal_commands(state, seat)
        ]
        for seat in actors
    }
    return {"version": game.version, "seats": seats}


def _postable(seat: int | None, command: dict[str, Any]) -> dict[str, Any]:
    """A legal command as the body of POST /games/{game}/actions."""
    return {"seat": seat, "command": {k: v for k, v in command.items() if k != "seat"}}


@blp.post("/games/<uuid:game_id>/actions")
@blp.arguments(ActionRequest)
@blp.response(201, ActionResult)
@blp.doc(parameters=[IDEMPOTENCY_HEADER])
@problems(blp, 400, 401, 403, 404, 409, 413, 422, 503)
def post_action(body, game_id):
    """Record an action: checked for shape, then by the game's rules, then appended.

    `seat` is the acting seat (null: the dealer of a table game submitting
    dice or draws). With `expected_version`, a game that has moved on answers
    409 and stores nothing."""
    principal = require_principal()
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (0 < len(key) <= 200 and key.isprintable()):
        raise Problem(422, "invalid-idempotency-key", "An Idempotency-Key is 1 to 200 printable characters.")
    settings = current_app.extensions["tablerecord.settings"]
    result = games.act(
        database.pool(),
        game_id,
        principal,
        body["seat"],
        body["command"],
        lambda game, command: _validate_command(game.engine_id, command),
        body["expected_version"],
        key,
        games.request_hash(request.get_json()),
        request_id(),
        settings.snapshot_every,
    )
    _announce(result)
    return result.body, result.status, ({"Idempotent-Replayed": "true"} if result.replayed else {})


def _announce(result: games.ActionResult) -> None:
    if not result.replayed and result.body.get("events"):
        notify.events_committed(result.body["events"][-1]["position"])


@blp.get("/games/<uuid:game_id>/events")
@blp.arguments(EventsQuery, location="query")
@blp.response(200, EventPage, content_type="application/json")
@blp.doc(responses=negotiated("EventPage", "A page of events", "/games/{game_id}/events.ndjson"))
@problems(blp, 401, 404, 422)
def list_events(query, game_id):
    """The game's event log by version, as the caller may see it (paginated)."""
    game, page, events = _game_events(query, game_id)
    if wants_ndjson():
        return ndjson(events)
    more = len(page) == query["limit"] and page[-1].version < game.version
    return {
        "events": events,
        "next_after_version": page[-1].version if more else None,
        "version": game.version,
    }


@blp.get("/games/<uuid:game_id>/events.ndjson")
@blp.arguments(EventsQuery, location="query")
@blp.response(200, content_type=NDJSON)
@blp.doc(responses=ndjson_only("A page of events (as in `/games/{game_id}/events`)"))
@problems(blp, 401, 404, 422)
def list_events_ndjson(query, game_id):
    """The game's event log, one event per line (page with `after_version` and `limit`)."""
    return ndjson(_game_events(query, game_id)[2])


def _game_events(query, game_id: UUID):
    with database.pool().connection() as conn:
        game = visible_game(conn, game_id)
        seat = games.viewer_seat(game, current_principal())
        page = store.read_stream(conn, game.id, query["after_version"], query["limit"])
    return game, page, [games.redact_stored(game, e, seat) for e in page]


@blp.post("/games/<uuid:game_id>/retract")
@blp.arguments(Retract)
@blp.response(201, ActionResult)
@problems(blp, 400, 401, 403, 404, 409, 413, 422, 503)
def retract(body, game_id):
    """Take back the latest actions of a table game (recorder): the game returns
    to `to_version`; nothing is deleted and the log shows the retraction."""
    principal = require_principal()
    result = games.retract(
        database.pool(), game_id, principal, body["to_version"], request_id(), body["reason"]
    )
    _announce(result)
    return result.body, result.status


@blp.post("/games/<uuid:game_id>/abandon")
@blp.arguments(Abandon)
@blp.response(201, ActionResult)
@problems(blp, 400, 401, 403, 404, 409, 413, 422, 503)
def abandon(body, game_id):
    """Abandon a game (admin token); it keeps its log and counts in no standings."""
    principal = require_principal()
    result = games.abandon(database.pool(), game_id, principal, request_id(), body["reason"])
    _announce(result)
    return result.body, result.status
