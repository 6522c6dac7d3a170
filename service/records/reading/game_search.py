"""Searching a club's past and live games: by players (all of them seated),
game, league, date range, winner and finished or live, newest first, a page
at a time. The games are the statistics projection's (``stats_games``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from typing import Any
from uuid import UUID

import psycopg

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.club import merges
from service.records.errors import Invalid
from service.records.log.context import Records
from service.records.recording.games import player_names

#: Games per page of a search.
PER_PAGE = 25
#: The last page a search may ask for (the API's largest page number): the
#: database is never asked to skip more games than it can count.
MAX_PAGE = 2**31 - 1
STATUSES = {"finished": "finished", "live": "active"}


def engine_title(engine_id: str) -> str:
    """The game's name as the box says it (the id when the engine is gone)."""
    try:
        return registry.get(engine_id).title
    except registry.UnknownEngine:
        return engine_id


def parse(args: Mapping[str, Any]) -> dict[str, Any]:
    """A search as a page's form sends it (text fields; empty ones ignored)."""

    def one(name: str) -> str | None:
        value = (args.get(name) or "").strip()
        return value or None

    def uuid(value: str, what: str) -> UUID:
        try:
            return UUID(value)
        except ValueError as exc:
            raise Invalid("bad-search", f"That {what} is not one of the club's.") from exc

    def day(name: str) -> date | None:
        value = one(name)
        try:
            return date.fromisoformat(value) if value else None
        except ValueError as exc:
            raise Invalid("bad-search", "Dates are written like 2026-03-01.") from exc

    getlist = getattr(args, "getlist", None)
    players = [p for p in (getlist("player") if getlist else args.get("player") or []) if p]
    status = one("status")
    if status is not None and status not in STATUSES:
        raise Invalid("bad-search", "A game is either finished or live.")
    try:
        page = int(one("page") or 1)
    except ValueError as exc:
        raise Invalid("bad-search", "The page is a whole number.") from exc
    return {
        "players": [uuid(p, "player") for p in players],
        "engine": one("engine"),
        "league": uuid(one("league"), "league") if one("league") else None,
        "since": day("since"),
        "until": day("until"),
        "winner": uuid(one("winner"), "player") if one("winner") else None,
        "status": status,
        "page": max(page, 1),
    }


def visible(principal: Principal) -> tuple[str, dict[str, Any]]:
    """Which of the club's games (``stats_games s``) a list shows ``principal``:
    every one to those who see every game of the club (``access.sees_every_game``);
    to others the public ones and their own."""
    if access.sees_every_game(principal):
        return "TRUE", {}
    return (
        "EXISTS (SELECT 1 FROM games v WHERE v.id = s.game_id AND (v.public OR s.seats ?| %(mine)s::text[]))",
        {"mine": mine(principal)},
    )


def mine(principal: Principal) -> list[str]:
    """The players whose seats are a member's own: theirs and those merged into them."""
    return [str(principal.player_id), *sorted(principal.merged)] if principal.player_id else []


def where(
    club_id: UUID, query: Mapping[str, Any], principal: Principal, groups: Mapping[str, list[str]]
) -> tuple[str, dict[str, Any]]:
    """The SQL condition and parameters of a search (over ``stats_games s``):
    a player searched for is any record of their group (``merges.groups``:
    the player they follow now and every player merged into that one)."""
    seen, params = visible(principal)
    clauses = ["s.club_id = %(club)s", "s.status <> 'abandoned'", seen]
    params["club"] = club_id
    for n, player in enumerate(query.get("players") or []):
        clauses.append(f"s.seats ?| %(player_{n})s::text[]")
        params[f"player_{n}"] = groups.get(str(player), [str(player)])
    if query.get("engine"):
        clauses.append("s.engine = %(engine)s")
        params["engine"] = query["engine"]
    if query.get("league"):
        clauses.append("s.league_id = %(league)s")
        params["league"] = query["league"]
    # A game that has ended by the day it was played, a live one by the day it began.
    since = _midnight(query["since"]) if query.get("since") else None
    if since is not None:
        clauses.append(
            "(s.played_on >= %(since_day)s OR (s.played_on IS NULL AND s.created_at >= %(since)s))"
        )
        params.update(since=since, since_day=query["since"])
    until = _midnight(query["until"], days_after=1) if query.get("until") else None
    if until is not None:
        clauses.append("(s.played_on <= %(until_day)s OR (s.played_on IS NULL AND s.created_at < %(until)s))")
        params.update(until=until, until_day=query["until"])
    if query.get("winner"):
        clauses.append(
            "s.status = 'finished' AND s.seats ?| %(winner)s::text[] AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(s.seats)"
            " WITH ORDINALITY AS x(player, n) WHERE x.player = ANY(%(winner)s::text[])"
            " AND (s.places ->> (x.n - 1)::int)::int = 1)"
        )
        params["winner"] = groups.get(str(query["winner"]), [str(query["winner"])])
    if query.get("status"):
        clauses.append("s.status = %(status)s")
        params["status"] = STATUSES[query["status"]]
    return " AND ".join(clauses), params


def _midnight(day: date, days_after: int = 0) -> datetime | None:
    """The local midnight that begins ``day`` (or the day ``days_after`` it);
    None when that lies beyond the calendar (before 0001-01-01, after
    9999-12-31): a range from the calendar's first day, or to its last, is
    open at that end."""
    try:
        return datetime.combine(day + timedelta(days=days_after), time.min).astimezone()
    except (OverflowError, ValueError):
        return None


