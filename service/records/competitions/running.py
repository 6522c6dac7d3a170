"""Running a club's tournaments: every door (the API, the web pages) calls these.

Each write locks the tournament's row, folds its stream, adds what the
tables' games say (``tournament_log.outcomes``), judges the request
(``tournaments.decide_*``) and appends its event in one transaction; a table's
game is created, or its result logged, in that same transaction, so a table
never has a game the tournament does not know. The answer is the tournament
the new events make, evolved from the folded one: the same a replay of the
stream gives (the tests hold them equal).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any
from uuid import UUID

import psycopg

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.club import names
from service.records.competitions import seating, tournament_log, tournaments
from service.records.competitions.tournaments import Outcomes, Tournament
from service.records.errors import Conflict, Invalid
from service.records.log import notify
from service.records.log.context import Records
from service.records.recording import commands, creation, games, results

#: A write's judgement: the events (type, data) it appends, and what it needs
#: done once they are committed (a created game's listeners told).
Decision = tuple[list[tuple[str, dict[str, Any]]], Callable[[], None] | None]


def seat_range(engine_id: str) -> tuple[int, int]:
    engine = registry.get(engine_id)
    return engine.min_seats, engine.max_seats


def create_tournament(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    spec: Mapping[str, Any],
    request_id: str | None,
) -> dict[str, Any]:
    """A new tournament of the club (its organiser): a name, a game, the league
    its games count in (or none), its rounds and its final table (or none)."""
    principal = access.tournament_organiser(principal, club_id)
    engine = registry.get(commands.known_engine(spec["engine"]))
    rounds, final = spec["rounds"], spec.get("final_table")
    if not 1 <= rounds <= tournaments.MOST_ROUNDS:
        raise Invalid("tournament-rounds", f"A tournament plays 1 to {tournaments.MOST_ROUNDS} rounds.")
    if final is not None and not engine.min_seats <= final <= engine.max_seats:
        raise Invalid(
            "final-table-size",
            f"A final table of {engine.title} seats {engine.min_seats} to {engine.max_seats} players.",
        )
    data = {
        "name": names.name(spec["name"]),
        "engine": engine.id,
        "league": str(spec["league"]) if spec.get("league") else None,
        "rounds": rounds,
        "final_table": final,
    }
    tournament_id = uuid.uuid4()
    with records.pool.connection() as conn, conn.transaction():
        if data["league"]:
            creation.Opening(conn, club_id).check_league(UUID(data["league"]), engine.id)
        tournament_log.insert(conn, tournament_id, club_id)
        created = [(tournaments.TOURNAMENT_CREATED, data)]
        tournament_log.append(conn, tournament_id, club_id, 0, created, _metadata(principal, request_id))
        t = tournaments.fold(str(tournament_id), created, seat_range(engine.id))
        return _view(conn, t, {})


def club_tournaments(records: Records, club_id: UUID, principal: Principal | None) -> list[dict[str, Any]]:
    """The club's tournaments, newest first, each as its summary."""
    access.may_see_tournament(principal, club_id)
    with records.pool.connection() as conn:
        found = []
        for tournament_id in tournament_log.of_club(conn, club_id):
            t, outcomes = _load(conn, tournament_id)
            found.append(_summary(t, outcomes))
        return found


