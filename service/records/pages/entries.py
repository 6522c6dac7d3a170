"""What a tap on a member's page records: a scorepad entry (with the die rolled on the same
tap and the entries it forced), the table's pass window, a game page's action, and the
recorder's undo. An entry chosen on a version since moved past is applied when it still
means what it meant (``late_entries``); otherwise nothing is stored.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import psycopg

from service.records import access
from service.records.access import Principal
from service.records.errors import Conflict, Invalid
from service.records.log import fold, store
from service.records.log.context import Records
from service.records.reading.steps import name_list
from service.records.recording import acting, entry_tries, late_entries, recorder, states
from service.records.recording.games import Game, config_of, get_game, player_names
from service.records.recording.unit_of_work import WriteResult
from service.records.scorepad import shortcuts

#: The newest events the scorepad reads for them and for its undo.
SCOREPAD_TAIL = 150


def newest_events(conn: psycopg.Connection, game: Game) -> list[store.StoredEvent]:
    """The stream's newest ``SCOREPAD_TAIL`` events, which are enough for the
    log's newest lines and the last entry unless the entry still in force
    began before them: then the whole stream. (A retraction takes back events
    before it, so those of the tail are marked whatever it reaches back to.)"""
    after = max(game.version - SCOREPAD_TAIL, 0)
    events = store.read_stream(conn, game.id, after_version=after)
    if after == 0:
        return events
    entry = last_entry(events)
    if entry is None or entry["to_version"] <= after:
        return store.read_stream(conn, game.id)
    return events


def _recorder_of_table(game: Game, principal: Principal | None) -> None:
    access.recorder_of(game, principal)
    if game.dealer != "table":
        raise Invalid("not-a-table-game", "The scorepad records games dealt at a table.")


def player_of_table(game: Game, principal: Principal | None) -> Principal:
    """The scorepad is for a table game's recorder and its players (each their own entries)."""
    principal = access.player_of(game, principal)
    if game.dealer != "table":
        raise Invalid("not-a-table-game", "The scorepad records games dealt at a table.")
    return principal


def last_entry(events: list[store.StoredEvent]) -> dict[str, Any] | None:
    """The latest entry still in force (the events one action appended, with
    the entries it forced) and the version before it; None when only the
    game's setup is left."""
    line = fold.live_line(events)
    setup_end = max((e.version for e in events if e.metadata.get("setup")), default=1)
    entry = [e for e in line if e.version > setup_end and e.type not in fold.SERVICE_EVENTS]
    if not entry:
        return None
    tail = _entry_of(line, setup_end, entry[-1])
    while all(e.metadata.get("forced") for e in tail if e.type not in fold.SERVICE_EVENTS):
        before = [e for e in entry if e.version < tail[0].version]
        if not before:  # forced entries go with the entry that forced them
            break
        tail = _entry_of(line, setup_end, before[-1]) + tail
    return {"to_version": tail[0].version - 1, "events": len(tail)}


def _entry_of(
    line: list[store.StoredEvent], setup_end: int, last: store.StoredEvent
) -> list[store.StoredEvent]:
    return [e for e in line if e.version > setup_end and _same_entry(e, last)]


def _same_entry(event: store.StoredEvent, last: store.StoredEvent) -> bool:
    """Appended by the same action: one request, one transaction."""
    return (
        event.metadata.get("request_id") == last.metadata.get("request_id")
        and event.recorded_at == last.recorded_at
    )


def record_entry(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    seat: int | None,
    command: dict[str, Any],
    expected_version: int,
    request_id: str | None,
    then: dict[str, Any] | None = None,
) -> WriteResult:
    """One entry of the scorepad: the command as the recorder chose it, at the
    version it saw, and the die rolled on it (``then``) when the same tap
    gave it. An entry chosen on a version since moved past is applied
    when it still means what it meant (``late_entries``); otherwise nothing is
    stored and the conflict says what was entered meanwhile. A roll the
    engine refuses leaves the command entered and the die still asked. An
    entry after which the game is forced into the only command anyone may
    enter has it recorded too (``shortcuts.record_forced``)."""
    with records.pool.connection() as conn:
        principal = player_of_table(get_game(conn, game_id), principal)
    result = _entered(records, game_id, principal, seat, command, expected_version, request_id)
    if then is not None:
        result = acting.act(
            records,
            game_id,
            principal,
            None,
            then,
            expected_version=result.body["version"],
            request_id=request_id,
        )
    return shortcuts.record_forced(records, game_id, principal, request_id) or result


