"""A game's page: the game as the caller may see it (``game_views.game_view``), its log
in plain English as the same viewer may read it, and the actions the caller may take
for the seat the page shows, offered as the scorepad offers them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any
from uuid import UUID

import psycopg

from engines.base import Amount, Event
from service.records import access
from service.records.access import Principal, Viewer
from service.records.log import fold, store
from service.records.log.context import Records
from service.records.reading import game_views, league
from service.records.reading.steps import describe_service, name_list
from service.records.recording import results, states
from service.records.recording.games import Game, config_of, get_game
from service.records.recording.wording import reworder
from service.records.scorepad import labels, seats, turns
from service.records.scorepad.choice import Choice


def game_page(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    as_seat: int | None = None,
    picks: Sequence[str] = (),
) -> dict[str, Any]:
    """The game as the caller may see it (``game_views.game_view``), its log in
    plain English as the same viewer may read it, and what the caller may do:
    the actions of the seat the page shows, when the caller may act for it
    (narrowed by ``picks``, as on the scorepad). A game logged by its result
    alone has no board, log or actions: its page is its result (``result_page``)."""
    with records.pool.connection() as conn:
        game = access.may_see_game(get_game(conn, game_id), principal)
        if results.is_result_only(conn, game.id):
            return result_page(conn, game)
    view = game_views.game_view(records, game_id, principal, as_seat, table=True)
    with records.pool.connection() as conn:
        game = get_game(conn, game_id)
        events = store.read_stream(conn, game.id)
        reword = reworder(config_of(conn, game).catalog)
        seat = access.page_seat(game, principal, view["viewer"])
        state = states.load_state(conn, game) if game.status == "active" else None
    names = name_list([s["name"] for s in view["seats"]], game.seats)
    label = reworded(labels.engine_labels(game.engine, state, names), reword) if state is not None else str
    turn = turns.whose_move(game, principal, state, names, label)
    return {
        **view,
        "title": game.engine.title,
        "played_on": played_on(events) if game.status == "finished" else None,
        "log": log_lines(game, events, view["viewer"], names, reword=reword),
        "recorder": _records_it(game, principal),
        "seat_views": [s for s in range(len(game.seats)) if access.may_see_seat(game, principal, s)],
        "acting": None
        if seat is None
        else _seat_actions(game, state, seat, names, list(picks), reword, turn),
        "waiting": list(turn.waiting),
        "your_move": bool(turn.seats or turn.chance) and seat is None,
    }


def played_on(events: Sequence[store.StoredEvent]) -> Any:
    """The day a played game was played: the one its record gives (an
    imported game's), else the day it first ended; None before it ends."""
    given = league.day_given(events[0]) if events else None
    ended = next((e for e in events if e.type == fold.GAME_ENDED), None)
    return given or (league.day_ended(ended) if ended else None)


def result_page(conn: psycopg.Connection, game: Game) -> dict[str, Any]:
    """A result-only game's page: its result as recorded (the day, the players
    in order of place with their scores, missing ones None) and nothing to
    replay or act on."""
    result = results.result_view(conn, game.id)
    return {
        "id": game.id,
        "title": game.engine.title,
        "status": game.status,
        "version": game.version,
        "result_only": True,
        "result": {**result, "players": sorted(result["players"], key=lambda p: p["place"] or 0)},
    }


def _seat_actions(
    game: Game,
    state: Any,
    seat: int,
    names: list[str],
    picks: list[str],
    reword: Callable[[str], str],
    turn: turns.Turn,
) -> dict[str, Any]:
    """``seat``'s legal actions on ``state`` as the scorepad offers them
    (``seats.seat_choice``: worded as the log will read them, in the
    catalog's words), the version they were read at, whether it is the
    seat's move (``turns.whose_move``, as the scorepad says it) and the cards
    dealt into its hand it is to enter on the scorepad."""
    engine = game.engine
    label, value = (
        labels.engine_labels(engine, state, names),
        labels.engine_value_labels(engine, state, names),
    )

    def words_for(field: str, v: Any) -> str:
        return reword(value(field, v))

    return {
        "seat": seat,
        "name": names[seat],
        "version": game.version,
        "yours": turn.awaits(seat),
        "own_cards": turn.own_cards if turn.chance is not None and turn.chance.dealt_to == seat else 0,
        "choice": _with_amounts(
            seats.seat_choice(
                seat, engine.legal_commands(state, seat), picks, reworded(label, reword), words_for
            ),
            engine.amounts(state, seat) if not picks else (),
        ),
    }


def _with_amounts(choice: Choice | None, amounts: Sequence[Amount]) -> Choice | None:
    """The seat's choice with the numbers it may enter beyond its buttons (a bid of any sum)."""
    return None if choice is None else replace(choice, amounts=tuple(amounts))


def reworded(label: Callable[[Any], str], reword: Callable[[str], str]) -> Callable[[Any], str]:
    return lambda command: reword(label(command))


def _records_it(game: Game, principal: Principal | None) -> bool:
    """Whether the caller enters entries of this table game on the scorepad
    (its recorder, or a player their own)."""
    return (
        principal is not None
        and principal.club_id == game.club_id
        and (principal.is_admin or principal.seat_in(game) is not None)
        and game.dealer == "table"
    )


def log_lines(
    game: Game,
    events: list[store.StoredEvent],
    viewer: Viewer,
    names: list[str],
    newest: int | None = None,
    reword: Callable[[str], str] = str,
) -> list[dict]:
    """Each event's line as ``viewer`` may read it, newest first (only the
    ``newest`` ones when given), in the catalog's words (``reword``); taken-back ones marked."""
    live = {e.version for e in fold.live_line(events)}
    engine = game.engine
    out = []
    for e in events[-newest:] if newest else events:
        if e.type in fold.SERVICE_EVENTS:
            text = describe_service(e.type, e.data, names, engine.title)
        else:
            event = Event(e.type, e.data) if viewer == "all" else engine.redact(Event(e.type, e.data), viewer)
            try:
                text = reword(engine.describe(event, names))
            except Exception:  # noqa: BLE001 - a line of text must not fail the page
                text = e.type
        out.append(
            {
                "version": e.version,
                "text": text,
                "live": e.version in live or e.type == fold.ACTIONS_RETRACTED,
            }
        )
    return out[::-1]
