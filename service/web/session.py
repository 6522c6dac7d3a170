"""Who is signed in on the web: a server-side session (``sign_ins``) whose
random id is the only thing the browser keeps, in an HttpOnly, SameSite cookie
that lasts as long as the session (and as the forms' CSRF tokens)."""

from __future__ import annotations

from flask import Response, current_app, g, request
from flask import session as flask_session

from service.records.access import Principal
from service.records.club import sign_ins
from service.records.errors import Unauthenticated
from service.records.log.context import Records

COOKIE = "tablerecord_session"
MAX_AGE = int(sign_ins.WEB_SESSION_LIFETIME.total_seconds())


def records() -> Records:
    return current_app.extensions["tablerecord.records"]


def principal() -> Principal | None:
    """Whom the browser's session signs in; an ended session counts as signed out."""
    if "web_principal" not in g:
        session_id = request.cookies.get(COOKIE)
        found = None
        if session_id:
            try:
                found = sign_ins.web_session_principal(records(), session_id)
            except Unauthenticated:
                found = None
        g.web_principal = found
    return g.web_principal


def signed_in_as() -> str:
    """Who the browser is signed in as, in the header's words (asked only by a whole page)."""
    who = principal()
    return sign_ins.signed_in_as(records(), who) if who is not None else ""


def sign_in(response: Response, token: str) -> tuple[Response, Principal]:
    """Open a web session for ``token`` (``Unauthenticated`` when it is not
    one) and give the browser its id; the forms' CSRF secret (in Flask's own
    session cookie) is kept as long."""
    forget(response)
    session_id, who = sign_ins.open_web_session(records(), token)
    response.set_cookie(
        COOKIE, session_id, max_age=MAX_AGE, httponly=True, samesite="Lax", secure=request.is_secure
    )
    flask_session.permanent = True
    g.web_principal = who
    return response, who


def forget(response: Response) -> Response:
    """End the browser's web session, if any, and drop its cookie."""
    session_id = request.cookies.get(COOKIE)
    if session_id:
        sign_ins.close_web_session(records(), session_id)
    response.delete_cookie(COOKIE, httponly=True, samesite="Lax", secure=request.is_secure)
    return response


def shows_a_sign_in(response: Response) -> Response:
    """A page that shows a sign-in token or link is kept by no cache (the
    browser's back-forward and disk caches, a proxy's): it is shown once."""
    response.headers["Cache-Control"] = "no-store"
    return response
