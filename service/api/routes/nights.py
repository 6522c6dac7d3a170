"""Game nights: posted by the club's organiser, answered by its members for themselves."""

from __future__ import annotations

from schemas.nights import (
    NightAnswer,
    NightCreate,
    NightPresent,
    NightProposal,
    NightProposalQuery,
    NightSummary,
    NightTableCreate,
    NightTableResult,
    NightView,
    NightWrite,
)
from service.api.common import Blueprint, problems, records, request_id
from service.api.conditional import LOG_POSITION_HEADER
from service.auth import current_principal
from service.records.competitions import evenings

blp = Blueprint("game nights", __name__, description="Game nights: posted, answered, played")


@blp.post("/clubs/<uuid:club>/game-nights")
@blp.arguments(NightCreate)
@blp.response(201, NightView)
@problems(blp, 400, 401, 403, 404, 413, 422)
def post_night(body, club):
    """Post a game night (admin token): its day, time, place and the games on offer."""
    return evenings.post_night(records(), club, current_principal(), body, request_id())


@blp.get("/clubs/<uuid:club>/game-nights")
@blp.response(200, NightSummary(many=True))
@problems(blp, 401, 403, 404)
def list_nights(club):
    """The club's game nights, the latest day first (admin token or a member sign-in)."""
    return evenings.club_nights(records(), club, current_principal())


@blp.get("/game-nights/<uuid:night>")
@blp.response(200, NightView)
@problems(blp, 401, 403, 404)
def get_night(night):
    """A game night: its games on offer and every member's answer (admin token or a member sign-in)."""
    return evenings.get_night(records(), night, current_principal())


@blp.post("/game-nights/<uuid:night>/answer")
@blp.arguments(NightAnswer)
@blp.response(200, NightView)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def answer_night(body, night):
    """Answer a game night yes, no or maybe, with the games you want to play
    (a member sign-in, for its own player: a later answer replaces the
    earlier one). Refused (409 `night-over`) once the day has passed."""
    return evenings.answer_night(
        records(), night, current_principal(), body["answer"], body["games"], request_id()
    )


@blp.post("/game-nights/<uuid:night>/present")
@blp.arguments(NightPresent)
@blp.response(200, NightView)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def mark_present(body, night):
    """Mark who came (admin token, on the night or after): players of the
    club, whether they answered or not; replaces the last list given."""
    return evenings.mark_present(
        records(), night, current_principal(), [str(p) for p in body["players"]], request_id()
    )


@blp.get("/game-nights/<uuid:night>/tables")
@blp.arguments(NightProposalQuery, location="query")
@blp.response(200, NightProposal)
@problems(blp, 401, 403, 404, 422)
def propose_tables(query, night):
    """Tables proposed for the players present who have no table yet (admin
    token): games on offer whose seat counts fit the players who want them,
    balancing ratings or mixing newcomers. Nothing is stored until a table starts."""
    return evenings.propose_tables(records(), night, current_principal(), query["mode"])


@blp.post("/game-nights/<uuid:night>/tables")
@blp.arguments(NightTableCreate)
@blp.response(200, NightWrite, headers=LOG_POSITION_HEADER)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def start_table(body, night):
    """Start a table's game (admin token): players who came, each at one table,
    as many as the game seats, recorded on the scorepad."""
    return evenings.start_table(
        records(), night, current_principal(), body["engine"], [str(p) for p in body["players"]], request_id()
    )


@blp.post("/game-nights/<uuid:night>/tables/result")
@blp.arguments(NightTableResult)
@blp.response(200, NightWrite, headers=LOG_POSITION_HEADER)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def log_table_result(body, night):
    """Log a table's game by its result (admin token): players who came, each
    at one table, with a place, a score or both, judged by the game's own
    outcome rule; it counts in no league."""
    return evenings.log_table_result(
        records(),
        night,
        current_principal(),
        body["engine"],
        body["players"],
        body["played_on"],
        request_id(),
    )
