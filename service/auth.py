"""The caller of a request: its bearer token, resolved to a ``Principal``
(``service.records.access`` decides what a principal may do)."""

from __future__ import annotations

import hmac
import time

import psycopg
from flask import current_app, g, request

from service.records import access
from service.records.access import Principal
from service.records.club import sign_ins
from service.records.errors import Unauthenticated


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
    g.principal = principal
    return principal


def principal_for(token: str) -> Principal:
    """The holder of ``token``; a token never issued (or no longer valid)
    raises ``Unauthenticated``. Asked once per request."""
    digest = access.hash_token(token)
    known = g.setdefault("tokens", {})
    if digest not in known:
        known[digest] = _lookup(digest)
    return known[digest]


def _lookup(digest: str) -> Principal:
    principal = _recall(digest)
    if principal is None:
        changes = sign_ins.changes()
        with current_app.extensions["tablerecord.records"].pool.connection() as conn:
            principal = access.principal_for(conn, digest)
        _remember(digest, principal, changes)
    return principal


# Each process remembers whom the tokens it has seen sign in (by hash), so that
# a request does not ask the database twice (once for its token, once for its
# work), which would also double its wait on a database that stops answering.
# Every token can stop signing in (an admin token rotated, a member sign-in
# replaced or revoked, a game's seat tokens reissued): a token is remembered
# for two seconds, and forgotten at once when this process changes any sign-in;
# another API process follows within those seconds.
_KNOWN: dict[str, tuple[Principal, float, int]] = {}
_KNOWN_MAX = 10_000
_KNOWN_SECONDS = 2.0


def _recall(digest: str) -> Principal | None:
    known = _KNOWN.get(digest)
    if known is None or known[1] < time.monotonic() or known[2] != sign_ins.changes():
        return None
    return known[0]


def _remember(digest: str, principal: Principal, changes: int) -> None:
    if len(_KNOWN) >= _KNOWN_MAX:
        _KNOWN.clear()
    _KNOWN[digest] = (principal, time.monotonic() + _KNOWN_SECONDS, changes)


def require_principal() -> Principal:
    return access.required(current_principal())


def is_operator() -> bool:
    """The bearer is the operator's token (``OPERATOR_TOKEN``; none set: nobody is)."""
    token, expected = bearer(), current_app.extensions["tablerecord.settings"].operator_token
    return bool(token and expected and hmac.compare_digest(token.encode(), expected.encode()))


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
        principal_for(token)
    except (psycopg.Error, Unauthenticated):
        return client_address()
    return f"token:{access.hash_token(token)}"


def authenticates() -> bool:
    """The request brings a token that authenticates: it is never held back by
    its address's failed authentications (behind a proxy, everyone shares one)."""
    return rate_limit_key().startswith("token:")


def failed_authentication(response) -> bool:
    """Counts against the address's allowance of failed authentications."""
    return response.status_code == 401
