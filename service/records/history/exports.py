"""Taking a club's history out as spreadsheets.

A club's (or a league's) finished games as CSV, one row per player per
game, in the columns the history import reads (``date, game, player, score,
place``, with ``play`` to keep games of one day apart and the game's
``options``): importing the file
into another club gives the same standings. Played and result-only games
alike; abandoned and retracted ones are left out. Rows come in the order the
standings rate the games (the day played, then the order they ended).

And a league's standings as CSV, as its standings page shows them.

A text cell a spreadsheet would run as a formula leads with a quote
(``history_formats.spreadsheet_text``), which the import takes off again.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.history.formats import spreadsheet_text
from service.records.log import fold
from service.records.log.context import Records
from service.records.reading import league_tables
from service.records.reading.projection_state import visible_league
from service.records.recording.games import player_names

PLAY_COLUMNS = ("date", "game", "player", "score", "place", "play", "options")
STANDING_COLUMNS = ("rank", "player", "games", "wins", "points", "average_score", "rating")


def club_plays_csv(
    records: Records, club_id: UUID, principal: Principal | None, league_id: UUID | None = None
) -> str:
    """The club's finished games (of ``league_id`` only, when given) as CSV (admin token)."""
    access.club_admin(principal, club_id, app_scope="read")
    with records.pool.connection() as conn:
        rows = finished(
            conn, "g.club_id = %s AND (%s::uuid IS NULL OR g.league_id = %s)", (club_id, league_id, league_id)
        )
        names = player_names(conn, {s for r in rows for s in r["seats"]})
    return _plays_csv(rows, names)


def league_plays_csv(records: Records, league_id: UUID, principal: Principal | None) -> str:
    """A league's finished games as CSV (whoever may see the league)."""
    with records.pool.connection() as conn:
        visible_league(conn, league_id, principal)
        rows = finished(conn, "g.league_id = %s", (league_id,))
        names = player_names(conn, {s for r in rows for s in r["seats"]})
    return _plays_csv(rows, names)


def standings_csv(records: Records, league_id: UUID, principal: Principal | None) -> str:
    """The league's standings as CSV: ranked players by rank, then the unranked;
    the rating as the pages show it, 1500 + 42 × (mu − 3 sigma) (docs/ratings.md)."""
    table = league_tables.standings(records, league_id, principal, None)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STANDING_COLUMNS)
    for row in table["standings"]:
        writer.writerow(
            [
                row["rank"] if row["ranked"] else "",
                spreadsheet_text(row["name"]),
                row["games"],
                row["wins"],
                _number(row["points"]),
                _number(round(row["average_score"], 3)) if row["average_score"] is not None else "",
                row["rating"],
            ]
        )
    return out.getvalue()


def finished(conn, where: str, params: tuple) -> list[dict[str, Any]]:
    """Finished games with their live result (the game's last ``GameEnded``), the day played
    (a result's, an imported game's, else the day it first ended) and, for a result, its
    length and note."""
    return conn.execute(
        "SELECT g.id, g.engine, g.seats, g.options, e.data AS ended, e.position,"
        " coalesce(r.played_on, (c.data ->> 'played_at')::timestamptz::date, f.recorded_at::date) AS played_on,"
        " r.minutes, r.note"
        " FROM games g"
        " JOIN LATERAL (SELECT data, position, recorded_at FROM events"
        "   WHERE game_id = g.id AND type = %s ORDER BY version DESC LIMIT 1) e ON true"
        " JOIN LATERAL (SELECT position, recorded_at FROM events"
        "   WHERE game_id = g.id AND type = %s ORDER BY version LIMIT 1) f ON true"
        " JOIN events c ON c.game_id = g.id AND c.version = 1"
        " LEFT JOIN result_games r ON r.game_id = g.id"
        f" WHERE g.status = 'finished' AND {where}"
        " ORDER BY played_on, f.position",  # the leagues' rating order
        (fold.GAME_ENDED, fold.GAME_ENDED, *params),
    ).fetchall()


def _plays_csv(rows: list[dict[str, Any]], names: dict[str, str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PLAY_COLUMNS)
    for row in rows:
        writer.writerows(_rows(row, names))
    return out.getvalue()


def _rows(game: dict[str, Any], names: dict[str, str]) -> Iterator[list[Any]]:
    title = registry.get(game["engine"]).title
    scores = game["ended"].get("scores")
    for seat, player in enumerate(str(p) for p in game["seats"]):
        yield [
            game["played_on"].isoformat(),
            spreadsheet_text(title),
            spreadsheet_text(names.get(player, player)),
            _number(scores[seat]) if scores is not None else "",
            game["ended"]["places"][seat],
            game["id"],
            json.dumps(game["options"], sort_keys=True) if game["options"] else "",
        ]


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value
