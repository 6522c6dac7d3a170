"""Cards entered from a pool their maker may not see: one answer, few tries.

A player entering the cards dealt into their own hand is offered every card
they cannot see, not what is left of the deck (``access.may_see_pool``), since
what is left would tell them what the others hold; the recorder of a game in
which it sees only public information enters the public draws the same way.
Such an entry that names a card another seat holds is refused, and that
refusal tells one bit by its nature ("not all of these are in the deck"). It
must tell no more: whatever the engine found wrong (a card another hand
holds, a made-up card, a card the maker holds, the wrong number), the answer
is one rule with no details. And a player gets few tries: after
``MAX_REFUSALS`` refused entries of one draw (the game's version while it
awaits it), their further tries are refused until the recorder lets them try
again, having settled it with them at the table.
"""

from __future__ import annotations

from uuid import UUID

import psycopg

from engines.base import RuleViolation
from service.records import access
from service.records.access import Principal
from service.records.errors import Forbidden
from service.records.game_record import Game

#: Refused entries of one draw a seat may make before the recorder settles it.
MAX_REFUSALS = 3

IMPOSSIBLE = "impossible-cards"


def sealed_entry(game: Game, principal: Principal, seat: int | None) -> bool:
    """Is this the table's chance entered by someone who may not see its pool?"""
    return seat is None and game.dealer == "table" and not access.may_see_pool(game, principal)


def _counted_seat(game: Game, principal: Principal) -> int | None:
    """The seat whose tries are counted (a player's; the recorder's are not)."""
    return None if principal.is_admin else principal.seat_in(game)


def check(conn: psycopg.Connection, game: Game, principal: Principal) -> None:
    """Refuse a player whose tries at the draw the game awaits are spent."""
    seat = _counted_seat(game, principal)
    if seat is None:
        return
    row = conn.execute(
        "SELECT refusals FROM entry_refusals WHERE game_id = %s AND version = %s AND seat = %s",
        (game.id, game.version, seat),
    ).fetchone()
    if row is not None and row["refusals"] >= MAX_REFUSALS:
        raise Forbidden(
            "entry-tries-spent",
            f"{MAX_REFUSALS} entries of these cards were refused: ask the recorder to settle it at the table.",
        )


def refused(pool, game: Game, principal: Principal) -> RuleViolation:
    """The one answer to any refused sealed entry, its refusal counted (in its
    own transaction: the entry's was rolled back)."""
    seat = _counted_seat(game, principal)
    if seat is not None:
        with pool.connection() as conn:
            conn.execute(
                "INSERT INTO entry_refusals (game_id, version, seat, refusals) VALUES (%s, %s, %s, 1)"
                " ON CONFLICT (game_id, version, seat) DO UPDATE SET refusals = entry_refusals.refusals + 1",
                (game.id, game.version, seat),
            )
    return RuleViolation(IMPOSSIBLE, "These cards cannot be the ones drawn: check them and enter them again.")


def let_try_again(conn: psycopg.Connection, game_id: UUID) -> None:
    """The recorder has settled it: every seat may try the awaited draw again."""
    conn.execute("DELETE FROM entry_refusals WHERE game_id = %s", (game_id,))


def spent(conn: psycopg.Connection, game: Game) -> list[int]:
    """The seats whose tries at the draw the game awaits are spent."""
    rows = conn.execute(
        "SELECT seat FROM entry_refusals WHERE game_id = %s AND version = %s AND refusals >= %s ORDER BY seat",
        (game.id, game.version, MAX_REFUSALS),
    ).fetchall()
    return [r["seat"] for r in rows]