def record_pass_window(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    expected_version: int,
    request_id: str | None,
    then: dict[str, Any] | None = None,
) -> WriteResult | None:
    """The scorepad's "Nobody else reacts": every seat still able to answer
    passes (``shortcuts.record_pass_window``), at the version the pad showed,
    and the dice then rolled when the same tap gave them (``then``)."""
    with records.pool.connection() as conn:
        principal = player_of_table(get_game(conn, game_id), principal)
    return shortcuts.record_pass_window(records, game_id, principal, expected_version, request_id, then)


def act_for_seat(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    seat: int,
    command: dict[str, Any],
    expected_version: int,
    request_id: str | None,
) -> WriteResult:
    """One action from the game page: ``seat``'s command, by whoever may act
    for that seat (``access.may_act``: a member or a seat token for their own
    alone), at the version the page showed; one chosen on a version since
    moved past is applied as a late scorepad entry is (``late_entries``)."""
    principal = access.required(principal)
    with records.pool.connection() as conn:
        access.may_act(get_game(conn, game_id), principal, seat)
    return _entered(records, game_id, principal, seat, command, expected_version, request_id)


def _entered(
    records: Records,
    game_id: UUID,
    principal: Principal,
    seat: int | None,
    command: dict[str, Any],
    expected_version: int,
    request_id: str | None,
) -> WriteResult:
    """``command`` acted on at ``expected_version``, or on the game's version
    now when the late entry still means what it meant."""
    try:
        return acting.act(
            records,
            game_id,
            principal,
            seat,
            command,
            expected_version=expected_version,
            request_id=request_id,
        )
    except Conflict as moved:
        if moved.code != "version-conflict":
            raise
        now_version = _late_entry_applies(records, game_id, principal, seat, command, expected_version)
        return acting.act(
            records, game_id, principal, seat, command, expected_version=now_version, request_id=request_id
        )


def _late_entry_applies(
    records: Records,
    game_id: UUID,
    principal: Principal,
    seat: int | None,
    command: dict[str, Any],
    then_version: int,
) -> int:
    """The version a late entry is applied at; ``Conflict`` saying what changed when it no longer applies."""
    with records.pool.connection() as conn:
        game = get_game(conn, game_id)
        if not 1 <= then_version < game.version:
            raise Conflict("version-conflict", "The game has moved on since that version.")
        config = config_of(conn, game)
        then = fold.current_state(conn, game.engine, config, game.id, then_version)
        now = states.state_at(conn, game, config)
        between = store.read_stream(conn, game.id, after_version=then_version, to_version=game.version)
        known = player_names(conn, game.seats)
    names = name_list([known.get(p) for p in game.seats], game.seats)
    verdict = late_entries.judge(
        game.engine, then, now, between, seat, command, names, access.viewer(game, principal)
    )
    if not verdict.applies:
        raise Conflict("game-moved", verdict.changed, current_version=game.version)
    return game.version


def let_seats_try_again(records: Records, game_id: UUID, principal: Principal | None) -> None:
    """The recorder has settled, with the players at the table, a draw whose
    entries were refused too often (``entry_tries``): they may enter it again."""
    with records.pool.connection() as conn:
        _recorder_of_table(get_game(conn, game_id), principal)
        entry_tries.let_try_again(conn, game_id)


def undo_last_entry(
    records: Records,
    game_id: UUID,
    principal: Principal | None,
    expected_version: int,
    request_id: str | None,
) -> WriteResult:
    """Take back the latest entry of a table game (a retraction: the log keeps it)."""
    principal = access.required(principal)
    with records.pool.connection() as conn:
        game = get_game(conn, game_id)
        _recorder_of_table(game, principal)
        if game.version != expected_version:
            raise Conflict("version-conflict", "The game has moved on since that version.")
        entry = last_entry(newest_events(conn, game))
    if entry is None:
        raise Invalid("nothing-to-undo", "Nothing has been entered since the game was set up.")
    return recorder.retract(records, game_id, principal, entry["to_version"], request_id, "undo")