def get_tournament(records: Records, tournament_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """A tournament: its players, every round's tables with their results, and the standings."""
    with records.pool.connection() as conn:
        access.may_see_tournament(principal, tournament_log.club_of(conn, tournament_id))
        t, outcomes = _load(conn, tournament_id)
        return _view(conn, t, outcomes)


def enter_players(
    records: Records,
    tournament_id: UUID,
    principal: Principal | None,
    players: Sequence[str],
    request_id: str | None,
) -> dict[str, Any]:
    """Players of the club join (or rejoin), in the order given: seated from the next round."""

    def decide(conn: psycopg.Connection, t: Tournament, outcomes: Outcomes, club_id: UUID) -> Decision:
        wanted = [str(p) for p in players]
        if not wanted:
            raise Invalid("no-players", "Choose the players to enter.")
        tournament_log.check_players(conn, club_id, wanted)
        events = []
        for player in wanted:
            events.append((tournaments.PLAYER_ENTERED, tournaments.decide_entry(t, player)))
            t = tournaments.evolve(t, *events[-1])
        if len(t.present) > seating.MOST_PLAYERS:
            raise Invalid("too-many-players", f"A tournament seats at most {seating.MOST_PLAYERS} players.")
        return events, None

    return _write(records, tournament_id, principal, request_id, decide)


def withdraw_player(
    records: Records, tournament_id: UUID, principal: Principal | None, player: str, request_id: str | None
) -> dict[str, Any]:
    """A player leaves: seated in no later round (their games so far still count)."""

    def decide(conn: psycopg.Connection, t: Tournament, outcomes: Outcomes, club_id: UUID) -> Decision:
        return [(tournaments.PLAYER_WITHDRAWN, tournaments.decide_withdrawal(t, str(player)))], None

    return _write(records, tournament_id, principal, request_id, decide)


def seat_round(
    records: Records, tournament_id: UUID, principal: Principal | None, request_id: str | None
) -> dict[str, Any]:
    """Seat the next round (or the final table once the rounds are played): the
    tables are computed here, from the log, and stored as they are."""

    def decide(conn: psycopg.Connection, t: Tournament, outcomes: Outcomes, club_id: UUID) -> Decision:
        seeds = list(t.present)
        if not t.played and t.league:
            rating = tournament_log.ratings(conn, t.league, seeds)
            # Rated players by rating, best first; the unrated after them, as entered.
            seeds.sort(key=lambda p: (p not in rating, -rating.get(p, 0.0)))
        return [(tournaments.ROUND_SEATED, tournaments.decide_seating(t, outcomes, seeds))], None

    return _write(records, tournament_id, principal, request_id, decide)


def swap_players(
    records: Records,
    tournament_id: UUID,
    principal: Principal | None,
    players: Sequence[str],
    request_id: str | None,
) -> dict[str, Any]:
    """Two players of the round being played change places, before their tables' games start."""

    def decide(conn: psycopg.Connection, t: Tournament, outcomes: Outcomes, club_id: UUID) -> Decision:
        a, b = (str(p) for p in players)
        return [(tournaments.PLAYERS_SWAPPED, tournaments.decide_swap(t, outcomes, a, b))], None

    return _write(records, tournament_id, principal, request_id, decide)


def start_table_game(
    records: Records,
    tournament_id: UUID,
    principal: Principal | None,
    table: int,
    options: Mapping[str, Any],
    request_id: str | None,
) -> dict[str, Any]:
    """A table's game, created for its players in their seats (the table's
    order) and in the tournament's league, to be recorded on the scorepad."""

    def decide(conn: psycopg.Connection, t: Tournament, outcomes: Outcomes, club_id: UUID) -> Decision:
        seated = tournaments.decide_table_game(t, outcomes, table)
        spec = {"engine": t.engine, "seats": list(seated.players), "league": t.league, "dealer": "table"}
        game, _tokens = creation.open_game(conn, club_id, spec, commands.options(t.engine, dict(options)))
        work = creation.set_up(conn, game, principal, request_id)
        work.commit(work.finish_if_over(), records.snapshot_every)
        started = {"round": t.current.number, "table": seated.number, "game": str(game.id)}
        return [(tournaments.TABLE_GAME_STARTED, started)], lambda: work.committed(records)

    return _write(records, tournament_id, principal, request_id, decide)


def log_table_result(
    records: Records,
    tournament_id: UUID,
    principal: Principal | None,
    table: int,
    finished: Sequence[Mapping[str, Any]],
    played_on: dt.date | None,
    request_id: str | None,
) -> dict[str, Any]:
    """A table's game logged by its result: each of its players' place and/or
    score (``finished``: ``player``, ``place``, ``score``), judged by the
    game's own outcome rule as any logged result is."""

    def decide(conn: psycopg.Connection, t: Tournament, outcomes: Outcomes, club_id: UUID) -> Decision:
        seated = tournaments.decide_table_game(t, outcomes, table)
        by_player = {str(f["player"]): f for f in finished}
        if set(by_player) != set(seated.players) or len(finished) != len(seated.players):
            raise Invalid(
                "table-players", f"Give a result for each player of table {seated.number}, and no one else."
            )
        rows = [by_player[p] for p in seated.players]
        play = results.Play(
            engine=t.engine,
            players=list(seated.players),
            places=[r.get("place") for r in rows] if any(r.get("place") is not None for r in rows) else None,
            scores=[r.get("score") for r in rows] if any(r.get("score") is not None for r in rows) else None,
            played_on=played_on or dt.date.today(),
            league=UUID(t.league) if t.league else None,
        )
        (judged,) = results.judge_plays(conn, club_id, [play])
        last = results.store_plays(conn, principal, [judged], request_id)
        started = {"round": t.current.number, "table": seated.number, "game": str(judged.game.id)}
        return [(tournaments.TABLE_GAME_STARTED, started)], lambda: notify.publish(records.listeners, last)

    return _write(records, tournament_id, principal, request_id, decide)


# -- the shared steps -------------------------------------------------------------------


def _write(
    records: Records,
    tournament_id: UUID,
    principal: Principal | None,
    request_id: str | None,
    decide: Callable[[psycopg.Connection, Tournament, Outcomes, UUID], Decision],
) -> dict[str, Any]:
    with records.pool.connection() as conn:
        with conn.transaction():
            row = tournament_log.lock(conn, tournament_id)
            principal = access.tournament_organiser(principal, row["club_id"])
            t, outcomes = _load(conn, tournament_id)
            if t.version >= tournament_log.MOST_EVENTS:
                raise Conflict("tournament-full", "This tournament has recorded all it may.")
            events, after_commit = decide(conn, t, outcomes, row["club_id"])
            tournament_log.append(
                conn, tournament_id, row["club_id"], t.version, events, _metadata(principal, request_id)
            )
            for event_type, data in events:
                t = tournaments.evolve(t, event_type, data)
        if after_commit is not None:
            after_commit()
        return _view(conn, t, tournament_log.outcomes(conn, _games(t)))


def _load(conn: psycopg.Connection, tournament_id: UUID) -> tuple[Tournament, Outcomes]:
    events = tournament_log.read(conn, tournament_id)
    t = tournaments.fold(str(tournament_id), events, seat_range(events[0][1]["engine"]))
    return t, tournament_log.outcomes(conn, _games(t))


def _games(t: Tournament) -> list[str]:
    return [game for r in t.played for table in r.tables for game in table.games]


def _metadata(principal: Principal, request_id: str | None) -> dict[str, Any]:
    return {"actor": principal.label(), "request_id": request_id}


# -- what readers see ----------------------------------------------------------------------


def status(t: Tournament, outcomes: Outcomes) -> str:
    """``entering`` (no round yet), ``playing`` (a round is open), ``between-rounds`` or ``finished``."""
    if tournaments.finished(t, outcomes):
        return "finished"
    if t.current is None:
        return "entering"
    return "between-rounds" if tournaments.round_closed(t.current, outcomes) else "playing"


def _summary(t: Tournament, outcomes: Outcomes) -> dict[str, Any]:
    return {
        "id": t.id,
        "name": t.name,
        "engine": t.engine,
        "league": t.league,
        "rounds": t.rounds,
        "final_table": t.final_table,
        "status": status(t, outcomes),
        "rounds_seated": t.rounds_seated,
        "version": t.version,
    }


def _view(conn: psycopg.Connection, t: Tournament, outcomes: Outcomes) -> dict[str, Any]:
    names_of = games.player_names(conn, t.entered)
    points = {
        game: tournaments.tournament_points.table_points(places)
        for game, places in outcomes.items()
        if isinstance(places, Mapping)
    }

    def seat(player: str, game: str | None) -> dict[str, Any]:
        ended = outcomes.get(game) if game else None
        ended = ended if isinstance(ended, Mapping) else None
        return {
            "player": player,
            "name": names_of.get(player),
            "place": ended[player] if ended else None,
            "points": float(points[game][player]) if ended else None,
        }

    rounds = [
        {
            "round": r.number,
            "final": r.final,
            "closed": tournaments.round_closed(r, outcomes),
            "tables": [
                {
                    "table": x.number,
                    "game": x.game,
                    "game_status": game_status(outcomes, x.game),
                    "players": [seat(p, x.game) for p in x.players],
                }
                for x in r.tables
            ],
            "sitting_out": [{"player": p, "name": names_of.get(p)} for p in r.sitting_out],
        }
        for r in t.played
    ]
    standings = [
        {
            "rank": s.rank,
            "player": s.player,
            "name": names_of.get(s.player),
            "points": float(s.points),
            "points_exact": _exact(s.points),
            "opponents_points": float(s.opponents_points),
            "opponents_points_exact": _exact(s.opponents_points),
            "games": s.games,
            "present": s.player not in t.withdrawn,
        }
        for s in tournaments.standings(t, outcomes)
    ]
    finished = tournaments.finished(t, outcomes)
    return {
        **_summary(t, outcomes),
        "players": [
            {"player": p, "name": names_of.get(p), "present": p not in t.withdrawn} for p in t.entered
        ],
        "played": rounds,
        "standings": standings,
        "ranking": (
            [{"player": p, "name": names_of.get(p)} for p in tournaments.final_ranking(t, outcomes)]
            if finished
            else None
        ),
    }


def game_status(outcomes: Outcomes, game: str | None) -> str:
    """``none`` (not started), ``playing``, ``ended`` or ``abandoned``."""
    if game is None:
        return "none"
    state = outcomes.get(game)
    if state == tournaments.ABANDONED:
        return "abandoned"
    return "ended" if isinstance(state, Mapping) else "playing"


def _exact(value: Fraction) -> str:
    """A fraction as written: ``3/2``, ``2``."""
    return str(value)
