"""Result-only games: a play recorded by who played and how they finished."""

from __future__ import annotations

from schemas.results import ResultCreate, ResultRetract, ResultsQuery, ResultView, ResultWrite
from service.api.common import Blueprint, next_link, paged, problems, records, request_id
from service.api.conditional import LOG_POSITION_HEADER
from service.auth import current_principal
from service.records.recording import results

blp = Blueprint("results", __name__, description="Result-only games: a play recorded by its result alone")


@blp.post("/clubs/<uuid:club>/results")
@blp.arguments(ResultCreate)
@blp.response(201, ResultWrite, headers=LOG_POSITION_HEADER)
@problems(blp, 400, 401, 403, 404, 413, 422, 503)
def record_result(body, club):
    """Record a game by its result alone (admin token): the players in seat
    order with their final scores and/or places, the day, and optionally its
    length and a note.

    The result is checked by the game's own rules for an outcome (the seats it
    takes, the scores it can produce, places that follow the scores under its
    ranking rule); a refused result stores nothing and `code` names the rule.
    It counts in standings, ratings and statistics as a played game of the
    same outcome; it has no replay."""
    return results.record_result(records(), club, current_principal(), results.play_from(body), request_id())


@blp.get("/clubs/<uuid:club>/results")
@blp.arguments(ResultsQuery, location="query")
@blp.response(200, ResultView(many=True), headers=next_link("results"))
@problems(blp, 401, 403, 404, 422)
def list_results(query, club):
    """A page of the club's result-only games, most recently played first
    (admin token). When there are more, the `Link` header's `rel="next"` is
    the address of the next page."""
    page = results.club_results(records(), club, current_principal(), query["limit"], query["after"])
    return paged(page["results"], page["next_after"], ".list_results", club=club, limit=query["limit"])


@blp.get("/games/<uuid:game_id>/result")
@blp.response(200, ResultView)
@problems(blp, 401, 403, 404)
def get_result(game_id):
    """A result-only game's recorded result (its club's admin token)."""
    return results.get_result(records(), game_id, current_principal())


@blp.post("/games/<uuid:game_id>/result/retract")
@blp.arguments(ResultRetract)
@blp.response(200, ResultWrite, headers=LOG_POSITION_HEADER)
@problems(blp, 400, 401, 403, 404, 409, 413, 422, 503)
def retract_result(body, game_id):
    """Retract a result-only game's result (its recorder): it then counts
    nowhere; the log keeps the result and its retraction."""
    return results.retract_result(records(), game_id, current_principal(), body["reason"], request_id())
