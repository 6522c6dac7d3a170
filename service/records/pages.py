"""What the members' web pages read and write: one call per page, each
deciding access through ``service.records.access`` like every other reader.

The pages show what the API would show the same caller: a game as
``game_views.game_view`` gives it, events redacted for the same viewer,
replays through ``steps.Replay`` and standings from the standings projection.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any
from uuid import UUID

import psycopg

from engines import registry
from engines.base import Amount, Event, RuleViolation
from service.records import (
    access,
    acting,
    choices,
    fold,
    game_search,
    game_views,
    late_entries,
    recorder,
    shortcuts,
    states,
    store,
)
from service.records.access import Principal, Viewer
from service.records.context import Records
from service.records.creation import summary
from service.records.errors import Conflict, Forbidden, Invalid, NotFound
from service.records.games import Game, config_of, get_game, player_names
from service.records.ratings import shown
from service.records.standings_page import standings_page
from service.records.steps import describe_service, name_list
from service.records.unit_of_work import WriteResult
from service.records.wording import reworder

#: Rated games per page of a league's rating chart.
CHART_WINDOW = 50
#: The newest lines of the log the scorepad shows.
SCOREPAD_LINES = 30
#: The newest events the scorepad reads for them and for its undo.
SCOREPAD_TAIL = 150
#: Games listed per page on a league's and a club's pages.
GAMES_PER_PAGE = 15


# -- a club ----------------------------------------------------------------------


def club_home(records: Records, club_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The club, its leagues and players, its live games and its latest
    finished ones (for a member: the public ones and their own)."""
    principal = access.club_member(principal, club_id)
    with records.pool.connection() as conn:
        club = conn.execute("SELECT id, name FROM clubs WHERE id = %s", (club_id,)).fetchone()
        leagues = conn.execute(
            "SELECT id, name, engine, season, public FROM leagues WHERE club_id = %s ORDER BY created_at",
            (club_id,),
        ).fetchall()
        players = conn.execute(
            "SELECT id, name, retired_at IS NOT NULL AS retired FROM players WHERE club_id = %s ORDER BY name",
            (club_id,),
        ).fetchall()
        live = game_search.latest(conn, club_id, principal, True, 50)
        recent = game_search.latest(conn, club_id, principal, False, GAMES_PER_PAGE)
    return {
        "club": club,
        "leagues": leagues,
        "players": players,
        "live": live,
        "recent": recent,
        "engines": [{"id": e, "title": registry.get(e).title} for e in registry.available()],
    }


def new_game_form(
    records: Records, club_id: UUID, principal: Principal | None, engine_id: str | None
) -> dict[str, Any]:
    """What the scorepad's new-game form offers: engines, the club's players and
    leagues, and the chosen engine's options (from its schema, with defaults)."""
    access.club_admin(principal, club_id)
    engines = [{"id": e, "title": registry.get(e).title} for e in registry.available()]
    form: dict[str, Any] = {"club": club_id, "engines": engines, "engine": None}
    if engine_id is None:
        return form
    if engine_id not in registry.available():
        raise NotFound("engine")
    engine = registry.get(engine_id)
    with records.pool.connection() as conn:
        form["players"] = conn.execute(
            "SELECT id, name FROM players WHERE club_id = %s AND retired_at IS NULL ORDER BY name", (club_id,)
        ).fetchall()
        # Open leagues only, this game's own first (the form picks the first).
        form["leagues"] = conn.execute(
            "SELECT id, name, season FROM leagues WHERE club_id = %s AND closed_at IS NULL"
            " AND (engine IS NULL OR engine = %s) ORDER BY engine IS NULL, created_at DESC",
            (club_id, engine_id),
        ).fetchall()
    form["engine"] = {
        "id": engine.id,
        "title": engine.title,
        "min_seats": engine.min_seats,
        "max_seats": engine.max_seats,
        "options": option_fields(engine_id),
    }
    return form


#: Options whose value is a seat: the form offers the chosen players, not numbers.
SEAT_OPTIONS = frozenset({"first_speaker", "first_player"})


def option_fields(engine_id: str) -> list[dict[str, Any]]:
    """The engine's options as form fields: name, kind (integer, boolean, text,
    or seat: one of the game's players), default, bounds."""
    out = []
    for name, f in registry.game(engine_id).options().fields.items():
        kind = {"Integer": "integer", "Boolean": "boolean", "String": "text", "Float": "number"}.get(
            type(f).__name__
        )
        if kind is None:
            continue  # nested options keep their defaults
        if kind == "integer" and name in SEAT_OPTIONS:
            kind = "seat"
        bounds = {}
        for v in f.validators if isinstance(f.validators, list) else [f.validators]:
            if type(v).__name__ == "Range":
                bounds = {"min": v.min, "max": v.max}
        default = f.load_default if not callable(f.load_default) else None
        out.append(
            {
                "name": name,
                "kind": kind,
                "default": None if type(default).__name__ == "_Missing" else default,
                "optional": f.allow_none,
                **bounds,
            }
        )
    return out


