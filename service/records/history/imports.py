"""Importing a club's play history: every play becomes a result-only game.

All or nothing: the file is read (``formats``), each play's game is
matched to an engine (its name compared case-insensitively with the engines'
ids and titles, after the caller's own mapping), its players matched by name
(case-insensitively) and added when new, and its result judged by the
engine's outcome rule. If any play is refused the import stores nothing and
names every refused line or play with its reason. A play of a game the
service does not record refuses the import, unless the caller asks for such
plays to be skipped (they are then reported). A play imported before (its
source's id, or for a CSV its content) is not imported again, so an import
can be repeated safely. The plays are stored in the order they were played,
in one transaction (``results.store_plays``), so that ratings follow them.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

import psycopg

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.club import merges, names
from service.records.errors import Conflict, Invalid
from service.records.history.formats import Reading, SourcePlay, TooLarge, Unreadable, read
from service.records.log import notify
from service.records.log.context import Records
from service.records.recording import creation, results

#: Plays between two calls of an import's ``progress``.
PROGRESS_EVERY = 100

Progress = Callable[[int, int], None]  # (plays judged, plays in all)


def import_history(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    fmt: str,
    content: bytes,
    *,
    mapping: Mapping[str, str] | None = None,
    skip_unknown_games: bool = False,
    league: UUID | None = None,
    request_id: str | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Import the plays in ``content`` (``fmt``: bgstats, bgg or csv) into the
    club as result-only games, in ``league`` when given (admin token)."""
    principal = access.club_admin(principal, club_id, app_scope="results")
    reading = _read(fmt, content)
    with records.pool.connection() as conn:
        # Reads and judging run outside any transaction: judging thousands of
        # plays takes longer than a transaction may stay idle. The writes are
        # one transaction; the unique import keys keep a concurrent import of
        # the same plays from storing them twice.
        conn.commit()
        conn.autocommit = True
        try:
            plan = _plan(conn, club_id, reading, mapping or {}, skip_unknown_games, league, progress)
            _refuse(plan)
            with conn.transaction():
                creation.seats_unmerged(
                    conn, club_id, sorted({s for j in plan["judged"] for s in j.game.seats})
                )
                _add_players(conn, club_id, plan["players_added"])
                last = results.store_plays(conn, principal, plan["judged"], request_id)
        finally:
            conn.autocommit = False
        notify.publish(records.listeners, last)
    report = {
        "imported": len(plan["judged"]),
        "already_imported": plan["already_imported"],
        "skipped": plan["skipped"],
        "players_added": sorted(plan["players_added"]),
    }
    # Said by the report itself, for the streamed answer, whose headers are sent before the import ends.
    return {**report, "log_position": last} if last else report


def preview_history(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    fmt: str,
    content: bytes,
    *,
    mapping: Mapping[str, str] | None = None,
    skip_unknown_games: bool = False,
    league: UUID | None = None,
) -> dict[str, Any]:
    """What ``import_history`` would do with the same file, storing nothing:
    the plays it would import by game (``games``: engine id -> plays), the
    players it matches (``players_matched``) and adds (``players_added``),
    the plays imported before, skipped and refused (each with its reason),
    and each game name of the file with the game it was matched to
    (``game_names``: name -> engine id, None for a game not recorded here)."""
    access.club_admin(principal, club_id, app_scope="results")
    reading = _read(fmt, content)
    with records.pool.connection() as conn:
        plan = _plan(conn, club_id, reading, mapping or {}, skip_unknown_games, league, None)
    matched = sorted({p for p in plan["players_named"] if p not in plan["players_added"]}, key=str.casefold)
    return {
        "plays": len(plan["judged"]),
        "games": dict(Counter(j.play.engine for j in plan["judged"])),
        "players_matched": matched,
        "players_added": sorted(plan["players_added"], key=str.casefold),
        "already_imported": plan["already_imported"],
        "skipped": plan["skipped"],
        "refused": plan["refused"],
        "game_names": plan["game_names"],
    }


