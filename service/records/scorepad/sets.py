"""Half-entered sets, kept for whoever is entering them: the picks made so
far on the scorepad (the cards chosen of a draw, the answers given of a
seat's entry), one set per game, sign-in and actor.

They live in the database, not in the page's address or storage, so that
whatever draws the pad again (a reload, a refused entry, a page brought up
to date after another phone's entry, the same sign-in on another device)
shows the set as its maker left it. A set is kept with what the game
awaited from its actor then (``awaiting``): once that has changed (the
entry was made, here or elsewhere), the set is stale and shown no more.
Sets are kept by sign-in, not by browser: a member's set is theirs on
whichever phone they are signed in, and nobody else's.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from service.records.access import Principal
from service.records.game_record import Game

#: The most picks one set holds (a set of cards is at most a pool's cards), and the longest pick.
MOST_PICKS, LONGEST_PICK = 200, 200


def awaiting(game: Game, state: Any, actor: str) -> str:
    """What the game awaits from ``actor``, as a digest that changes once it
    is entered: the table's chance, and the game's version (nothing else is
    entered while a chance is awaited, and one roll of a die reads like the
    next); a seat's legal commands (which other seats' entries leave alone)."""
    if actor == "table":
        request = game.engine.chance(state)
        shape: Any = None if request is None else [request.command, dict(request.fixed), game.version]
    else:
        shape = game.engine.legal_commands(state, int(actor)) if actor.isdigit() else None
    return hashlib.sha256(json.dumps(shape, sort_keys=True, default=str).encode()).hexdigest()


def keep(
    conn: psycopg.Connection, game: Game, principal: Principal, state: Any, actor: str, picks: list[str]
) -> None:
    """Keep ``picks`` as ``principal``'s set for ``actor`` (none: the set is started over)."""
    if len(picks) > MOST_PICKS or any(len(p) > LONGEST_PICK for p in picks):
        picks = []
    if not picks:
        conn.execute(
            "DELETE FROM scorepad_sets WHERE game_id = %s AND holder = %s AND actor = %s",
            (game.id, principal.label(), actor),
        )
        return
    conn.execute(
        "INSERT INTO scorepad_sets (game_id, holder, actor, picks, awaiting) VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT (game_id, holder, actor) DO UPDATE SET picks = EXCLUDED.picks, awaiting = EXCLUDED.awaiting",
        (game.id, principal.label(), actor, Jsonb(picks), awaiting(game, state, actor)),
    )


def kept(conn: psycopg.Connection, game: Game, principal: Principal, state: Any) -> dict[str, list[str]]:
    """``principal``'s sets by actor, those still awaited as they were when kept."""
    rows = conn.execute(
        "SELECT actor, picks, awaiting FROM scorepad_sets WHERE game_id = %s AND holder = %s",
        (game.id, principal.label()),
    ).fetchall()
    return {r["actor"]: list(r["picks"]) for r in rows if r["awaiting"] == awaiting(game, state, r["actor"])}
