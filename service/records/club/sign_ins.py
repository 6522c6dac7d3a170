"""Sign-ins: the club's admin token (replaced by rotation), one member sign-in
per player (issued, replaced and revoked by the admin) and the web sessions
opened with either.

A web session keeps nothing secret in the browser: its cookie holds a random
id, and the row holds the id's hash, the token it was opened with and when it
ends. Deleting a token (rotation, revocation) deletes its sessions with it
(``ON DELETE CASCADE``), so a stolen cookie dies with the token it came from.
What each sign-in may do is decided in ``service.records.access``.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any
from uuid import UUID

from service.records import access
from service.records.access import Principal
from service.records.errors import NotFound, Unauthenticated
from service.records.log.context import Records

#: How long a web sign-in lasts (its cookie, its row and its forms' CSRF token).
WEB_SESSION_LIFETIME = timedelta(days=90)

#: Counts the changes this process made to which tokens sign in (a rotation, a
#: member sign-in replaced or revoked, a game's seat tokens reissued), so that a process remembering whom a
#: token signs in (``service.auth``) forgets what it learnt before a change.
_changes = 0


def changes() -> int:
    """How many times this process has changed which tokens sign in."""
    return _changes


def tokens_changed() -> None:
    """Tell this process that tokens it may remember no longer sign in."""
    global _changes
    _changes += 1


def rotate_admin_token(records: Records, club_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """A new admin token for the club (shown once); the old one stops working
    at once, with every web session opened with it. Member sign-ins stay."""
    access.club_admin(principal, club_id)
    token, digest = access.new_token("admin")
    with records.pool.connection() as conn, conn.transaction():
        conn.execute("SELECT id FROM clubs WHERE id = %s FOR UPDATE", (club_id,))
        _delete_tokens(conn, "club_id = %s AND kind = 'admin'", (club_id,))
        conn.execute("INSERT INTO tokens (hash, club_id, kind) VALUES (%s, %s, 'admin')", (digest, club_id))
    tokens_changed()
    return {"admin_token": token}


def issue_member_sign_in(
    records: Records, club_id: UUID, player_id: UUID, principal: Principal | None
) -> dict[str, Any]:
    """A member sign-in for the player (shown once), replacing any they had
    (whose web sessions end with it)."""
    access.club_admin(principal, club_id)
    token, digest = access.new_token("member")
    with records.pool.connection() as conn, conn.transaction():
        player = _player(conn, club_id, player_id, lock=True)
        _delete_tokens(conn, "player_id = %s AND kind = 'member'", (player_id,))
        conn.execute(
            "INSERT INTO tokens (hash, club_id, kind, player_id) VALUES (%s, %s, 'member', %s)",
            (digest, club_id, player_id),
        )
    tokens_changed()
    return {"player": player["id"], "name": player["name"], "token": token}


def revoke_member_sign_in(
    records: Records, club_id: UUID, player_id: UUID, principal: Principal | None
) -> None:
    """The player's member sign-in stops working, with its web sessions."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn, conn.transaction():
        _player(conn, club_id, player_id, lock=True)
        _delete_tokens(conn, "player_id = %s AND kind = 'member'", (player_id,))
    tokens_changed()


def members_signed_in(records: Records, club_id: UUID, principal: Principal | None) -> set[UUID]:
    """The players of the club who hold a member sign-in."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        rows = conn.execute(
            "SELECT player_id FROM tokens WHERE club_id = %s AND kind = 'member'", (club_id,)
        ).fetchall()
    return {r["player_id"] for r in rows}


def _player(conn, club_id: UUID, player_id: UUID, lock: bool = False) -> dict[str, Any]:
    row = conn.execute(
        "SELECT id, name FROM players WHERE id = %s AND club_id = %s" + (" FOR UPDATE" if lock else ""),
        (player_id, club_id),
    ).fetchone()
    if row is None:
        raise NotFound("player")
    return row


def _delete_tokens(conn, where: str, params: tuple) -> None:
    conn.execute(f"DELETE FROM tokens WHERE {where}", params)


# -- web sessions ------------------------------------------------------------------


def open_web_session(records: Records, token: str) -> tuple[str, Principal]:
    """A web session for the holder of ``token`` (``Unauthenticated`` when it
    is not one): the id for the browser's cookie, and whom it signs in."""
    digest = access.hash_token(token.strip())
    session_id = secrets.token_urlsafe(32)
    with records.pool.connection() as conn, conn.transaction():
        principal = access.may_sign_in_on_the_web(access.principal_for(conn, digest))
        conn.execute("DELETE FROM web_sessions WHERE expires_at < now()")
        conn.execute(
            "INSERT INTO web_sessions (hash, token_hash, expires_at) VALUES (%s, %s, now() + %s)",
            (access.hash_token(session_id), digest, WEB_SESSION_LIFETIME),
        )
    return session_id, principal


def web_session_principal(records: Records, session_id: str) -> Principal:
    """Whom the web session signs in (``Unauthenticated`` once it has ended)."""
    with records.pool.connection() as conn:
        row = conn.execute(
            f"SELECT {access.HOLDER} FROM web_sessions s JOIN tokens t ON t.hash = s.token_hash"
            f" {access.HOLDER_JOIN} WHERE s.hash = %s AND s.expires_at > now()",
            (access.hash_token(session_id),),
        ).fetchone()
    if row is None:
        raise Unauthenticated("signed-out", "You are signed out; please sign in again.")
    return access.principal_of(row)


def signed_in_as(records: Records, principal: Principal) -> str:
    """Who a sign-in is, in the words of a page's header: the club's admin, a
    member by their name, a seat by its player's ("Ana's seat")."""
    if principal.is_admin:
        return "Club admin"
    with records.pool.connection() as conn:
        if principal.is_member:
            row = conn.execute(
                "SELECT name FROM players WHERE id = %s AND club_id = %s",
                (principal.player_id, principal.club_id),
            ).fetchone()
            return row["name"] if row else "Member"
        row = conn.execute(
            "SELECT p.name FROM games g JOIN players p ON p.id = (g.seats ->> %s)::uuid WHERE g.id = %s",
            (principal.seat, principal.game_id),
        ).fetchone()
    return f"{row['name']}'s seat" if row else "Your seat"


def close_web_session(records: Records, session_id: str) -> None:
    with records.pool.connection() as conn:
        conn.execute("DELETE FROM web_sessions WHERE hash = %s", (access.hash_token(session_id),))
