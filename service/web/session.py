"""Who is signed in: the token pasted once, kept in an HttpOnly, SameSite cookie."""

from __future__ import annotations

from flask import Response, current_app, g, request

from service.records import pages
from service.records.access import Principal
from service.records.context import Records
from service.records.errors import Unauthenticated

COOKIE = "tablerecord_token"
MAX_AGE = 60 * 60 * 24 * 180


def records() -> Records:
    return current_app.extensions["tablerecord.records"]


def principal() -> Principal | None:
    """The signed-in token's holder; a token no longer valid counts as signed out."""
    if "web_principal" not in g:
        token = request.cookies.get(COOKIE)
        found = None
        if token:
            try:
                found = pages.sign_in(records(), token)
            except Unauthenticated:
                found = None
        g.web_principal = found
    return g.web_principal


def remember(response: Response, token: str) -> Response:
    response.set_cookie(
        COOKIE, token.strip(), max_age=MAX_AGE, httponly=True, samesite="Lax", secure=request.is_secure
    )
    return response


def forget(response: Response) -> Response:
    response.delete_cookie(COOKIE, httponly=True, samesite="Lax", secure=request.is_secure)
    return response
