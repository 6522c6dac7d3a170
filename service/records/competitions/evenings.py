"""Running a club's game nights: every door (the API, the web pages) calls these.

Each write locks the night's row, folds its stream, judges the request
(``game_nights.decide_*``) and appends its event in one transaction. The
answer is the night the new events make, evolved from the folded one: the
same a replay of the stream gives.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

import psycopg

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.club import names
from service.records.competitions import game_nights, night_log, night_tables, running, tournament_log
from service.records.competitions.game_nights import Night
from service.records.competitions.running import seat_range
from service.records.errors import Conflict, Invalid
from service.records.log import notify
from service.records.log.context import Records
from service.records.recording import commands, creation, games, results

#: A write's judgement: the events (type, data) it appends.
Events = list[tuple[str, dict[str, Any]]]


def post_night(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    spec: Mapping[str, Any],
    request_id: str | None,
    today: dt.date | None = None,
) -> dict[str, Any]:
    """A new game night of the club (its organiser): a day, a time, a place
    (a name, by the names' rule) and the games on offer."""
    principal = access.night_organiser(principal, club_id)
    data = game_nights.decide_post(
        spec["day"],
        spec["time"],
        names.name(spec["place"], "place"),
        [str(g) for g in spec["games"]],
        registry.available(),
        today or dt.date.today(),
    )
    night_id = uuid.uuid4()
    with records.pool.connection() as conn, conn.transaction():
        night_log.insert(conn, night_id, club_id, spec["day"])
        posted = [(game_nights.GAME_NIGHT_POSTED, data)]
        night_log.append(conn, night_id, club_id, 0, posted, _metadata(principal, request_id))
        return _view(conn, game_nights.fold(str(night_id), posted), principal, today)


def club_nights(
    records: Records, club_id: UUID, principal: Principal | None, today: dt.date | None = None
) -> list[dict[str, Any]]:
    """The club's game nights, the latest day first, each as its summary."""
    access.may_see_night(principal, club_id)
    with records.pool.connection() as conn:
        return [_summary(_load(conn, night_id), today) for night_id in night_log.of_club(conn, club_id)]


def get_night(
    records: Records, night_id: UUID, principal: Principal | None, today: dt.date | None = None
) -> dict[str, Any]:
    """A game night: its games, every member's answer and the tables played."""
    with records.pool.connection() as conn:
        access.may_see_night(principal, night_log.club_of(conn, night_id))
        return _view(conn, _load(conn, night_id), principal, today)


def answer_night(
    records: Records,
    night_id: UUID,
    principal: Principal | None,
    answer: str,
    wanted: Sequence[str],
    request_id: str | None,
    today: dt.date | None = None,
) -> dict[str, Any]:
    """A member's own answer (yes, no or maybe) and the games they want to
    play; a later answer replaces their earlier one."""

    def decide(conn: psycopg.Connection, night: Night, club_id: UUID) -> tuple[Principal, Events]:
        player = access.night_answerer(principal, club_id)
        data = game_nights.decide_answer(night, player, answer, list(wanted), today or dt.date.today())
        return principal, [(game_nights.ANSWER_GIVEN, data)]

    return _write(records, night_id, principal, request_id, decide, today, access.night_answerer)


def mark_present(
    records: Records,
    night_id: UUID,
    principal: Principal | None,
    players: Sequence[str],
    request_id: str | None,
    today: dt.date | None = None,
) -> dict[str, Any]:
    """Who came (the organiser, on the night): players of the club, none retired."""

    def decide(conn: psycopg.Connection, night: Night, club_id: UUID) -> tuple[Principal, Events]:
        organiser = access.night_organiser(principal, club_id)
        came = [str(p) for p in players]
        tournament_log.check_players(conn, club_id, came)
        return organiser, [
            (game_nights.PRESENCE_MARKED, game_nights.decide_presence(night, came, today or dt.date.today()))
        ]

    return _write(records, night_id, principal, request_id, decide, today)


def propose_tables(
    records: Records, night_id: UUID, principal: Principal | None, mode: str
) -> dict[str, Any]:
    """Tables for the players present who sit at no table yet (the organiser's
    choice of ``balance`` or ``mix``): proposed, not stored; each is stored
    when its game starts."""
    if mode not in night_tables.MODES:
        raise Invalid("night-tables-mode", "Balance the ratings or mix the newcomers.")
    with records.pool.connection() as conn:
        access.night_organiser(principal, night_log.club_of(conn, night_id))
        night = _load(conn, night_id)
        busy = {p for t in night.tables for p in t.players}
        free = [p for p in night.present if p not in busy]
        wants = {p: a.games for p, a in night.answers.items()}
        offers = [night_tables.Offer(e, *seat_range(e)) for e in night.games]
        proposal = night_tables.propose(
            free,
            wants,
            offers,
            night_log.ratings(conn, principal.club_id, free),
            night_log.newcomers(conn, principal.club_id, free),
            mode,
        )
        names_of = games.player_names(conn, free)
        return {
            "mode": mode,
            "tables": [
                {"engine": t.engine, "players": [{"player": p, "name": names_of.get(p)} for p in t.players]}
                for t in proposal.tables
            ],
            "waiting": [{"player": p, "name": names_of.get(p)} for p in proposal.waiting],
        }


def start_table(
    records: Records,
    night_id: UUID,
    principal: Principal | None,
    engine: str,
    players: Sequence[str],
    request_id: str | None,
) -> dict[str, Any]:
    """A table's game, created for its players in their seats (the order
    given), to be recorded on the scorepad."""

    def decide(conn: psycopg.Connection, night: Night, club_id: UUID) -> tuple[Principal, Events]:
        organiser = access.night_organiser(principal, club_id)
        data = game_nights.decide_table(
            night, engine, [str(p) for p in players], {e: seat_range(e) for e in night.games}
        )
        spec = {"engine": engine, "seats": data["players"], "league": None, "dealer": "table"}
        game, _tokens = creation.open_game(conn, club_id, spec, commands.options(engine, {}))
        work = creation.set_up(conn, game, organiser, request_id)
        work.commit(work.finish_if_over(), records.snapshot_every)
        after.append(lambda: work.committed(records))
        return organiser, [(game_nights.NIGHT_TABLE_STARTED, {**data, "game": str(game.id)})]

    after: list[Callable[[], None]] = []
    view = _write(records, night_id, principal, request_id, decide, None)
    for tell in after:
        tell()
    return view


def log_table_result(
    records: Records,
    night_id: UUID,
    principal: Principal | None,
    engine: str,
    finished: Sequence[Mapping[str, Any]],
    played_on: dt.date | None,
    request_id: str | None,
) -> dict[str, Any]:
    """A table's game logged by its result: each of its players (in their
    seats) with a place and/or score (``finished``: ``player``, ``place``,
    ``score``), judged by the game's own outcome rule as any logged result is."""

    def decide(conn: psycopg.Connection, night: Night, club_id: UUID) -> tuple[Principal, Events]:
        organiser = access.night_organiser(principal, club_id)
        seated = [str(f["player"]) for f in finished]
        data = game_nights.decide_table(night, engine, seated, {e: seat_range(e) for e in night.games})
        play = results.Play(
            engine=engine,
            players=seated,
            places=[f.get("place") for f in finished]
            if any(f.get("place") is not None for f in finished)
            else None,
            scores=[f.get("score") for f in finished]
            if any(f.get("score") is not None for f in finished)
            else None,
            played_on=played_on or night.day,
            league=None,
        )
        (judged,) = results.judge_plays(conn, club_id, [play])
        last = results.store_plays(conn, organiser, [judged], request_id)
        after.append(lambda: notify.publish(records.listeners, last))
        return organiser, [(game_nights.NIGHT_TABLE_STARTED, {**data, "game": str(judged.game.id)})]

    after: list[Callable[[], None]] = []
    view = _write(records, night_id, principal, request_id, decide, None)
    for tell in after:
        tell()
    return view


# -- the shared steps -------------------------------------------------------------------


def _write(
    records: Records,
    night_id: UUID,
    principal: Principal | None,
    request_id: str | None,
    decide: Callable[[psycopg.Connection, Night, UUID], tuple[Principal, Events]],
    today: dt.date | None,
    allowed: Callable[[Principal | None, UUID], Any] = access.night_organiser,
) -> dict[str, Any]:
    """One write: the night's row locked, the caller let in (``allowed``: the
    organiser unless said), the stream folded, judged and appended."""
    with records.pool.connection() as conn:
        with conn.transaction():
            row = night_log.lock(conn, night_id)
            allowed(principal, row["club_id"])
            night = _load(conn, night_id)
            if night.version >= night_log.MOST_EVENTS:
                raise Conflict("night-full", "This game night has recorded all it may.")
            actor, events = decide(conn, night, row["club_id"])
            night_log.append(
                conn, night_id, row["club_id"], night.version, events, _metadata(actor, request_id)
            )
            for event_type, data in events:
                night = game_nights.evolve(night, event_type, data)
        return _view(conn, night, principal, today)


def _load(conn: psycopg.Connection, night_id: UUID) -> Night:
    return game_nights.fold(str(night_id), night_log.read(conn, night_id))


def _metadata(principal: Principal, request_id: str | None) -> dict[str, Any]:
    return {"actor": principal.label(), "request_id": request_id}


# -- what readers see ----------------------------------------------------------------------


def _summary(night: Night, today: dt.date | None) -> dict[str, Any]:
    said = [a.answer for a in night.answers.values()]
    return {
        "id": night.id,
        "day": night.day,
        "time": night.time,
        "place": night.place,
        "games": [_game(e) for e in night.games],
        "past": night.past(today or dt.date.today()),
        "answered": {a: said.count(a) for a in game_nights.ANSWERS},
        "played": [registry.get(t.engine).title for t in night.tables],
        "version": night.version,
    }


def _game(engine_id: str) -> dict[str, Any]:
    engine = registry.get(engine_id)
    return {
        "engine": engine.id,
        "title": engine.title,
        "min_seats": engine.min_seats,
        "max_seats": engine.max_seats,
    }


def _view(
    conn: psycopg.Connection, night: Night, principal: Principal | None, today: dt.date | None
) -> dict[str, Any]:
    names_of = games.player_names(conn, [*night.answers, *night.present])
    outcomes = tournament_log.outcomes(conn, [t.game for t in night.tables])
    answers = [
        {"player": p, "name": names_of.get(p), "answer": a.answer, "games": list(a.games)}
        for p, a in night.answers.items()
    ]
    mine = str(principal.player_id) if principal is not None and principal.is_member else None
    return {
        **_summary(night, today),
        "answers": answers,
        "my_answer": next((a for a in answers if a["player"] == mine), None),
        "present": [{"player": p, "name": names_of.get(p)} for p in night.present],
        "tables": [
            {
                "table": t.number,
                **_game(t.engine),
                "game": t.game,
                "game_status": running.game_status(outcomes, t.game),
                "players": [{"player": p, "name": names_of.get(p)} for p in t.players],
            }
            for t in night.tables
        ],
    }
