"""Games: create, view, act, read the log, retract, abandon."""

from __future__ import annotations

from uuid import UUID

from flask import jsonify, request

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
    GamesQuery,
    GameSummary,
    GameView,
    LegalActions,
    Retract,
    SeatTokens,
    ViewQuery,
)
from service.api.common import (
    IDEMPOTENCY_HEADER,
    NDJSON,
    Blueprint,
    lagging,
    ndjson,
    ndjson_only,
    negotiated,
    next_link,
    paged,
    problems,
    records,
    request_id,
    wants_ndjson,
)
from service.api.conditional import (
    BODY_POSITION,
    IF_MATCH,
    LOG_POSITION,
    LOG_POSITION_HEADER,
    cached,
    expected_version,
    version_tag,
)
from service.api.routes.engines import GAME_CREATE, GAME_VIEW
from service.auth import current_principal, require_principal
from service.records.log.context import Records
from service.records.reading import game_views
from service.records.recording import acting, creation, idempotency, recorder

blp = Blueprint("games", __name__, description="Games, their actions and their event log")


@blp.post("/clubs/<uuid:club>/games")
@blp.arguments(GameCreate)
@blp.doc(
    requestBody={"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{GAME_CREATE}"}}}}
)
@blp.response(201, GameCreated, headers=LOG_POSITION_HEADER)
@problems(blp, 400, 401, 403, 404, 413, 422, 503)
def create_game(body, club):
    """Create a game (admin token): seats mapped to players, options, dealer, league.

    Returns the game and one token per seat (shown once)."""
    return creation.create_game(records(), club, current_principal(), body, request_id())


@blp.get("/clubs/<uuid:club>/games")
@blp.arguments(GamesQuery, location="query")
@blp.response(200, GameSummary(many=True), headers=next_link("games"))
@problems(blp, 401, 403, 404, 422)
def list_games(query, club):
    """A page of the club's games, newest first (admin token). When there are
    more, the `Link` header's `rel="next"` is the address of the next page."""
    page = game_views.list_games(records(), club, current_principal(), query["limit"], query["after"])
    return paged(page["games"], page["next_after"], ".list_games", club=club, limit=query["limit"])


@blp.post("/games/<uuid:game_id>/seat-tokens")
@blp.response(201, SeatTokens)
@problems(blp, 401, 403, 404)
def reissue_seat_tokens(game_id):
    """New seat tokens for every seat (the recorder only); the old ones stop
    working (within two seconds). A creation or import whose answer was lost
    is retried under the same Idempotency-Key, and answers the same tokens;
    this replaces them when a seat token was lost or given away."""
    return creation.reissue_seat_tokens(records(), game_id, current_principal())


@blp.get("/clubs/<uuid:club>/events")
@cached
@blp.arguments(FeedQuery, location="query")
@blp.response(200, FeedPage, content_type="application/json")
@blp.doc(responses=negotiated("FeedPage", "A page of the club's events", "/clubs/{club}/events.ndjson"))
@problems(blp, 401, 403, 404, 422)
def club_feed(query, club):
    """Every event of the club's games in global position order (admin token).

    A follower (an export, a club website) keeps the last position it read and
    asks for what came after: no event is ever skipped, even one whose
    transaction committed late. Events appear as the recorder may see them."""
    page = lagging(None, lambda records: feed(records, club, query))
    return ndjson(page["events"]) if wants_ndjson() else page


def feed(records: Records, club: UUID, query: dict) -> dict:
    return game_views.club_feed(records, club, current_principal(), query["after_position"], query["limit"])


@blp.get("/clubs/<uuid:club>/events.ndjson")
@cached
@blp.arguments(FeedQuery, location="query")
@blp.response(200, content_type=NDJSON)
@blp.doc(responses=ndjson_only("A page of the club's events (as in `/clubs/{club}/events`)"))
@problems(blp, 401, 403, 404, 422)
def club_feed_ndjson(query, club):
    """The club's event feed, one event per line (admin token)."""
    return ndjson(lagging(None, lambda records: feed(records, club, query))["events"])