def search(records: Records, club_id: UUID, principal: Principal | None, query: Mapping[str, Any]) -> dict:
    """One page of the club's games matching ``query`` (see ``parse``), newest first."""
    principal = access.may_see_player(principal, club_id)
    page = max(int(query.get("page") or 1), 1)
    if page > MAX_PAGE:
        raise Invalid("bad-search", f"The page is a whole number from 1 to {MAX_PAGE:,}.")
    with records.pool.connection() as conn:
        searched = [*(query.get("players") or []), *([query["winner"]] if query.get("winner") else [])]
        condition, params = where(club_id, query, principal, merges.groups(conn, searched))
        total = conn.execute(f"SELECT count(*) AS n FROM stats_games s WHERE {condition}", params).fetchone()[
            "n"
        ]
        rows = conn.execute(
            "SELECT s.game_id, s.engine, s.league_id, l.name AS league, s.seats, s.status, s.places, s.scores,"
            " s.result_only, s.created_at, s.ended_at, s.played_on"
            " FROM stats_games s LEFT JOIN leagues l ON l.id = s.league_id"
            f" WHERE {condition} ORDER BY s.played_on DESC NULLS FIRST, s.created_at DESC, s.game_id"
            " LIMIT %(limit)s OFFSET %(offset)s",
            {**params, "limit": PER_PAGE, "offset": (page - 1) * PER_PAGE},
        ).fetchall()
        names = player_names(conn, {p for r in rows for p in r["seats"]}, club_id)
        players = conn.execute(
            "SELECT id, name FROM players WHERE club_id = %s ORDER BY name", (club_id,)
        ).fetchall()
        leagues = conn.execute(
            "SELECT id, name FROM leagues WHERE club_id = %s ORDER BY created_at", (club_id,)
        ).fetchall()
    return {
        "club": str(club_id),
        "total": total,
        "page": page,
        "pages": max(1, -(-total // PER_PAGE)),
        "games": [game_line(r, names) for r in rows],
        "choices": {
            "players": [{"id": str(p["id"]), "name": p["name"]} for p in players],
            "leagues": [{"id": str(x["id"]), "name": x["name"]} for x in leagues],
            "engines": _engines(),
        },
    }


def _engines() -> list[dict[str, str]]:
    return [{"id": e, "title": registry.get(e).title} for e in registry.available()]


LATEST = """
SELECT g.id AS game_id, g.engine, g.league_id, l.name AS league, g.seats, g.status, g.dealer, s.places, s.scores,
       coalesce(s.result_only, false) AS result_only, g.created_at, s.ended_at, s.played_on
FROM games g LEFT JOIN stats_games s ON s.game_id = g.id LEFT JOIN leagues l ON l.id = g.league_id
WHERE g.club_id = %(club)s AND g.status = 'active' AND (%(all)s OR g.public OR g.seats ?| %(mine)s::text[])
ORDER BY g.created_at DESC LIMIT %(limit)s
"""
#: The newest games played, by the day each was played (an abandoned one, or
#: one the statistics have yet to read, by the day it began).
LATEST_PLAYED = """
SELECT g.id AS game_id, g.engine, g.league_id, l.name AS league, g.seats, g.status, g.dealer, s.places, s.scores,
       coalesce(s.result_only, false) AS result_only, g.created_at, s.ended_at, s.played_on
FROM games g LEFT JOIN stats_games s ON s.game_id = g.id LEFT JOIN leagues l ON l.id = g.league_id
WHERE g.club_id = %(club)s AND g.status <> 'active' AND (%(all)s OR g.public OR g.seats ?| %(mine)s::text[])
ORDER BY coalesce(s.played_on, g.created_at::date) DESC, g.created_at DESC LIMIT %(limit)s
"""


def latest(
    conn: psycopg.Connection, club_id: UUID, principal: Principal, live: bool, limit: int
) -> list[dict[str, Any]]:
    """The club's newest live games, or its newest finished and abandoned ones,
    as lists show them (those ``principal`` may see: see ``visible``)."""
    rows = conn.execute(
        LATEST if live else LATEST_PLAYED,
        {"club": club_id, "all": access.sees_every_game(principal), "mine": mine(principal), "limit": limit},
    ).fetchall()
    names = player_names(conn, {p for r in rows for p in r["seats"]}, club_id)
    return [game_line(r, names) for r in rows]


def game_line(row: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A game as lists show it: when, which game, who played, who won, and
    whether it was logged by its result alone (so has no replay)."""
    seats = [str(s) for s in row["seats"]]
    places = row["places"] if row["status"] == "finished" and row["places"] else None
    players = [
        {"player": p, "name": names.get(p), "place": places[i] if places else None}
        for i, p in enumerate(seats)
    ]
    if places:
        players.sort(key=lambda p: p["place"])
    return {
        "game": str(row["game_id"]),
        "engine": row["engine"],
        "title": engine_title(row["engine"]),
        "league": {"id": str(row["league_id"]), "name": row["league"]} if row["league_id"] else None,
        "status": {"active": "live"}.get(row["status"], row["status"]),
        "dealer": row.get("dealer"),
        "result_only": row["result_only"],
        "started_at": row["created_at"],
        "ended_at": row["ended_at"],
        "played_on": row["played_on"],
        "players": players,
        "winners": [p for p in players if p["place"] == 1],
    }