def _read(fmt: str, content: bytes) -> Reading:
    try:
        return read(fmt, content)
    except TooLarge as error:
        raise Invalid("history-too-large", str(error)) from error
    except Unreadable as error:
        raise Invalid("history-unreadable", str(error)) from error


def _refuse(plan: dict[str, Any]) -> None:
    """All or nothing: a plan with a refused play or line imports nothing."""
    refused = plan["refused"]
    if refused:
        raise Invalid(
            "history-refused",
            f"{len(refused)} of the file's plays or lines were refused, so nothing was imported.",
            refused=refused,
        )


def _plan(
    conn: psycopg.Connection,
    club_id: UUID,
    reading: Reading,
    mapping: Mapping[str, str],
    skip_unknown: bool,
    league: UUID | None,
    progress: Progress | None,
) -> dict[str, Any]:
    """The plays to store, judged, with the players to add (name -> new id),
    the players the plays name, and every refused line or play."""
    refused, skipped = list(reading.refused), list(reading.skipped)
    engines = _engine_names(mapping)
    known_games: list[tuple[SourcePlay, str]] = []
    game_names: dict[str, str | None] = {}
    for play in reading.plays:
        engine_id = game_names.setdefault(play.game, engines.get(play.game.casefold()))
        if engine_id is None:
            (skipped if skip_unknown else refused).append(
                {
                    "where": play.where,
                    "reason": f"The service does not record {play.game!r}.",
                    "game": play.game,
                }
            )
        else:
            known_games.append((play, engine_id))
    done = _imported_before(conn, club_id, [p.key for p, _ in known_games])
    fresh = []
    for play, engine_id in known_games:
        if play.key in done:
            continue
        try:
            fresh.append((_names_cleaned(play), engine_id))
        except Invalid as refusal:
            refused.append({"where": play.where, "reason": refusal.detail, "rule": refusal.code})
    players, added = _players(conn, club_id, [s.name for p, _ in fresh for s in p.seats])
    judging = results.Judging(
        creation.Opening(conn, club_id),
        {pid: name for name, pid in players.items() if isinstance(pid, str)},
    )
    judged: list[results.Judged] = []
    for count, (play, engine_id) in enumerate(fresh, start=1):
        try:
            judged.append(_judge(judging, players, play, engine_id, league))
        except Invalid as refusal:
            named = {"candidates": refusal.extra["candidates"]} if "candidates" in refusal.extra else {}
            refused.append({"where": play.where, "reason": refusal.detail, "rule": refusal.code, **named})
        if progress and (count % PROGRESS_EVERY == 0 or count == len(fresh)):
            progress(count, len(fresh))
    judged.sort(key=lambda j: j.play.played_on)  # rated in the order they were played
    return {
        "judged": judged,
        "already_imported": len(known_games) - len(fresh),
        "skipped": skipped,
        "players_added": added,
        "players_named": [name for name, player in players.items() if not isinstance(player, Invalid)],
        "refused": refused,
        "game_names": game_names,
    }


def _judge(
    judging: results.Judging,
    players: dict[str, str],
    play: SourcePlay,
    engine_id: str,
    league: UUID | None,
) -> results.Judged:
    seen: set[str] = set()
    for seat in play.seats:
        if isinstance(players[seat.name], Invalid):
            raise players[seat.name]
        if players[seat.name] in seen:
            raise Invalid("player-named-twice", f"{seat.name} is named twice in this play.")
        seen.add(players[seat.name])
    scores = [s.score for s in play.seats]
    places = [s.place for s in play.seats]
    if any(v is None for v in scores):
        scores = None  # a score missing for anyone: the places (or the winners) decide
    if any(v is None for v in places):
        places = _places_of_winners(play) if scores is None else None
    base = results.Play(
        engine=engine_id,
        players=[players[s.name] for s in play.seats],
        scores=scores,
        places=places,
        played_on=play.played_on,
        minutes=play.minutes,
        note=play.note,
        league=league,
        options=play.options or {},
        import_key=play.key,
    )
    winners = [s.won for s in play.seats]
    if places is not None or any(w is None for w in winners) or not any(winners):
        return judging.judge(base)
    # Scores and the winners marked, no places: the game's ending whose ranking
    # gives the marked winners (Chancellors' catastrophe: the lowest score).
    last: Invalid | None = None
    for ending in registry.game(engine_id).outcome.endings:
        try:
            judged = judging.judge(dataclasses.replace(base, ended_by=ending.name))
        except Invalid as refusal:
            last = refusal
            continue
        if [p == 1 for p in judged.result.places] == winners:
            return judged
    raise last or Invalid("result-winners-contradict-scores", "The winners marked do not follow the scores.")


