"""Result-only games: a play recorded by its result alone.

A club that does not enter every action records who played, the date, and
each player's final score and/or place. The game is stored like any other,
as events in the same log and in one transaction: ``GameCreated`` (marked
``result_only``), ``ResultRecorded`` (the result as given, with the date,
length and note) and ``GameEnded`` (the places and scores the standings,
ratings and statistics read, exactly as a played game's). Before anything is
stored the result is judged by the engine's own outcome rule
(``engines/<game>/outcome.py``): a refused result stores nothing and names
the rule. A result-only game has no actions and so no replay; retracting its
result takes the result back (``ActionsRetracted``) and withdraws the game
(``GameAbandoned``): it then counts nowhere, and the log keeps all of it.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import psycopg

from engines import registry
from engines.base import Engine, GameConfig, RuleViolation
from engines.kit.outcome import OutcomeRule, Result
from service.records import access
from service.records.access import Principal
from service.records.errors import Conflict, Invalid, NotFound
from service.records.log import fold, notify, store
from service.records.log.context import Records
from service.records.log.store import GameAppend, NewEvent
from service.records.recording import commands, creation, games
from service.records.recording.games import Game
from service.records.recording.unit_of_work import metadata

#: The largest score, either side of zero, a result may give (any door: the
#: API, the web form, a history import, a restore). Far above any game's
#: score, and exact in the standings' sums.
SCORE_LIMIT = 1_000_000_000
#: The longest game, in minutes, a result may give (about a week).
MINUTES_LIMIT = 10_000


@dataclass(frozen=True)
class Play:
    """One result to record: the game, its players (ids, in seat order) and how each finished."""

    engine: str
    players: Sequence[str]
    scores: Sequence[Any] | None = None
    places: Sequence[Any] | None = None
    played_on: dt.date = field(default_factory=dt.date.today)
    minutes: int | None = None
    note: str | None = None
    league: UUID | None = None
    ended_by: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    import_key: str | None = None


@dataclass(frozen=True)
class Judged:
    """A play its engine accepted, ready to store."""

    play: Play
    game: Game
    result: Result


def record_result(
    records: Records, club_id: UUID, principal: Principal | None, play: Play, request_id: str | None
) -> dict[str, Any]:
    """Record one result-only game (the club's admin token); returns it as ``result_view`` shows it."""
    principal = access.club_admin(principal, club_id, app_scope="results")
    with records.pool.connection() as conn:
        with conn.transaction():
            creation.seats_unmerged(conn, club_id, [str(p) for p in play.players])
            (judged,) = judge_plays(conn, club_id, [play])
            last = store_plays(conn, principal, [judged], request_id)
        notify.publish(records.listeners, last)
        return result_view(conn, judged.game.id)


def judge_plays(conn: psycopg.Connection, club_id: UUID, plays: Sequence[Play]) -> list[Judged]:
    """Each play checked (its players, league and options, then its result by
    the engine's outcome rule); the first refused raises and nothing is kept."""
    names = games.player_names(conn, {p for play in plays for p in play.players}, club_id)
    judging = Judging(creation.Opening(conn, club_id), names)
    return [judging.judge(play) for play in plays]


class Judging:
    """The checks of many plays of one club: what every play of an engine
    shares (its outcome rule, options, opening state) is worked out once."""

    def __init__(self, opening: creation.Opening, names: dict[str, str]):
        self.opening, self.names = opening, names
        self._options: dict[tuple[str, str], dict[str, Any]] = {}
        self._states: dict[tuple[str, int, str], Any] = {}

    def judge(self, play: Play) -> Judged:
        """One play checked; raises ``Invalid`` naming the rule it breaks."""
        engine, rule = _recorded_by_result(play.engine)
        _check_numbers(play)
        key = json.dumps(play.options, sort_keys=True)
        if (engine.id, key) not in self._options:
            self._options[(engine.id, key)] = commands.options(engine.id, play.options)
        options = self._options[(engine.id, key)]
        config = GameConfig(seats=len(play.players), options=options, dealer="table")
        try:
            result = rule.judge(
                engine,
                config,
                play.scores,
                play.places,
                play.ended_by,
                self._opening_state(engine, config, key),
            )
        except RuleViolation as violation:
            raise Invalid(
                violation.code, violation.message, rule=violation.code, **violation.details
            ) from violation
        spec = {
            "engine": engine.id,
            "seats": [str(p) for p in play.players],
            "league": play.league,
            "dealer": "table",
        }
        return Judged(play, self.opening.game(spec, options, self.names, seed=""), result)

    def _opening_state(self, engine: Engine, config: GameConfig, options_key: str) -> Callable[[], Any]:
        def state() -> Any:
            key = (engine.id, config.seats, options_key)
            if key not in self._states:
                self._states[key] = engine.initial_state(config)
            return self._states[key]

        return state


def _check_numbers(play: Play) -> None:
    """A result's scores and length are within the service's bounds (a score
    is finite and at most ``SCORE_LIMIT`` either side of zero; a length a
    whole number of minutes up to ``MINUTES_LIMIT``), before the engine's
    rule judges the rest."""
    for score in play.scores or ():
        number = isinstance(score, (int, float)) and not isinstance(score, bool)
        if number and ((isinstance(score, float) and not math.isfinite(score)) or abs(score) > SCORE_LIMIT):
            raise Invalid(
                "result-score-out-of-range", f"A score is a number from -{SCORE_LIMIT:,} to {SCORE_LIMIT:,}."
            )
    minutes = play.minutes
    if minutes is not None and (
        isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= MINUTES_LIMIT
    ):
        raise Invalid(
            "result-minutes", f"A game lasts a whole number of minutes, from 0 to {MINUTES_LIMIT:,}."
        )


@functools.cache
def _recorded_by_result(engine_id: str) -> tuple[Engine, OutcomeRule]:
    engine = registry.get(commands.known_engine(engine_id))
    rule = registry.game(engine.id).outcome
    if rule is None:
        raise Invalid("result-only-not-recorded", f"{engine.title} is recorded by its actions only.")
    return engine, rule


def store_plays(
    conn: psycopg.Connection,
    principal: Principal,
    judged: Sequence[Judged],
    request_id: str | None,
    retracted: Collection[UUID] = (),
) -> int:
    """Insert the games and append their events, in the caller's transaction
    (COPY, ``store.COPY_ROWS`` rows a statement: one import of thousands of
    plays is a few statements per table). The games of ``retracted`` have their result taken back as
    they are stored (a restored backup's retracted results). Returns the last
    position appended."""
    if not judged:
        return 0
    creation.copy_games(conn, [j.game for j in judged])  # a result has no seats to act from: no tokens
    last = store.append_games(
        conn,
        [
            GameAppend(j.game.club_id, j.game.id, 0, result_events(j, principal, request_id), "finished")
            if j.game.id not in retracted
            else GameAppend(
                j.game.club_id,
                j.game.id,
                0,
                [*result_events(j, principal, request_id), *retraction(j.game, principal, request_id, None)],
                "abandoned",
            )
            for j in judged
        ],
    )
    for start in range(0, len(judged), store.COPY_ROWS):
        with (
            conn.cursor() as cursor,
            cursor.copy(
                "COPY result_games (game_id, club_id, played_on, minutes, note, import_key) FROM STDIN"
            ) as copy,
        ):
            for j in judged[start : start + store.COPY_ROWS]:
                p = j.play
                copy.write_row((j.game.id, j.game.club_id, p.played_on, p.minutes, p.note, p.import_key))
    return last


def result_events(judged: Judged, principal: Principal, request_id: str | None) -> list[NewEvent]:
    """The three events of a result-only game."""
    game, result, play = judged.game, judged.result, judged.play
    meta = metadata(principal, request_id, game, setup=True, result_only=True)
    created = {
        "engine": game.engine_id,
        "engine_version": game.engine.version,
        "club": str(game.club_id),
        "league": str(game.league_id) if game.league_id else None,
        "seats": game.seats,
        "options": game.options,
        "dealer": game.dealer,
        "public": game.public,
        "admin_spectator": False,
        "catalog": game.catalog_ref,
        "result_only": True,
    }
    scores = list(result.scores) if result.scores is not None else None
    recorded = {
        "played_on": play.played_on.isoformat(),
        "minutes": play.minutes,
        "note": play.note,
        "places": list(result.places),
        "scores": scores,
        "ended_by": result.ended_by,
    }
    ended = {"places": list(result.places), "scores": scores, "ended_by": result.ended_by, "seed": None}
    return [
        NewEvent(fold.GAME_CREATED, created, meta),
        NewEvent(fold.RESULT_RECORDED, recorded, meta),
        NewEvent(fold.GAME_ENDED, ended, meta),
    ]


def retract_result(
    records: Records, game_id: UUID, principal: Principal | None, reason: str | None, request_id: str | None
) -> dict[str, Any]:
    """Take a result-only game's result back (its recorder): it then counts in
    no standings, ratings or statistics; the log keeps the result and its retraction."""
    with records.pool.connection() as conn:
        with conn.transaction():
            game = games.get_game(conn, game_id, lock=True)
            principal = access.recorder_of(game, principal, app_scope="results")
            if not is_result_only(conn, game_id):
                raise Invalid("not-result-only", "Only a result-only game's result is retracted this way.")
            if game.status != "finished":
                raise Conflict("result-already-retracted", "This result has been retracted already.")
            events = retraction(game, principal, request_id, reason)
            appended = store.append(conn, game.club_id, game.id, game.version, events, "abandoned")
            last = appended[-1].position
        notify.publish(records.listeners, last)
        return result_view(conn, game_id)


def retraction(
    game: Game, principal: Principal, request_id: str | None, reason: str | None
) -> list[NewEvent]:
    """The two events that take a result-only game's result back."""
    meta = metadata(principal, request_id, game)
    return [
        NewEvent(fold.ACTIONS_RETRACTED, {"to_version": 1, "reason": reason}, meta),
        NewEvent(fold.GAME_ABANDONED, {"reason": reason, "seed": None}, meta),
    ]


def is_result_only(conn: psycopg.Connection, game_id: UUID) -> bool:
    return conn.execute("SELECT 1 FROM result_games WHERE game_id = %s", (game_id,)).fetchone() is not None


RESULT_FIELDS = (
    "r.game_id, r.club_id, r.played_on, r.minutes, r.note, g.engine, g.league_id, g.seats, g.options,"
    " g.status, g.version"
)


def result_view(conn: psycopg.Connection, game_id: UUID) -> dict[str, Any]:
    """A result-only game as its readers see it."""
    row = conn.execute(
        f"SELECT {RESULT_FIELDS} FROM result_games r JOIN games g ON g.id = r.game_id WHERE r.game_id = %s",
        (game_id,),
    ).fetchone()
    if row is None:
        raise NotFound("result")
    return _views(conn, [row])[0]


def get_result(records: Records, game_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """A result-only game, for its club's tokens."""
    with records.pool.connection() as conn:
        game = games.get_game(conn, game_id)
        access.recorder_of(game, principal, app_scope="read")
        return result_view(conn, game_id)


def club_results(
    records: Records, club_id: UUID, principal: Principal | None, limit: int = 100, after: UUID | None = None
) -> dict[str, Any]:
    """A page of the club's result-only games, most recently played first
    (admin token), from the one after the game ``after`` on, and the game to
    page on from (``next_after``; None on the last page)."""
    access.club_admin(principal, club_id, app_scope="read")
    with records.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT {RESULT_FIELDS} FROM result_games r JOIN games g ON g.id = r.game_id"
            " WHERE r.club_id = %(club)s AND (%(after)s::uuid IS NULL OR (r.played_on, r.created_at, r.game_id)"
            " < (SELECT played_on, created_at, game_id FROM result_games"
            " WHERE club_id = %(club)s AND game_id = %(after)s))"
            " ORDER BY r.played_on DESC, r.created_at DESC, r.game_id DESC LIMIT %(limit)s",
            {"club": club_id, "after": after, "limit": limit + 1},
        ).fetchall()
        more = len(rows) > limit
        return {
            "results": _views(conn, rows[:limit]),
            "next_after": rows[limit - 1]["game_id"] if more else None,
        }


def _views(conn: psycopg.Connection, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of ``result_games`` with their recorded result (the last ``ResultRecorded``) and names."""
    ids = [r["game_id"] for r in rows]
    recorded = {
        r["game_id"]: r["data"]
        for r in conn.execute(
            "SELECT DISTINCT ON (game_id) game_id, data FROM events WHERE game_id = ANY(%s) AND type = %s"
            " ORDER BY game_id, version DESC",
            (ids, fold.RESULT_RECORDED),
        )
    }
    names = games.player_names(conn, {s for r in rows for s in r["seats"]})
    views = []
    for r in rows:
        data = recorded.get(r["game_id"], {})
        scores = data.get("scores")
        views.append(
            {
                "id": r["game_id"],
                "engine": r["engine"],
                "options": r["options"],
                "league": r["league_id"],
                "result_only": True,
                "status": "retracted" if r["status"] == "abandoned" else "recorded",
                "played_on": r["played_on"],
                "minutes": r["minutes"],
                "note": r["note"],
                "ended_by": data.get("ended_by"),
                "players": [
                    {
                        "player": p,
                        "name": names.get(p),
                        "score": scores[i] if scores is not None else None,
                        "place": data["places"][i] if data else None,
                    }
                    for i, p in enumerate(str(s) for s in r["seats"])
                ],
            }
        )
    return views


def play_from(body: dict[str, Any]) -> Play:
    """A ``Play`` from a request body (``schemas.results.ResultCreate``): every
    player's score and place, or nobody's."""
    players = body["players"]
    scores = [p["score"] for p in players]
    places = [p["place"] for p in players]
    for given, what in ((scores, "score"), (places, "place")):
        if any(v is None for v in given) and any(v is not None for v in given):
            raise Invalid("result-one-per-player", f"Give every player's {what}, or nobody's.")
    return Play(
        engine=body["engine"],
        players=[str(p["player"]) for p in players],
        scores=None if scores[0] is None else scores,
        places=None if places[0] is None else places,
        played_on=body.get("played_on") or dt.date.today(),
        minutes=body.get("minutes"),
        note=body.get("note"),
        league=body.get("league"),
        ended_by=body.get("ended_by"),
        options=body.get("options") or {},
    )


def refuse_replay(conn: psycopg.Connection, game_id: UUID) -> None:
    """A result-only game has no actions to replay."""
    if is_result_only(conn, game_id):
        raise Invalid(
            "result-only-no-replay", "This game was recorded by its result alone: it has no replay."
        )


def log_result_form(
    records: Records, club_id: UUID, principal: Principal | None, engine_id: str | None
) -> dict[str, Any]:
    """What the "Log a result" page offers: the games recorded by result, and
    for the chosen one the club's players, its leagues and the club's latest results."""
    access.club_admin(principal, club_id)
    engines = [
        {
            "id": e,
            "title": registry.get(e).title,
            "min_seats": registry.get(e).min_seats,
            "max_seats": registry.get(e).max_seats,
        }
        for e in registry.available()
        if registry.game(e).outcome is not None
    ]
    form: dict[str, Any] = {"club": club_id, "engines": engines, "engine": None, "today": dt.date.today()}
    with records.pool.connection() as conn:
        if engine_id is not None:
            chosen = [e for e in engines if e["id"] == engine_id]
            if not chosen:
                raise NotFound("game", "This game is not recorded by its result.")
            form["engine"] = chosen[0]
            form["players"] = conn.execute(
                "SELECT id, name FROM players WHERE club_id = %s ORDER BY name", (club_id,)
            ).fetchall()
            form["leagues"] = conn.execute(
                "SELECT id, name, season FROM leagues WHERE club_id = %s AND (engine IS NULL OR engine = %s)"
                " ORDER BY created_at",
                (club_id, engine_id),
            ).fetchall()
        rows = conn.execute(
            f"SELECT {RESULT_FIELDS} FROM result_games r JOIN games g ON g.id = r.game_id"
            " WHERE r.club_id = %s ORDER BY r.created_at DESC LIMIT 5",
            (club_id,),
        ).fetchall()
        form["recent"] = [
            {**view, "title": registry.get(view["engine"]).title} for view in _views(conn, rows)
        ]
    return form


def recorded_outcome(conn: psycopg.Connection, game: Game) -> dict[str, Any] | None:
    """A result-only game's outcome as recorded (None: not a result-only game);
    its engine state, which no action ever moved, does not hold it."""
    if not is_result_only(conn, game.id):
        return None
    ended = conn.execute(
        "SELECT data FROM events WHERE game_id = %s AND type = %s ORDER BY version DESC LIMIT 1",
        (game.id, fold.GAME_ENDED),
    ).fetchone()
    if game.status != "finished" or ended is None:
        return {"finished": False, "places": [], "scores": [], "ended_by": ""}
    data = ended["data"]
    return {
        "finished": True,
        "places": data["places"],
        "scores": data.get("scores") or [],
        "ended_by": data.get("ended_by") or "",
    }
