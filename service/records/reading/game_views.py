"""What a caller may see of games: a game's view, its legal commands, its
event log, a club's game list and its event feed."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any
from uuid import UUID

from service.records import access
from service.records.access import Principal
from service.records.log import store
from service.records.log.context import Records
from service.records.reading.steps import name_list
from service.records.recording import results, states
from service.records.recording.creation import summary
from service.records.recording.games import Game, club_games, games_by_id, get_game, player_names
from service.records.recording.unit_of_work import redact


def game_view(
    records: Records, game_id: UUID, principal: Principal | None, as_seat: int | None, table: bool = False
) -> dict[str, Any]:
    """The game's state as the caller may see it, its version and outcome
    (``table``: and the table view model, as the same viewer may see it)."""
    with records.pool.connection() as conn:
        game = access.may_see_game(get_game(conn, game_id), principal)
        seat = access.viewer_as(game, principal, as_seat)
        state = states.load_state(conn, game)
        names = player_names(conn, game.seats)
        recorded = results.recorded_outcome(conn, game)
    engine = game.engine
    view = engine.dump_state(state) if seat == "all" else engine.view(state, seat)
    outcome = engine.outcome(state)
    request = engine.chance(state) if game.status == "active" else None
    seen = {"table": engine.table(state, seat, seat_names(game, names))} if table else {}
    return {
        **seen,
        **summary(game, names),
        "viewer": seat,
        "state": view,
        "outcome": recorded
        or {
            "finished": outcome.finished,
            "places": list(outcome.places),
            "scores": list(outcome.scores),
            "ended_by": outcome.ended_by,
        },
        "result_only": recorded is not None,
        "waiting_for_chance": (
            {
                "command": request.command,
                "dice": request.dice,
                "draw": request.draw,
                "seat": request.seat,
                "fixed": dict(request.fixed),
                "dealt_to": request.dealt_to,
            }
            if request
            else None
        ),
        "seed": game.seed if game.status != "active" and game.dealer == "server" else None,
    }


def seat_names(game: Game, names: dict[str, str]) -> list[str]:
    """Players' names by seat, from ``player_names``."""
    return name_list([names.get(str(p)) for p in game.seats], game.seats)


def legal_actions(records: Records, game_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The commands the caller may post now: its seat's, or every seat's for the
    recorder; a draw's cards only to a caller who may see what is left of the
    deck (``access.may_see_pool``), since they are taken from it."""
    principal = access.required(principal)
    with records.pool.connection() as conn:
        game = get_game(conn, game_id)
        access.player_of(game, principal)
        state = states.load_state(conn, game)
    engine = game.engine
    seats = {
        "dealer" if seat is None else str(seat): [
            _postable(seat, c)
            for c in engine.legal_commands(state, seat)
            if seat is not None or "cards" not in c or access.may_see_pool(game, principal)
        ]
        for seat in access.actors(game, principal)
    }
    amounts = {
        str(seat): [asdict(a) for a in engine.amounts(state, seat)]
        for seat in access.actors(game, principal)
        if seat is not None
    }
    return {"version": game.version, "seats": seats, "amounts": {k: v for k, v in amounts.items() if v}}


def _postable(seat: int | None, command: dict[str, Any]) -> dict[str, Any]:
    """A legal command as the body of an action."""
    return {"seat": seat, "command": {k: v for k, v in command.items() if k != "seat"}}


def event_page(
    records: Records, game_id: UUID, principal: Principal | None, after_version: int, limit: int
) -> dict[str, Any]:
    """The game's events after ``after_version`` as the caller may see them (at most ``limit``)."""
    with records.pool.connection() as conn:
        game = access.may_see_game(get_game(conn, game_id), principal)
        seat = access.viewer(game, principal)
        page = store.read_stream(conn, game.id, after_version, limit)
    more = len(page) == limit and page[-1].version < game.version
    return {
        "events": [access.positions_for(principal, game.club_id, redact(game, e, seat)) for e in page],
        "next_after_version": page[-1].version if more else None,
        "version": game.version,
    }


def club_feed(
    records: Records, club_id: UUID, principal: Principal | None, after_position: int, limit: int
) -> dict[str, Any]:
    """Every event of the club's games in global position order, as the recorder may see them."""
    principal = access.club_admin(principal, club_id, app_scope="read")
    with records.pool.connection() as conn:
        page = store.read_club(conn, club_id, after_position, limit)
        by_id = games_by_id(conn, {e.game_id for e in page})
    events = [
        {"game": e.game_id, **redact(by_id[e.game_id], e, access.viewer(by_id[e.game_id], principal))}
        for e in page
    ]
    return {"events": events, "next_after_position": page[-1].position if page else after_position}


def list_games(
    records: Records, club_id: UUID, principal: Principal | None, limit: int = 100, after: UUID | None = None
) -> dict[str, Any]:
    """A page of the club's games, newest first (its admin token), and the
    game to page on from (``next_after``; None on the last page)."""
    access.club_admin(principal, club_id, app_scope="read")
    with records.pool.connection() as conn:
        found = club_games(conn, club_id, limit + 1, after)
        names = player_names(conn, {p for g in found[:limit] for p in g.seats})
    more = len(found) > limit
    return {
        "games": [summary(g, names) for g in found[:limit]],
        "next_after": found[limit - 1].id if more else None,
    }
