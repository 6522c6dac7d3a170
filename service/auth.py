"""Bearer tokens, stored hashed.

A club's admin token manages the club and records its games (it may act for
every seat); a seat token acts for one seat of one game and sees what that
seat may see; no token sees public games' public views.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from uuid import UUID

import psycopg
from flask import g, request

from service import database
from service.errors import Problem


@dataclass(frozen=True)
class Principal:
    club_id: UUID
    kind: str  # "admin" or "seat"
    game_id: UUID | None = None
    seat: int | None = None

    @property
    def is_admin(self) -> bool:
        return self.kind == "admin"

    def label(self) -> str:
        return "recorder" if self.is_admin else f"seat:{self.seat}"


def new_token(kind: str) -> tuple[str, str]:
    """A fresh token and the hash stored for it."""
    token = f"tr_{kind}_{secrets.token_urlsafe(24)}"
    return token, hash_token(token)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def current_principal() -> Principal | None:
    """The caller, or None when no token was sent. A wrong token is a 401."""
    if "principal" in g:
        return g.principal
    token = bearer()
    principal = None
    if token is not None:
        principal = principal_for(token)
        if principal is None:
            raise Problem(401, "invalid-token", "The bearer token is not valid.")
    g.principal = principal
    return principal


def principal_for(token: str) -> Principal | None:
    """The principal a token authenticates, or None for a token we never issued."""
    digest = hash_token(token)
    principal = _recall(digest)
    if principal is None:
        with database.pool().connection() as conn:
            row = conn.execute(
                "SELECT club_id, kind, game_id, seat FROM tokens WHERE hash = %s", (digest,)
            ).fetchone()
        if row is None:
            return None
        principal = Principal(row["club_id"], row["kind"], row["game_id"], row["seat"])
        _remember(digest, principal)
    return principal


# A token's rights never change once issued, so each process remembers the
# tokens it has seen (by hash) for a minute instead of asking the database on
# every request; the minute bounds how long a revoked token could still work.
_KNOWN: dict[str, tuple[Principal, float]] = {}
_KNOWN_MAX = 10_000
_KNOWN_SECONDS = 60.0


def _recall(digest: str) -> Principal | None:
    known = _KNOWN.get(digest)
    if known is None or known[1] < time.monotonic():
        return None
    return known[0]


def _remember(digest: str, principal: Principal) -> None:
    if len(_KNOWN) >= _KNOWN_MAX:
        _KNOWN.clear()
    _KNOWN[digest] = (principal, time.monotonic() + _KNOWN_SECONDS)


def require_principal() -> Principal:
    principal = current_principal()
    if principal is None:
        raise Problem(401, "token-required", "This needs a bearer token.")
    return principal


def require_admin(club_id: UUID) -> Principal:
    """The club's admin token; another club's token learns nothing (404)."""
    principal = require_principal()
    if principal.club_id != club_id:
        raise Problem(404, "not-found", "No such club.")
    if not principal.is_admin:
        raise Problem(403, "admin-only", "Only the club's admin token may do this.")
    return principal


def client_address() -> str:
    return f"address:{request.remote_addr or 'unknown'}"


def rate_limit_key() -> str:
    """Whom a request counts against: its token once the token is known to
    authenticate, otherwise the client's address, so made-up tokens cannot
    each open a fresh allowance. A database that cannot say counts the address."""
    token = bearer()
    if token is None:
        return client_address()
    try:
        principal = principal_for(token)
    except psycopg.Error:
        return client_address()
    return f"token:{hash_token(token)}" if principal is not None else client_address()


def failed_authentication(response) -> bool:
    """Counts against the address's allowance of failed authentications."""
    return response.status_code == 401
