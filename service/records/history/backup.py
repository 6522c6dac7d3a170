"""A whole club as one file, and that file restored into a new club.

The backup is NDJSON: a first line with the club, its players and leagues
(``tablerecord.club/1``), then one line per game in the order the standings
rate them (the order they first ended; unfinished games last): a played game
as its export document (``interchange.export_game``, with its ``league``),
a result-only game as its recorded result. Restoring replays every played
game's commands through its engine and judges every result again, so the new
club's standings, statistics and replays are those of the old one.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from marshmallow import ValidationError

from schemas.interchange import GameImport
from service.records import access
from service.records.access import Principal
from service.records.club import clubs, names
from service.records.errors import DomainError, Invalid
from service.records.history import interchange
from service.records.log.context import Records
from service.records.recording import results

FORMAT = "tablerecord.club/1"


def backup(records: Records, club_id: UUID, principal: Principal | None) -> Iterator[str]:
    """The club's backup, line by line (admin token)."""
    principal = access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        club = conn.execute("SELECT name FROM clubs WHERE id = %s", (club_id,)).fetchone()
        players = conn.execute(
            "SELECT id, name FROM players WHERE club_id = %s ORDER BY created_at, name", (club_id,)
        ).fetchall()
        leagues = conn.execute(
            "SELECT id, name, engine, season, points_table, min_games, public FROM leagues"
            " WHERE club_id = %s ORDER BY created_at",
            (club_id,),
        ).fetchall()
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
            "players": [{"id": p["id"], "name": p["name"]} for p in players],
            "leagues": leagues,
        }
    )
    for game in order:
        if game["result_only"]:
            with records.pool.connection() as conn:
                view = results.result_view(conn, game["id"])
            yield _line({"result": view})
        else:
            document = interchange.export_game(records, game["id"], principal)
            yield _line({"game": {**document, "league": game["league_id"]}})


def restore(records: Records, lines: list[bytes], request_id: str | None = None) -> dict[str, Any]:
    """A new club from a backup; returns it with its admin token (shown once).
    A line that cannot be restored is named in the error."""
    header = _read(lines[0], 1) if lines else None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise Invalid("backup-unreadable", f"The first line is not a {FORMAT} header.")
    _check_header(header)
    _check_lines(lines[1:])
    club = clubs.create_club(records, header["club"]["name"])
    admin = Principal(UUID(str(club["id"])), "admin")
    players = {
        str(p["id"]): str(clubs.add_player(records, admin.club_id, admin, p["name"])["id"])
        for p in header.get("players") or []
    }
    leagues = {
        str(league["id"]): str(
            clubs.create_league(
                records,
                admin.club_id,
                admin,
                {k: league[k] for k in ("name", "engine", "season", "points_table", "min_games", "public")},
            )["id"]
        )
        for league in header.get("leagues") or []
    }
    restored = 0
    batch: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            continue
        entry = _read(raw, number)
        if "game" in entry:
            document = dict(entry["game"])
            document["league"] = leagues.get(str(document.get("league"))) if document.get("league") else None
            document["seats"] = [
                {**s, "player": players.get(str(s.get("player")))} for s in document.get("seats") or []
            ]
            batch.append((number, document))
            continue
        restored += _flush(records, admin, batch, request_id)
        batch = []
        restored += _restore_result(
            records, admin, entry.get("result") or {}, players, leagues, number, request_id
        )
    restored += _flush(records, admin, batch, request_id)
    return {**club, "games": restored}


def _check_header(header: dict[str, Any]) -> None:
    """The header's club, players and leagues are of the right shape and
    their names pass the rule for names, before anything is stored."""
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
    except Invalid as error:
        raise Invalid("backup-refused", f"Line 1: {error.detail}", line=1) from error


def _check_lines(lines: list[bytes]) -> None:
    """Every game or result line is JSON of the right shape (its seats
    objects, its day a day), before anything is stored."""
    for number, raw in enumerate(lines, start=2):
        if not raw.strip():
            continue
        entry = _read(raw, number)
        game, result = (entry.get("game"), entry.get("result")) if isinstance(entry, dict) else (None, None)
        seats = (game or {}).get("seats") if isinstance(game, dict) else (result or {}).get("players")
        if not isinstance(game, dict) and not isinstance(result, dict):
            problem = "It is neither a game nor a result."
        elif not isinstance(seats or [], list) or not all(isinstance(s, dict) for s in seats or []):
            problem = "Its seats are not a list of objects."
        elif isinstance(result, dict) and not _is_day(result.get("played_on")):
            problem = f"Its day played {result.get('played_on')!r} is not a day (YYYY-MM-DD)."
        else:
            continue
        raise Invalid("backup-refused", f"Line {number}: {problem}", line=number)


def _is_day(value: Any) -> bool:
    try:
        dt.date.fromisoformat(str(value))
    except ValueError:
        return False
    return True


def _flush(records: Records, admin: Principal, batch: list[tuple[int, dict[str, Any]]], request_id) -> int:
    """The played games gathered so far, imported in one transaction."""
    if not batch:
        return 0
    try:
        documents = [GameImport().load(document) for _, document in batch]
        interchange.import_games(records, admin.club_id, admin, documents, request_id=request_id)
    except DomainError as error:
        index = error.extra.get("document", 0)
        raise Invalid(
            "backup-refused", f"Line {batch[index][0]}: {error.detail}", line=batch[index][0]
        ) from error
    except ValidationError as error:
        raise Invalid(
            "backup-refused",
            f"A game of lines {batch[0][0]}-{batch[-1][0]} is not a game document.",
            errors=error.messages,
        ) from error
    return len(batch)


def _restore_result(records, admin, result, players, leagues, number, request_id) -> int:
    seats = result.get("players") or []
    play = results.Play(
        engine=result.get("engine", ""),
        players=[players.get(str(s.get("player")), "") for s in seats],
        scores=[s["score"] for s in seats]
        if seats and all(s.get("score") is not None for s in seats)
        else None,
        places=[s["place"] for s in seats] if seats else None,
        played_on=dt.date.fromisoformat(str(result.get("played_on"))),
        minutes=result.get("minutes"),
        note=result.get("note"),
        league=leagues.get(str(result.get("league"))) if result.get("league") else None,
        ended_by=result.get("ended_by"),
        options=result.get("options") or {},
    )
    try:
        logged = results.record_result(records, admin.club_id, admin, play, request_id)
        if result.get("status") == "retracted":
            results.retract_result(records, logged["id"], admin, None, request_id)
    except DomainError as error:
        raise Invalid("backup-refused", f"Line {number}: {error.detail}", line=number) from error
    return 1


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