# -- a league --------------------------------------------------------------------


def league_page(
    records: Records, league_id: UUID, principal: Principal | None, upto: int | None = None
) -> dict[str, Any]:
    """The standings (``standings_page``), one page of the rating history
    (``CHART_WINDOW`` rated games ending at ``upto``, default the latest) on
    the members' scale, and the latest results."""
    table = standings_page(records, league_id, principal)
    with records.pool.connection() as conn:
        last = conn.execute(
            "SELECT max(seq) AS seq FROM rating_history WHERE league_id = %s", (league_id,)
        ).fetchone()["seq"]
        last = int(last or 0)
        high = max(min(upto, last), 0) if upto is not None else last
        low = max(high - CHART_WINDOW, 0)
        rows = conn.execute(
            "SELECT h.seq, h.player_id, h.place, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after,"
            " g.ended_at FROM rating_history h JOIN standings_games g USING (game_id)"
            " WHERE h.league_id = %s AND h.seq > %s AND h.seq <= %s ORDER BY h.seq, h.seat",
            (league_id, low, high),
        ).fetchall()
        results = conn.execute(
            "SELECT game_id, seats, places, scores, ended_by, ended_at FROM standings_games"
            " WHERE league_id = %s AND status = 'finished'"
            " ORDER BY first_end_position DESC LIMIT %s",
            (league_id, GAMES_PER_PAGE),
        ).fetchall()
        names = player_names(conn, {r["player_id"] for r in rows} | {p for r in results for p in r["seats"]})
    series: dict[str, dict[str, Any]] = {}
    games: list[dict[str, Any]] = []
    for r in rows:
        player = str(r["player_id"])
        line = series.setdefault(player, {"player": player, "name": names.get(player), "points": []})
        before, after = shown(r["mu_before"], r["sigma_before"]), shown(r["mu_after"], r["sigma_after"])
        if not line["points"]:
            line["points"].append([r["seq"] - 1, before])
        line["points"].append([r["seq"], after])
        if not games or games[-1]["game"] != r["seq"]:
            games.append({"game": r["seq"], "date": _date(r["ended_at"]), "players": []})
        games[-1]["players"].append(
            {
                "player": player,
                "name": names.get(player),
                "place": r["place"],
                "rating": after,
                "change": after - before,
            }
        )
    return {
        **table,
        "chart": {
            "from": low + 1 if rows else 0,
            "to": high,
            "last": last,
            "earlier": low if low > 0 else None,
            "later": min(high + CHART_WINDOW, last) if high < last else None,
            "series": sorted(series.values(), key=lambda s: s["name"] or ""),
            "dates": {g["game"]: g["date"] for g in games},
        },
        "chart_table": games,
        "results": [
            {
                "game": r["game_id"],
                "ended_at": r["ended_at"],
                "ended_by": r["ended_by"],
                "seats": [
                    {"player": str(p), "name": names.get(str(p)), "place": place, "score": score}
                    for p, place, score in zip(r["seats"], r["places"] or [], r["scores"] or [], strict=False)
                ],
            }
            for r in results
        ],
    }


def _date(moment) -> str:
    return moment.strftime("%d %b %Y") if moment else ""


