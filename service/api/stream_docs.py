"""The event streams in the API's contract. They are served by the stream
process (``service.streams``) on the same origin, not by this app: their
answers are documented here, beside the reads they follow."""

from __future__ import annotations

from typing import Any

from apispec import APISpec
from werkzeug.routing import Rule


def _problem(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }


LAST_EVENT_ID = {
    "name": "Last-Event-ID",
    "in": "header",
    "required": False,
    "description": "The id of the last event the reader has: the stream goes on after it. "
    "A browser's EventSource sends it by itself when it reconnects.",
    "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
}


def _path(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}


def _stream(
    summary: str, description: str, name: str, payload: str, cursor: dict[str, Any], path: str
) -> dict:
    return {
        "summary": summary,
        "description": description,
        "tags": ["streams"],
        "parameters": [_path(path), dict(LAST_EVENT_ID), cursor],
        "responses": {
            "200": {
                "description": (
                    f"`text/event-stream`: after a `retry:` hint, one event named `{name}` per event of "
                    f"the log, its `id` the reader's position and its `data` one `{payload}` as JSON; "
                    "a comment every 15 s while nothing happens. The stream stays open."
                ),
                "content": {
                    "text/event-stream": {
                        "schema": {"type": "string"},
                        "x-event-name": name,
                        "x-event-data": {"$ref": f"#/components/schemas/{payload}"},
                    }
                },
            },
            "401": _problem("A token or sign-in that is not valid."),
            "403": _problem("Known, but not allowed to follow this."),
            "404": _problem("No such thing, or not visible to the caller."),
            "422": _problem("A malformed `Last-Event-ID` or position."),
        },
    }


GAME_STREAM = _stream(
    "Follow a game's events as server-sent events",
    "Every event of the game from the reader's position on, in version order with no gap, each as "
    "the reader may see it (the same as `GET /games/{game_id}/events`: a seat its own view, the "
    "recorder its view, a spectator of a public game the public one), for as long as it stays. "
    "The event's `id` is the game's version. A bearer token, or a web page's session.",
    "game-event",
    "Event",
    {
        "name": "after_version",
        "in": "query",
        "required": False,
        "description": "Start after this version when no `Last-Event-ID` is sent (default 0: the whole game).",
        "schema": {"type": "integer", "minimum": 0},
    },
    "game",
)

CLUB_STREAM = _stream(
    "Follow a club's events as server-sent events",
    "Every event of the club's games in log position order, with no gap and none before it is "
    "settled (the same as `GET /clubs/{club}/events`), for as long as the reader stays. The club's "
    "admin token and app tokens given `read` get every game's events; a member's sign-in (a bearer "
    "token or a web page's session) those of the games it may see (the public ones and its own), "
    "as it sees them. The event's `id` is its log position.",
    "club-event",
    "FeedEvent",
    {
        "name": "after_position",
        "in": "query",
        "required": False,
        "description": "Start after this position when no `Last-Event-ID` is sent (default: from now on).",
        "schema": {"type": "integer", "minimum": 0},
    },
    "club",
)


def document(spec: APISpec) -> None:
    # The Flask plugin reads a path from a rule: these rules name no view of this app.
    spec.path(rule=Rule("/streams/games/<uuid:game>"), operations={"get": GAME_STREAM})
    spec.path(rule=Rule("/streams/clubs/<uuid:club>"), operations={"get": CLUB_STREAM})