@blp.get("/games/<uuid:game_id>")
@cached
@blp.arguments(ViewQuery, location="query")
@blp.response(200, {"$ref": f"#/components/schemas/{GAME_VIEW}"})
@problems(blp, 401, 403, 404, 422)
def get_game(query, game_id):
    """The game's state as the caller may see it, its version and outcome (the state typed by engine).

    Its `ETag` starts with the game's version (`"v12-…"`): sent back as
    `If-Match` on an action, the action is recorded only while the game is
    still at that version."""
    view = game_views.game_view(
        records(), game_id, current_principal(), query["seat"], query["view"] == "table"
    )
    return version_tag(jsonify(GameView().dump(view)), view["version"])


@blp.get("/games/<uuid:game_id>/legal-actions")
@blp.response(200, LegalActions)
@problems(blp, 401, 403, 404)
def legal_actions(game_id):
    """The commands the caller may post now: its seat's, or every seat's for the recorder."""
    return game_views.legal_actions(records(), game_id, current_principal())


@blp.post("/games/<uuid:game_id>/actions")
@blp.arguments(ActionRequest)
@blp.response(201, ActionResult, headers=LOG_POSITION_HEADER)
@blp.doc(parameters=[IDEMPOTENCY_HEADER, IF_MATCH])
@problems(blp, 400, 401, 403, 404, 409, 413, 422, 503)
def post_action(body, game_id):
    """Record an action: checked for shape, then by the game's rules, then appended.

    `seat` is the acting seat (null: the dealer of a table game submitting
    dice or draws). With `expected_version` (or `If-Match`), a game that has
    moved on answers 409 and stores nothing."""
    principal = require_principal()
    key = idempotency.check_key(request.headers.get("Idempotency-Key"))
    result = acting.act(
        records(),
        game_id,
        principal,
        body["seat"],
        body["command"],
        expected_version=expected_version(body["expected_version"]),
        idempotency_key=key,
        body_hash=idempotency.request_hash(request.get_json()) if key else "",
        request_id=request_id(),
    )
    if not result.replayed:
        return jsonify(result.body), result.status
    # Kept with its events, before their commit said where: its last event says it.
    position = result.body["events"][-1]["position"]
    headers = {"Idempotent-Replayed": "true", LOG_POSITION: str(position)}
    return jsonify({**result.body, BODY_POSITION: position}), result.status, headers


@blp.get("/games/<uuid:game_id>/events")
@cached
@blp.arguments(EventsQuery, location="query")
@blp.response(200, EventPage, content_type="application/json")
@blp.doc(responses=negotiated("EventPage", "A page of events", "/games/{game_id}/events.ndjson"))
@problems(blp, 401, 404, 422)
def list_events(query, game_id):
    """The game's event log by version, as the caller may see it (paginated)."""
    page = game_views.event_page(
        records(), game_id, current_principal(), query["after_version"], query["limit"]
    )
    return ndjson(page["events"]) if wants_ndjson() else page


@blp.get("/games/<uuid:game_id>/events.ndjson")
@cached
@blp.arguments(EventsQuery, location="query")
@blp.response(200, content_type=NDJSON)
@blp.doc(responses=ndjson_only("A page of events (as in `/games/{game_id}/events`)"))
@problems(blp, 401, 404, 422)
def list_events_ndjson(query, game_id):
    """The game's event log, one event per line (page with `after_version` and `limit`)."""
    page = game_views.event_page(
        records(), game_id, current_principal(), query["after_version"], query["limit"]
    )
    return ndjson(page["events"])


@blp.post("/games/<uuid:game_id>/retract")
@blp.arguments(Retract)
@blp.response(201, ActionResult, headers=LOG_POSITION_HEADER)
@problems(blp, 400, 401, 403, 404, 409, 413, 422, 503)
def retract(body, game_id):
    """Take back the latest actions of a table game (recorder): the game returns
    to `to_version`; nothing is deleted and the log shows the retraction."""
    result = recorder.retract(
        records(), game_id, require_principal(), body["to_version"], request_id(), body["reason"]
    )
    return result.body, result.status


@blp.post("/games/<uuid:game_id>/abandon")
@blp.arguments(Abandon)
@blp.response(201, ActionResult, headers=LOG_POSITION_HEADER)
@problems(blp, 400, 401, 403, 404, 409, 413, 422, 503)
def abandon(body, game_id):
    """Abandon a game (admin token); it keeps its log and counts in no standings."""
    result = recorder.abandon(records(), game_id, require_principal(), request_id(), body["reason"])
    return result.body, result.status
