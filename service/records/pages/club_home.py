"""What a club's front page and its new-game form read: the club, its leagues and players, its
live and latest games (for a member: the public ones and their own), and each game's options.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import psycopg

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.errors import NotFound
from service.records.hooks import endpoints as webhooks
from service.records.log import store
from service.records.log.context import Records
from service.records.reading import game_search
from service.records.reading.projection_state import caught_up

#: Games listed per page on a league's and a club's pages.
GAMES_PER_PAGE = 15


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
            "SELECT id, name, retired_at IS NOT NULL AS retired FROM players WHERE club_id = %s"
            " AND NOT EXISTS (SELECT 1 FROM player_merges m WHERE m.merged_id = players.id) ORDER BY name",
            (club_id,),
        ).fetchall()
        games = _games(conn, club_id, principal)
        stopped = webhooks.disabled(conn, club_id) if principal.is_admin else []
    return {
        "club": club,
        "leagues": leagues,
        "players": players,
        **games,
        "stopped_webhooks": stopped,
        "engines": [{"id": e, "title": registry.get(e).title} for e in registry.available()],
    }


def club_games(
    records: Records, club_id: UUID, principal: Principal | None, min_position: int | None
) -> dict[str, Any]:
    """The club page's live part, redrawn when the club's stream moves: its
    live and latest games once the statistics (the finished games' places)
    have taken in ``min_position``, the event that moved it, or as they stand
    after ``CATCH_UP`` seconds (``behind``: the position the redraw asks for again)."""
    principal = access.club_member(principal, club_id)
    access.may_wait_for_position(principal, club_id, min_position)
    behind = min_position is not None and not caught_up(records, "statistics", min_position)
    with records.pool.connection() as conn:
        games = _games(conn, club_id, principal)
    return {"club_id": club_id, **games, "behind": min_position if behind else None}


def _games(conn: psycopg.Connection, club_id: UUID, principal: Principal) -> dict[str, Any]:
    """The live and latest games, and the log position they stand at, read
    first: the club's stream sends whatever comes after it."""
    position = store.head_position(conn)
    return {
        "position": position,
        "live": game_search.latest(conn, club_id, principal, True, 50),
        "recent": game_search.latest(conn, club_id, principal, False, GAMES_PER_PAGE),
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
            "SELECT id, name FROM players WHERE club_id = %s AND retired_at IS NULL"
            " AND NOT EXISTS (SELECT 1 FROM player_merges m WHERE m.merged_id = players.id) ORDER BY name",
            (club_id,),
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
