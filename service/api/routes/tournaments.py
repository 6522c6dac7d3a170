"""Tournaments seated at tables: created and run by the club's organiser, read by its members."""

from __future__ import annotations

from schemas.tournaments import (
    TableGameCreate,
    TableResultCreate,
    TournamentCreate,
    TournamentPlayer,
    TournamentSummary,
    TournamentSwap,
    TournamentView,
    TournamentWrite,
)
from service.api.common import Blueprint, problems, records, request_id
from service.api.conditional import LOG_POSITION_HEADER
from service.auth import current_principal
from service.records.competitions import running

blp = Blueprint("tournaments", __name__, description="Tournaments seated at tables of the game's own sizes")


@blp.post("/clubs/<uuid:club>/tournaments")
@blp.arguments(TournamentCreate)
@blp.response(201, TournamentView)
@problems(blp, 400, 401, 403, 404, 413, 422)
def create_tournament(body, club):
    """Create a tournament (admin token): its game, the league its games count
    in (or none), its rounds and its final table (the top N play one last game)."""
    return running.create_tournament(records(), club, current_principal(), body, request_id())


@blp.get("/clubs/<uuid:club>/tournaments")
@blp.response(200, TournamentSummary(many=True))
@problems(blp, 401, 403, 404)
def list_tournaments(club):
    """The club's tournaments, newest first (admin token or a member sign-in)."""
    return running.club_tournaments(records(), club, current_principal())


@blp.get("/tournaments/<uuid:tournament>")
@blp.response(200, TournamentView)
@problems(blp, 401, 403, 404)
def get_tournament(tournament):
    """A tournament: its players, every round's tables (who sits where, each
    table's game and its places as they come in) and the standings (admin
    token or a member sign-in). Points by place are scaled to the table's
    size; ties are broken by opponents' points, then head to head."""
    return running.get_tournament(records(), tournament, current_principal())


@blp.post("/tournaments/<uuid:tournament>/players")
@blp.arguments(TournamentPlayer)
@blp.response(200, TournamentView)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def enter_player(body, tournament):
    """Enter a player of the club (admin token): seated from the next round."""
    return running.enter_players(
        records(), tournament, current_principal(), [str(body["player"])], request_id()
    )


@blp.post("/tournaments/<uuid:tournament>/players/<uuid:player>/withdraw")
@blp.response(200, TournamentView)
@problems(blp, 401, 403, 404, 409, 422)
def withdraw_player(tournament, player):
    """Withdraw a player (admin token): seated in no later round; their games so far count."""
    return running.withdraw_player(records(), tournament, current_principal(), str(player), request_id())


@blp.post("/tournaments/<uuid:tournament>/rounds")
@blp.response(200, TournamentView)
@problems(blp, 401, 403, 404, 409, 422)
def seat_round(tournament):
    """Seat the next round (admin token), or the final table once every round
    is played: tables of the game's own sizes, by standing (round 1: by the
    league's ratings, else as entered), meeting the same opponents as rarely
    as possible. Refused (409 `round-open`) while a table of the last round
    has not ended."""
    return running.seat_round(records(), tournament, current_principal(), request_id())


@blp.post("/tournaments/<uuid:tournament>/swap")
@blp.arguments(TournamentSwap)
@blp.response(200, TournamentView)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def swap_players(body, tournament):
    """Two players of the round being played change places (admin token),
    before either's table has started its game."""
    return running.swap_players(
        records(), tournament, current_principal(), [str(p) for p in body["players"]], request_id()
    )


@blp.post("/tournaments/<uuid:tournament>/tables/<int:table>/game")
@blp.arguments(TableGameCreate)
@blp.response(200, TournamentWrite, headers=LOG_POSITION_HEADER)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def start_table_game(body, tournament, table):
    """Start the game of one table of the round being played (admin token):
    a table game of the club for its players in their seats, in the
    tournament's league, recorded on the scorepad."""
    return running.start_table_game(
        records(), tournament, current_principal(), table, body["options"], request_id()
    )


@blp.post("/tournaments/<uuid:tournament>/tables/<int:table>/result")
@blp.arguments(TableResultCreate)
@blp.response(200, TournamentWrite, headers=LOG_POSITION_HEADER)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def log_table_result(body, tournament, table):
    """Log the result of one table's game (admin token): every player of the
    table with a place, a score or both, judged by the game's own outcome rule."""
    return running.log_table_result(
        records(), tournament, current_principal(), table, body["players"], body["played_on"], request_id()
    )
