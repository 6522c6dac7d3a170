"""A whole club as one file, and that file restored into a new club.

The backup is NDJSON: a first line with the club, its players (retired or
not), leagues (closed or not), its own card catalogs and its stream of
merges and un-merges of players (``merges``; ``tablerecord.club/1``),
then one line per game in the order the standings rate them (the order they
first ended; unfinished games last): a played game as its export document
(``interchange.document_of``, with its ``league``), a result-only game as its
recorded result, each with the game's ``id``; then one line per tournament
and per game night, its stream of events (``competitions.carried``).
Restoring replays every played game's commands through its engine and judges
every result again, so the new club's standings, statistics and replays are
those of the old one; its tournaments and nights name the new club's
players, leagues and games, whose ids the restore makes anew, and so do
its merges (appended again, ``player_merges`` folded from them as a merge
folds it).

A live game whose admin only watches (``access.sealed_in_backup``) is in the
backup too, its commands, outcome and seed sealed for the service
(``sealing``): its organiser takes the whole club out and still sees no hand,
and a restore where the seal key is brings the game back to go on as it was.
No token is in a backup: a restored club has a new admin token, its games new
seat tokens, and its members sign in with new sign-ins.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import psycopg
from marshmallow import ValidationError

from schemas.api import LeagueCreate
from schemas.interchange import GameImport
from service.records import access
from service.records.access import Principal
from service.records.club import catalogs, clubs, merges, names
from service.records.competitions import carried
from service.records.errors import DomainError, Invalid
from service.records.history import interchange, sealing
from service.records.log import notify
from service.records.log.context import Records
from service.records.recording import creation, games, results

FORMAT = "tablerecord.club/1"

#: Bytes of one backup restored: a restore is anonymous, so its size bounds its work.
MAX_BYTES = 4 * 1024 * 1024
#: Games, tournaments and game nights (lines after the header) of one backup restored.
MAX_GAMES = 20_000
#: Tournaments and game nights of one backup restored (among its ``MAX_GAMES`` lines).
MAX_COMPETITIONS = 1_000
#: Players, leagues and catalogs of one backup's header.
MAX_PLAYERS, MAX_LEAGUES, MAX_CATALOGS = 5_000, 1_000, 100
#: Lines between two calls of a restore's ``progress``.
PROGRESS_EVERY = 100
#: The header's fields of a league, as ``POST /clubs/{club}/leagues`` takes them.
LEAGUE_FIELDS = ("name", "engine", "season", "points_table", "min_games", "public")

Progress = Callable[[int, int], None]  # (lines read, lines in all)


def backup(records: Records, club_id: UUID, principal: Principal | None) -> Iterator[str]:
    """The club's backup, line by line (admin token)."""
    principal = access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        club = conn.execute("SELECT name FROM clubs WHERE id = %s", (club_id,)).fetchone()
        players = conn.execute(
            "SELECT id, name, created_at, retired_at FROM players WHERE club_id = %s ORDER BY created_at, name",
            (club_id,),
        ).fetchall()
        leagues = conn.execute(
            "SELECT id, name, engine, season, points_table, min_games, public, created_at, closed_at FROM leagues"
            " WHERE club_id = %s ORDER BY created_at",
            (club_id,),
        ).fetchall()
        owned = catalogs.owned(conn, club_id)
        merged = merges.events_of(conn, club_id)
        order = conn.execute(
            "SELECT g.id, g.league_id, r.game_id IS NOT NULL AS result_only,"
            " (SELECT min(position) FROM events e WHERE e.game_id = g.id AND e.type = 'GameEnded') AS ended"
            " FROM games g LEFT JOIN result_games r ON r.game_id = g.id WHERE g.club_id = %s"
            " ORDER BY ended NULLS LAST, g.created_at",
            (club_id,),
        ).fetchall()
    yield _line(
        {
            "format": FORMAT,
            "club": {"name": club["name"]},
            "players": players,
            "leagues": leagues,
            "catalogs": owned,
            "merges": merged,
        }
    )
    for row in order:
        with records.pool.connection() as conn:
            if row["result_only"]:
                yield _line({"result": results.result_view(conn, row["id"]), "id": row["id"]})
                continue
            game = games.get_game(conn, row["id"])
            document = interchange.document_of(conn, game)
        document = {**document, "league": row["league_id"]}
        if access.sealed_in_backup(game, principal):
            document = _sealed(records, game, document)
        yield _line({"game": document, "id": row["id"]})
    with records.pool.connection() as conn:
        competitions = list(carried.lines(conn, club_id))
    for competition in competitions:
        yield _line(competition)