# -- a game ----------------------------------------------------------------------


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
    (narrowed by ``picks``, as on the scorepad)."""
    view = game_views.game_view(records, game_id, principal, as_seat, table=True)
    with records.pool.connection() as conn:
        game = get_game(conn, game_id)
        events = store.read_stream(conn, game.id)
        reword = reworder(config_of(conn, game).catalog)
        seat = access.page_seat(game, principal, view["viewer"])
        state = states.load_state(conn, game) if seat is not None else None
    names = name_list([s["name"] for s in view["seats"]], game.seats)
    return {
        **view,
        "title": game.engine.title,
        "log": log_lines(game, events, view["viewer"], names, reword=reword),
        "recorder": _records_it(game, principal),
        "seat_views": [s for s in range(len(game.seats)) if access.may_see_seat(game, principal, s)],
        "acting": None if seat is None else _seat_actions(game, state, seat, names, list(picks), reword),
    }


def _seat_actions(
    game: Game, state: Any, seat: int, names: list[str], picks: list[str], reword: Callable[[str], str]
) -> dict[str, Any]:
    """``seat``'s legal actions on ``state`` as the scorepad offers them
    (``choices.seat_choice``: worded as the log will read them, in the
    catalog's words), the version they were read at, and whom else the game
    waits for."""
    engine = game.engine
    label, value = (
        choices.engine_labels(engine, state, names),
        choices.engine_value_labels(engine, state, names),
    )

    def words_for(field: str, v: Any) -> str:
        return reword(value(field, v))

    waiting = []
    for other in range(len(game.seats)):
        commands = engine.legal_commands(state, other)
        if other != seat and commands:
            waiting.append(_waiting_for_seat(names[other], commands))
    return {
        "seat": seat,
        "name": names[seat],
        "version": game.version,
        "choice": _with_amounts(
            choices.seat_choice(
                seat, engine.legal_commands(state, seat), picks, _reworded(label, reword), words_for
            ),
            engine.amounts(state, seat) if not picks else (),
        ),
        "waiting": waiting,
    }


def _with_amounts(choice: choices.Choice | None, amounts: Sequence[Amount]) -> choices.Choice | None:
    """The seat's choice with the numbers it may enter beyond its buttons (a bid of any sum)."""
    return None if choice is None else replace(choice, amounts=tuple(amounts))


def _reworded(label: Callable[[Any], str], reword: Callable[[str], str]) -> Callable[[Any], str]:
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


def scorepad(
    records: Records, game_id: UUID, principal: Principal | None, actor: str | None, picks: list[str]
) -> dict[str, Any]:
    """A table game as the caller enters it: the choices of each actor the
    caller may enter for (its recorder: every seat and the table's chance; a
    player: their own seat and the cards dealt into their own hand), narrowed
    by ``picks`` for ``actor``; what the game waits for from others, in words
    that reveal nothing; the log and the game as the caller may see them, and
    the entry an undo would take back (the recorder's)."""
    with records.pool.connection() as conn:
        game = get_game(conn, game_id)
        principal = _player_of_table(game, principal)
        state = states.load_state(conn, game)
        events = newest_events(conn, game)
        known = player_names(conn, game.seats)
        reword = reworder(config_of(conn, game).catalog)
    names = name_list([known.get(p) for p in game.seats], game.seats)
    engine = game.engine
    viewer = access.viewer(game, principal)
    pads: list[choices.Choice] = []
    waiting: list[str] = []
    if game.status == "active":
        label = _reworded(choices.engine_labels(engine, state, names), reword)
        value_label = choices.engine_value_labels(engine, state, names)

        def words_for(field: str, value: Any) -> str:
            return reword(value_label(field, value))

        request = engine.chance(state)
        if request is not None:
            if _may_supply(game, principal, request):
                picked = picks if actor == "table" else []
                choice = choices.chance_choice(
                    _as_offered(game, principal, request), picked, label, words_for, names
                )
                own = request.dealt_to is not None and not access.may_see_pool(game, principal)
                pads.append(replace(choice, own=own))
            else:
                waiting.append(_waiting_for_chance(request, names, label))
        mine = access.actors(game, principal)
        for seat in range(len(game.seats)):
            commands = engine.legal_commands(state, seat)
            if not commands:
                continue
            if seat not in mine:
                waiting.append(_waiting_for_seat(names[seat], commands))
                continue
            picked = picks if actor == str(seat) else []
            then = _roll_after(game, principal, engine, state)
            choice = choices.seat_choice(seat, commands, picked, label, words_for, then, names)
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
        "forced": _forced_lines(events, log),
        "waiting": waiting,
        "log": log,
        "log_length": game.version,
        "undo": last_entry(events) if principal.is_admin else None,
    }


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
    label = _reworded(choices.engine_labels(game.engine, state, names), reword)
    after = state
    for seat, command in window.entries:
        for event in game.engine.decide(after, {**command, "seat": seat}):
            after = game.engine.evolve(after, event)
    request = game.engine.chance(after)
    rolls = None
    if request is not None and _may_supply(game, principal, request):
        rolls = choices.dice_after(request, names)
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


def _roll_after(game: Game, principal: Principal, engine: Any, state: Any) -> choices.Then:
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
        if request is None or not _may_supply(game, principal, request):
            return None
        return _as_offered(game, principal, request)

    return then


def _as_offered(game: Game, principal: Principal, request: Any) -> Any:
    """``request`` as the caller is asked it: a seat entering its own cards
    from every card it cannot see, the recorder from the pool."""
    return request if access.may_see_pool(game, principal) else choices.own_cards(request)


def _may_supply(game: Game, principal: Principal, request: Any) -> bool:
    try:
        access.may_supply_chance(game, principal, request)
    except (Forbidden, NotFound):
        return False
    return True


def _waiting_for_seat(name: str, commands: list[dict[str, Any]]) -> str:
    """A seat's entry awaited, by what it does when all its entries are one kind ("to place a bid")."""
    kinds = {c["type"] for c in commands}
    if len(kinds) == 1:
        return f"Waiting for {name}: {choices.words(kinds.pop()).lower()}"
    return f"Waiting for {name}'s entry"


def _waiting_for_chance(request: Any, names: list[str], label: choices.Label) -> str:
    """What the table awaits from someone else, revealing no card: a player's
    own cards by their name, the rest by the line the log will write."""
    if request.dealt_to is not None:
        count = request.draw
        cards = "card" if count == 1 else f"{count} cards"
        return f"Waiting for {names[request.dealt_to]} to enter their {cards}"
    return f"Waiting for the table: {label({'type': request.command, 'seat': None, **dict(request.fixed)})}"


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


def _player_of_table(game: Game, principal: Principal | None) -> Principal:
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
        principal = _player_of_table(get_game(conn, game_id), principal)
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
        principal = _player_of_table(get_game(conn, game_id), principal)
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
