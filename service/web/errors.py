"""Errors as pages: the API's one map of errors to statuses
(``service.api.problems``) answers a browser's page with the site's error page
instead of problem+json. An error page never needs the database (a 503 must
render while it is down), and an anonymous visitor asking for a page that is
private (or does not exist: the same answer) is asked to sign in."""

from __future__ import annotations

from flask import Flask, Response, g, render_template, request

#: Page titles, in people's words.
TITLES = {
    400: "That did not work",
    401: "Please sign in",
    403: "Not allowed",
    404: "We can't find that page",
    405: "That did not work",
    409: "Someone got there first",
    413: "That is too much at once",
    422: "That is not possible",
    429: "Too many tries",
    500: "Something went wrong on our side",
    503: "Please try again in a moment",
}

#: Plain words for the refusals whose own text speaks of the machinery.
PLAIN = {
    "csrf": "This form had expired. Please go back, reload the page and try again.",
    "database-unavailable": "The records are out of reach for a moment. Please try again in a few seconds.",
    "busy": "The game was busy with another entry. Please try again.",
    "rate-limited": "Too many requests in a short while. Please wait a minute and try again.",
    "internal-error": "Something went wrong on our side. Please try again; if it keeps happening, tell the club's organiser.",
    "method-not-allowed": "This address is not meant to be opened like that.",
    "invalid-token": "This sign-in is not valid (it may have been replaced). Ask the club's organiser for a new link.",
    "token-required": "Please sign in to see this page.",
    "projection-behind": "This page is still being brought up to date with the latest entries."
    " It will show here by itself in a moment.",
}

#: Titles for the answers whose status's title would mislead.
CODE_TITLES = {"projection-behind": "Almost ready"}


def wants_page() -> bool:
    """A page of the site, or an address a browser opened (it asks for HTML first)."""
    if request.blueprint == "web":
        return True
    if request.blueprint is not None:
        return False
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"


def error_page(status: int, code: str, detail: str) -> Response | None:
    if not wants_page():
        return None
    if status >= 500 and "web_principal" not in g:
        g.web_principal = None  # the layout asks who is signed in: not the database now
    from service.web import session

    signed_in = session.principal() is not None if status < 500 else g.web_principal is not None
    if status == 401 or (status == 404 and request.blueprint == "web" and not signed_in):
        message = PLAIN.get(code) or ("Please sign in to see this page." if status == 404 else detail)
        body = render_template("home.html", next=_here(), message=message, status=401)
        return Response(body, status=401, mimetype="text/html")
    if code == "bad-request" and "CSRF" in detail:
        code = "csrf"
    body = render_template(
        "error.html",
        status=status,
        title=CODE_TITLES.get(code) or TITLES.get(status, "That did not work"),
        message=PLAIN.get(code) or detail,
        code=code,
    )
    return Response(body, status=status, mimetype="text/html")


def _here() -> str:
    return request.full_path.rstrip("?") if request.method == "GET" else ""


def init_app(app: Flask) -> None:
    app.extensions["tablerecord.error_page"] = error_page