def _sealed(records: Records, game: games.Game, document: dict[str, Any]) -> dict[str, Any]:
    """``document`` sealed for the service (``sealing``), with its seed: a
    restore reads the sealed document alone, so that nobody can alter what
    it restores (make its admin a recorder who sees every hand, say). In the
    clear it keeps only who plays what, for its organiser to read; its
    commands, outcome and seed, which show hands and sealed bids, are empty."""
    hidden = {**document, "seed": game.seed}
    return {
        **document,
        "commands": [],
        "outcome": None,
        "seed": None,
        "sealed": sealing.seal(records.seal_keys, _line(hidden)),
    }


def restore(
    records: Records, content: bytes, request_id: str | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """A new club from a backup; returns it with its admin token (shown once).
    A line that cannot be restored is named in the error.

    All or nothing: every line is read, replayed and judged first, with no
    transaction open (so a long restore holds back no reader of the log),
    then the club, its players, leagues and games are stored in one
    transaction. A refused restore, or one cut short (a crash, ``progress``
    raising), leaves nothing behind."""
    if len(content) > MAX_BYTES:
        raise Invalid("backup-too-large", f"A backup restored is at most {MAX_BYTES // (1024 * 1024)} MiB.")
    lines = content.splitlines()
    if len(lines) > MAX_GAMES + 1:
        raise Invalid(
            "backup-too-large",
            f"A backup restored holds at most {MAX_GAMES} games, tournaments and game nights.",
        )
    header = _read(lines[0], 1) if lines else None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise Invalid("backup-unreadable", f"The first line is not a {FORMAT} header.")
    _check_header(header)
    _check_lines(lines[1:], records.seal_keys)
    club = _Club.of(header)
    with records.pool.connection() as conn:
        conn.commit()
        conn.autocommit = True
        try:
            runs, competitions, played = _replay(conn, records, club, lines, request_id, progress)
        finally:
            conn.autocommit = False
        with conn.transaction():
            made = clubs.insert_club(conn, club.id, club.name)
            clubs.insert_players(conn, club.id, club.names, club.moments)
            clubs.insert_leagues(conn, club.id, club.leagues)
            for catalog in club.catalogs.values():
                catalogs.ensure_stored(conn, catalog, club.id)
            last = 0
            for run in runs:
                last = run(conn) or last
            carried.store(conn, club.id, competitions, club.admin, request_id)
            merges.store_carried(conn, club.id, club.merges, club.admin)
    notify.publish(records.listeners, last)
    return {**made, "games": played}


#: A unit of a restore's storing: a run of played games or of results, stored
#: in the restore's transaction; returns the last position it appended.
_Run = Callable[[psycopg.Connection], int]


@dataclass
class _Club:
    """The club a backup's header makes, not stored yet: its new id, its
    players (new id -> name, and when each was added and retired), leagues
    (new id -> fields) and catalogs ((kind, id, version) -> content), and the
    new ids by the backup's."""

    id: UUID
    name: str
    names: dict[str, str]
    moments: dict[str, tuple[dt.datetime | None, dt.datetime | None]]
    leagues: dict[UUID, dict[str, Any]]
    catalogs: dict[tuple[str, str, int], dict[str, Any]]
    players_by_old: dict[str, str]
    leagues_by_old: dict[str, UUID]
    merges: list[tuple[str, dict[str, str]]]

    @property
    def admin(self) -> Principal:
        return Principal(self.id, "admin")

    @classmethod
    def of(cls, header: dict[str, Any]) -> _Club:
        """The club of a header ``_check_header`` has passed (names by the one rule for names)."""
        players, leagues = header.get("players") or [], header.get("leagues") or []
        owned = header.get("catalogs") or []
        if len(players) > MAX_PLAYERS or len(leagues) > MAX_LEAGUES or len(owned) > MAX_CATALOGS:
            raise Invalid(
                "backup-too-large",
                f"A backup restored has at most {MAX_PLAYERS} players, {MAX_LEAGUES} leagues"
                f" and {MAX_CATALOGS} catalogs.",
            )
        name = names.name(header["club"]["name"], "club")
        named = [(str(p["id"]), names.name(p["name"], "player")) for p in players]
        try:
            specs = [
                (
                    str(league["id"]),
                    {
                        **names.names_in(
                            LeagueCreate().load({k: league[k] for k in LEAGUE_FIELDS if k in league})
                        ),
                        "created_at": _moment(league.get("created_at")),
                        "closed_at": _moment(league.get("closed_at")),
                    },
                )
                for league in leagues
            ]
        except ValidationError as error:
            raise Invalid(
                "backup-refused",
                "Line 1: a league of the header is not valid.",
                line=1,
                errors=error.messages,
            ) from error
        if len({n for _, n in named}) != len(named):
            raise Invalid("backup-refused", "Line 1: two players have the same name.", line=1)
        if len({(s["name"], s["season"]) for _, s in specs}) != len(specs):
            raise Invalid("backup-refused", "Line 1: two leagues have the same name and season.", line=1)
        players_by_old = {old: str(uuid.uuid4()) for old, _ in named}
        leagues_by_old = {old: uuid.uuid4() for old, _ in specs}
        try:
            merged = merges.checked(header.get("merges") or [], players_by_old)
        except Invalid as error:
            raise Invalid("backup-refused", f"Line 1: {error.detail}", line=1) from error
        return cls(
            id=uuid.uuid4(),
            name=name,
            names={players_by_old[old]: n for old, n in named},
            moments={
                players_by_old[str(p["id"])]: (_moment(p.get("created_at")), _moment(p.get("retired_at")))
                for p in players
            },
            leagues={leagues_by_old[old]: spec for old, spec in specs},
            catalogs=_catalogs(owned),
            players_by_old=players_by_old,
            leagues_by_old=leagues_by_old,
            merges=merged,
        )

    def league(self, old: Any) -> UUID | None:
        return self.leagues_by_old.get(str(old)) if old else None


def _moment(value: Any) -> dt.datetime | None:
    """A header's moment (when a player or league was added, retired, closed), checked by ``_check_header``."""
    return dt.datetime.fromisoformat(value) if value else None


def _catalogs(owned: list[Any]) -> dict[tuple[str, str, int], dict[str, Any]]:
    """The header's catalogs, each checked as a catalog registered anew."""
    found = {}
    for content in owned:
        try:
            if not isinstance(content, dict):
                raise Invalid("invalid-catalog", "A catalog is not an object.")
            catalog = catalogs.checked(str(content.get("kind")), content)
        except DomainError as error:
            raise Invalid("backup-refused", f"Line 1: {error.detail}", line=1) from error
        found[catalog["kind"], catalog["id"], int(catalog["version"])] = catalog
    if len(found) != len(owned):
        raise Invalid("backup-refused", "Line 1: two catalogs have the same kind, id and version.", line=1)
    return found


def _replay(
    conn: psycopg.Connection,
    records: Records,
    club: _Club,
    lines: list[bytes],
    request_id: str | None,
    progress: Progress | None,
) -> tuple[list[_Run], list[carried.Carried], int]:
    """Every game line replayed (a played game) or judged (a result), in the
    backup's order (the order the standings rate them), a hundred lines at a
    time, then every tournament and night checked with the new club's ids:
    the runs that store the games, the tournaments and nights, and how many
    games."""
    opening = creation.Opening(
        conn, club.id, {i: spec["engine"] for i, spec in club.leagues.items()}, club.catalogs
    )
    judging = results.Judging(opening, club.names)
    entries = [(number, _entry(raw, number)) for number, raw in enumerate(lines[1:], start=2) if raw.strip()]
    games_of = [(n, e) for n, e in entries if _kind(e) in ("game", "result")]
    competitions_of = [(n, e) for n, e in entries if _kind(e) in carried.KINDS]
    if len(competitions_of) > MAX_COMPETITIONS:
        raise Invalid(
            "backup-too-large",
            f"A backup restored holds at most {MAX_COMPETITIONS} tournaments and game nights.",
        )
    runs: list[_Run] = []
    games_by_old: dict[str, UUID] = {}
    events = 0
    for kind, chunk in _chunks(games_of):
        if kind == "game":
            replayed = _replay_games(conn, records, club, opening, chunk, request_id)
            events += sum(len(w.pending) for w in replayed.works)
            games_by_old.update(_by_old(chunk, [w.game.id for w in replayed.works]))
            runs.append(functools.partial(_store_games, records=records, replayed=replayed))
        else:
            judged = [_judge(judging, club, entry["result"], number) for number, entry in chunk]
            games_by_old.update(_by_old(chunk, [j.game.id for j in judged]))
            retracted = {
                j.game.id
                for j, (_, e) in zip(judged, chunk, strict=True)
                if e["result"].get("status") == "retracted"
            }
            events += RESULT_EVENTS * len(judged)
            runs.append(
                functools.partial(
                    results.store_plays,
                    principal=club.admin,
                    judged=judged,
                    request_id=request_id,
                    retracted=retracted,
                )
            )
        if events > interchange.MAX_EVENTS:
            raise Invalid(
                "backup-too-large", f"A backup restored stores at most {interchange.MAX_EVENTS} events."
            )
        if progress:
            progress(chunk[-1][0] - 1, len(lines) - 1)
    ids = carried.NewIds(club.players_by_old, club.leagues_by_old, games_by_old)
    competitions = []
    for number, entry in competitions_of:
        kind = _kind(entry)
        try:
            competitions.append(carried.restored(kind, entry[kind], ids))
        except Invalid as error:
            raise Invalid("backup-refused", f"Line {number}: {error.detail}", line=number) from error
        events += len(competitions[-1].events)
    if events > interchange.MAX_EVENTS:
        raise Invalid(
            "backup-too-large", f"A backup restored stores at most {interchange.MAX_EVENTS} events."
        )
    if progress and competitions_of:
        progress(len(lines) - 1, len(lines) - 1)
    return runs, competitions, len(games_of)


def _by_old(chunk: list[tuple[int, dict[str, Any]]], new: list[UUID]) -> dict[str, UUID]:
    """The games of ``chunk`` by the ids their lines give (none in a backup made before lines had them)."""
    return {str(entry["id"]): made for (_, entry), made in zip(chunk, new, strict=True) if entry.get("id")}


def _kind(entry: dict[str, Any]) -> str:
    """What a line holds: a game, a result, a tournament or a night."""
    return next(k for k in ("game", "result", *carried.KINDS) if isinstance(entry.get(k), dict))


#: The most events a result-only game stores (its result, then its retraction).
RESULT_EVENTS = 5


def _chunks(
    entries: list[tuple[int, dict[str, Any]]],
) -> Iterator[tuple[str, list[tuple[int, dict[str, Any]]]]]:
    """Consecutive lines of one kind ("game" or "result"), ``PROGRESS_EVERY`` at most at a time."""
    for kind, group in itertools.groupby(entries, key=lambda e: _kind(e[1])):
        lines = list(group)
        for start in range(0, len(lines), PROGRESS_EVERY):
            yield kind, lines[start : start + PROGRESS_EVERY]


def _entry(raw: bytes, number: int) -> dict[str, Any]:
    entry = _read(raw, number)
    kinds = ("game", "result", *carried.KINDS)
    if not isinstance(entry, dict) or not any(isinstance(entry.get(k), dict) for k in kinds):
        raise Invalid(
            "backup-refused",
            f"Line {number} is neither a game nor a result, a tournament or a game night.",
            line=number,
        )
    return entry


def _replay_games(
    conn: psycopg.Connection,
    records: Records,
    club: _Club,
    opening: creation.Opening,
    chunk: list[tuple[int, dict[str, Any]]],
    request_id: str | None,
) -> interchange.Replayed:
    """The played games of ``chunk`` (line number, line) replayed."""
    documents, seeds = [], {}
    for number, entry in chunk:
        document = dict(entry["game"])
        if "sealed" in document:
            try:
                hidden = sealing.unseal(records.seal_keys, document.pop("sealed"))
            except DomainError as error:
                raise Invalid(error.code, f"Line {number}: {error.detail}", line=number) from error
            document = hidden
            if isinstance(hidden.get("seed"), str):
                seeds[len(documents)] = hidden["seed"]
        document["league"] = club.league(document.get("league"))
        document["seats"] = [
            {**s, "player": club.players_by_old.get(str(s.get("player")))} if isinstance(s, dict) else s
            for s in document.get("seats") or []
        ]
        try:
            documents.append(GameImport().load(document))
        except ValidationError as error:
            raise Invalid(
                "backup-refused", f"Line {number} is not a game document.", line=number, errors=error.messages
            ) from error
    try:
        return interchange.replay_for_new_club(
            conn, opening, club.admin, documents, club.names, request_id, seeds
        )
    except DomainError as error:
        number = chunk[error.extra.get("document", 0)][0]
        raise Invalid("backup-refused", f"Line {number}: {error.detail}", line=number) from error


def _check_header(header: dict[str, Any]) -> None:
    """The header's club, players, leagues and catalogs are of the right
    shape, their names pass the rule for names and their moments (added,
    retired, closed) are moments, before anything is stored."""
    try:
        club = header.get("club")
        if not isinstance(club, dict):
            raise Invalid("backup-refused", "It names no club.")
        names.name(club.get("name"), "club")
        for key, what in (("players", "player"), ("leagues", "league")):
            entries = header.get(key) or []
            if not isinstance(entries, list) or not all(isinstance(e, dict) and "id" in e for e in entries):
                raise Invalid("backup-refused", f"Its {key} are not a list of {what}s with their ids.")
            for entry in entries:
                names.name(entry.get("name"), what)
                if key == "leagues":
                    names.season(entry.get("season") or "")
                for stamp in (entry.get("created_at"), entry.get("closed_at"), entry.get("retired_at")):
                    if stamp is not None and not _is_moment(stamp):
                        raise Invalid(
                            "backup-refused", f"A {what}'s moment {stamp!r} is not a moment (ISO 8601)."
                        )
        if not isinstance(header.get("catalogs") or [], list):
            raise Invalid("backup-refused", "Its catalogs are not a list.")
        if not isinstance(header.get("merges") or [], list):
            raise Invalid("backup-refused", "Its merges are not a list.")
    except Invalid as error:
        raise Invalid("backup-refused", f"Line 1: {error.detail}", line=1) from error


def _check_lines(lines: list[bytes], seal_keys: tuple[str, ...]) -> None:
    """Every game or result line is JSON of the right shape (its seats
    objects, its day a day, a sealed game's key one this service holds),
    before anything is stored."""
    for number, raw in enumerate(lines, start=2):
        if not raw.strip():
            continue
        entry = _read(raw, number)
        if isinstance(entry, dict) and any(isinstance(entry.get(k), dict) for k in carried.KINDS):
            continue  # checked with the new club's ids (``carried.restored``), before anything is stored
        game, result = (entry.get("game"), entry.get("result")) if isinstance(entry, dict) else (None, None)
        seats = (game or {}).get("seats") if isinstance(game, dict) else (result or {}).get("players")
        if not isinstance(game, dict) and not isinstance(result, dict):
            problem = "It is neither a game nor a result."
        elif not isinstance(seats or [], list) or not all(isinstance(s, dict) for s in seats or []):
            problem = "Its seats are not a list of objects."
        elif isinstance(result, dict) and not _is_day(result.get("played_on")):
            problem = f"Its day played {result.get('played_on')!r} is not a day (YYYY-MM-DD)."
        elif isinstance(game, dict) and "sealed" in game and not sealing.known(seal_keys, game["sealed"]):
            detail = sealing.unknown_key().detail
            raise Invalid("backup-seal-key-unknown", f"Line {number}: {detail}", line=number)
        else:
            continue
        raise Invalid("backup-refused", f"Line {number}: {problem}", line=number)


def _is_moment(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        dt.datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _is_day(value: Any) -> bool:
    try:
        dt.date.fromisoformat(str(value))
    except ValueError:
        return False
    return True


def _store_games(conn: psycopg.Connection, records: Records, replayed: interchange.Replayed) -> int:
    return interchange.store_replayed(conn, records, replayed)[1]


def _judge(judging: results.Judging, club: _Club, result: dict[str, Any], number: int) -> results.Judged:
    """A result line judged again, as its engine's outcome rule judges a new result."""
    try:
        seats = result.get("players") or []
        play = results.Play(
            engine=str(result.get("engine", "")),
            players=[club.players_by_old.get(str(s.get("player")), "") for s in seats],
            scores=[s["score"] for s in seats]
            if seats and all(s.get("score") is not None for s in seats)
            else None,
            places=[s["place"] for s in seats] if seats else None,
            played_on=dt.date.fromisoformat(str(result.get("played_on"))),
            minutes=result.get("minutes"),
            note=result.get("note"),
            league=club.league(result.get("league")),
            ended_by=result.get("ended_by"),
            options=result.get("options") or {},
        )
        return judging.judge(play)
    except DomainError as error:
        raise Invalid("backup-refused", f"Line {number}: {error.detail}", line=number) from error
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise Invalid("backup-refused", f"Line {number} is not a result.", line=number) from error


def _read(raw: bytes, number: int) -> Any:
    try:
        return json.loads(raw)
    except ValueError as error:
        raise Invalid("backup-unreadable", f"Line {number} is not JSON: {error}.", line=number) from error
    except RecursionError:
        raise Invalid("backup-unreadable", f"Line {number} is nested too deeply.", line=number) from None


def _line(value: Any) -> str:
    return json.dumps(value, default=_plain, sort_keys=True) + "\n"


def _plain(value: Any) -> Any:
    if isinstance(value, (UUID, dt.date, dt.datetime)):
        return str(value) if isinstance(value, UUID) else value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")