def _places_of_winners(play: SourcePlay) -> list[int] | None:
    """Places from the winners marked: they share first, everyone else the next place."""
    winners = [s.won for s in play.seats]
    if any(w is None for w in winners) or not any(winners):
        return None
    first = sum(winners)
    return [1 if w else first + 1 for w in winners]


def _engine_names(mapping: Mapping[str, str]) -> dict[str, str]:
    """Game names (case-folded) to engine ids: each engine's id and title, then the caller's mapping."""
    names: dict[str, str] = {}
    for engine_id in registry.available():
        engine = registry.get(engine_id)
        if registry.game(engine.id).outcome is None:
            continue
        names[engine_id.casefold()] = engine_id
        names[engine.title.casefold()] = engine_id
    for name, engine_id in mapping.items():
        if engine_id not in names.values():
            raise Invalid(
                "history-mapping", f"The mapping names {engine_id!r}, which is not a game recorded here."
            )
        names[name.strip().casefold()] = engine_id
    return names


def _imported_before(conn: psycopg.Connection, club_id: UUID, keys: Sequence[str]) -> set[str]:
    rows = conn.execute(
        "SELECT import_key FROM result_games WHERE club_id = %s AND import_key = ANY(%s)",
        (club_id, list(keys)),
    )
    return {r["import_key"] for r in rows}


def _names_cleaned(play: SourcePlay) -> SourcePlay:
    """The play with its players' names as names are stored (``names.name``)."""
    seats = []
    for seat in play.seats:
        if not seat.name:
            raise Invalid("player-unnamed", "A player of this play has no name.")
        seats.append(dataclasses.replace(seat, name=names.name(seat.name, "player")))
    return dataclasses.replace(play, seats=tuple(seats))


def _players(
    conn: psycopg.Connection, club_id: UUID, wanted: Sequence[str]
) -> tuple[dict[str, str | Invalid], dict[str, str]]:
    """Each wanted name's player (id as text): the club's player it names
    (``names.player_named``), else a new one, one per name case-insensitively;
    a name that could be several of the club's players maps to its refusal;
    a merged-in player's name maps to the player kept (``merges``), who plays
    for them. And the new players (name as first written -> id)."""
    following = merges.mapping(conn, club_id)
    club = [
        (r["name"], str(r["id"]))
        for r in conn.execute("SELECT id, name FROM players WHERE club_id = %s", (club_id,))
    ]
    found: dict[str, str | Invalid] = {}
    new: dict[str, str] = {}
    new_by_folded: dict[str, str] = {}
    for name in wanted:
        if name in found:
            continue
        try:
            player = names.player_named(name, club)
        except names.AmbiguousName as refusal:
            found[name] = refusal
            continue
        if player is None:
            player = new_by_folded.get(name.casefold())
            if player is None:
                player = new_by_folded[name.casefold()] = new[name] = str(uuid.uuid4())
        found[name] = following.get(player, player)
    return found, new


def _add_players(conn: psycopg.Connection, club_id: UUID, new: dict[str, str]) -> None:
    """Add the import's new players (in its transaction: a refused import adds nobody)."""
    if not new:
        return
    added = conn.execute(
        "INSERT INTO players (id, club_id, name) SELECT unnest(%s::uuid[]), %s, unnest(%s::text[])"
        " ON CONFLICT (club_id, name) DO NOTHING RETURNING id",
        (list(new.values()), club_id, list(new)),
    ).fetchall()
    if len(added) != len(new):
        raise Conflict("player-added-meanwhile", "A player of the import was added meanwhile: import again.")
