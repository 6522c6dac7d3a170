"""The scorepad as the caller enters a table game: the choices of each actor the caller
may enter for, what the game waits for from others (in words that reveal nothing),
the table's pass window, the log and the game as the caller may see them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any
from uuid import UUID

import psycopg

from engines.base import RuleViolation
from service.records import access
from service.records.access import Principal
from service.records.log import store
from service.records.log.context import Records
from service.records.pages.entries import last_entry, newest_events, player_of_table
from service.records.pages.game_page import log_lines, reworded
from service.records.reading.steps import name_list
from service.records.recording import entry_tries, states
from service.records.recording.creation import summary
from service.records.recording.games import Game, config_of, get_game, player_names
from service.records.recording.wording import reworder
from service.records.scorepad import chance, labels, seats, sets, shortcuts, turns
from service.records.scorepad.choice import Choice, Then

#: The newest lines of the log the scorepad shows.
SCOREPAD_LINES = 30


def scorepad(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    actor: str | None = None,
    picks: Sequence[str] = (),
    entered: bool = False,
) -> dict[str, Any]:
    """A table game as the caller enters it: the choices of each actor the
    caller may enter for (its recorder: every seat and the table's chance; a
    player: their own seat and the cards dealt into their own hand), each
    narrowed by the caller's half-entered set for it (``sets``: with
    ``actor``, ``picks`` is kept as its set first); what the game waits for
    from others, in words that reveal nothing; the log and the game as the
    caller may see them, and the entry an undo would take back (the
    recorder's). What the game forced with the latest entry is said in the
    answer to the tap that ``entered`` it alone: read once, it goes."""
    with records.pool.connection() as conn:
        game = get_game(conn, game_id)
        principal = player_of_table(game, principal)
        state = states.load_state(conn, game)
        events = newest_events(conn, game)
        known = player_names(conn, game.seats)
        reword = reworder(config_of(conn, game).catalog)
        settle = entry_tries.spent(conn, game) if principal.is_admin and game.status == "active" else []
        kept = _kept_sets(conn, game, principal, state, actor, picks) if game.status == "active" else {}
    names = name_list([known.get(p) for p in game.seats], game.seats)
    engine = game.engine
    viewer = access.viewer(game, principal)
    pads: list[Choice] = []
    turn = turns.Turn()
    if game.status == "active":
        label = reworded(labels.engine_labels(engine, state, names), reword)
        value_label = labels.engine_value_labels(engine, state, names)

        def words_for(field: str, value: Any) -> str:
            return reword(value_label(field, value))

        turn = turns.whose_move(game, principal, state, names, label)
        if turn.chance is not None:
            picked = kept.get("table", [])
            choice = chance.chance_choice(
                _as_offered(game, principal, turn.chance), picked, label, words_for, names
            )
            own = turn.chance.dealt_to is not None and not access.may_see_pool(game, principal)
            pads.append(replace(choice, own=own))
        for seat in access.actors(game, principal):
            commands = engine.legal_commands(state, seat) if seat is not None else []
            if not commands:
                continue
            picked = kept.get(str(seat), [])
            then = _roll_after(game, principal, engine, state)
            choice = seats.seat_choice(seat, commands, picked, label, words_for, then, names)
            if choice is not None:
                pads.append(replace(choice, amounts=() if picked else tuple(engine.amounts(state, seat))))
    window = _pass_window(game, principal, state, names, reword) if game.status == "active" else None
    outcome = engine.outcome(state)
    log = log_lines(game, events, viewer, names, SCOREPAD_LINES, reword)
    return {
        "game": summary(game, dict(zip(game.seats, names, strict=True))),
        "title": engine.title,
        "names": names,
        "table": engine.table(state, viewer, names),
        "outcome": {
            "finished": outcome.finished,
            "places": list(outcome.places),
            "scores": list(outcome.scores),
        },
        "choices": pads,
        "window": window,
        "forced": _forced_lines(events, log) if entered else [],
        "waiting": list(turn.waiting),
        "log": log,
        "log_length": game.version,
        "undo": last_entry(events) if principal.is_admin else None,
        "settle": [names[s] for s in settle],
    }


def _kept_sets(
    conn: psycopg.Connection,
    game: Game,
    principal: Principal,
    state: Any,
    actor: str | None,
    picks: Sequence[str],
) -> dict[str, list[str]]:
    """The caller's half-entered sets by actor, ``picks`` kept first as
    ``actor``'s when the caller enters for it (a tap on the pad)."""
    request = game.engine.chance(state)
    mine = [str(a) for a in access.actors(game, principal) if a is not None]
    if request is not None and turns.may_supply(game, principal, request):
        mine.append("table")
    if actor is not None and actor in mine:
        sets.keep(conn, game, principal, state, actor, list(picks))
    return sets.kept(conn, game, principal, state)


def _pass_window(
    game: Game, principal: Principal, state: Any, names: list[str], reword: Callable[[str], str]
) -> dict[str, Any] | None:
    """The table's "Nobody else reacts", when the game is in a pass window and
    the caller may enter every pass it would record: each pass in the log's
    words; when the dice are rolled once everyone has passed, one button per
    roll (the passes and the roll in one tap)."""
    window = shortcuts.pass_window(game.engine, state, len(game.seats))
    if window is None or not all(access.may_enter_for(game, principal, s) for s in window.seats):
        return None
    label = reworded(labels.engine_labels(game.engine, state, names), reword)
    after = state
    for seat, command in window.entries:
        for event in game.engine.decide(after, {**command, "seat": seat}):
            after = game.engine.evolve(after, event)
    request = game.engine.chance(after)
    rolls = None
    if request is not None and turns.may_supply(game, principal, request):
        rolls = chance.dice_after(request, names)
    return {
        "passes": [label({**command, "seat": seat}) for seat, command in window.entries],
        "entries": [[seat, command] for seat, command in window.entries],
        "rolls": rolls,
    }


def _forced_lines(events: list[store.StoredEvent], log: list[dict]) -> list[str]:
    """The lines of the latest entry that the game forced (recorded with the
    tap, as the only entry anyone could make), as the log reads them."""
    entry = last_entry(events)
    if entry is None:
        return []
    forced = {e.version for e in events if e.version > entry["to_version"] and e.metadata.get("forced")}
    return [line["text"] for line in reversed(log) if line["version"] in forced and line["live"]]


def _roll_after(game: Game, principal: Principal, engine: Any, state: Any) -> Then:
    """The chance a seat's command leads to, when the caller may enter it too
    (a die the recorder rolls on the same tap as the command)."""

    def then(command: dict[str, Any]) -> Any:
        try:
            after = state
            for event in engine.decide(state, command):
                after = engine.evolve(after, event)
        except RuleViolation:
            return None
        request = engine.chance(after)
        if request is None or not turns.may_supply(game, principal, request):
            return None
        return _as_offered(game, principal, request)

    return then


def _as_offered(game: Game, principal: Principal, request: Any) -> Any:
    """``request`` as the caller is asked it: a seat entering its own cards
    from every card it cannot see, the recorder from the pool."""
    return request if access.may_see_pool(game, principal) else chance.own_cards(request)
