"""The pages. Each view parses the request, calls one domain function and renders."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from uuid import UUID

from flask import Blueprint, Response, g, redirect, render_template, request, url_for

from engines.base import RuleViolation
from service.records.errors import (
    Invalid,
)
from service.records.history import formats
from service.records.pages import club_home, league_figures_page, league_page
from service.records.pages.standings_page import place_name
from service.records.recording.creation import create_game
from service.records.scorepad.labels import command_label, value_label, words
from service.web import session

blueprint = Blueprint(
    "web", __name__, template_folder="templates", static_folder="static", static_url_path="/assets"
)

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)


#: The forms that send a whole history file (8 MiB and the form's room beside it); others send the API's body limit.
LARGE_FORMS = {"web.history_choose": formats.MAX_BYTES + 64 * 1024}


@blueprint.before_request
def _protect_forms() -> None:
    if request.endpoint in LARGE_FORMS:
        request.max_content_length = LARGE_FORMS[request.endpoint]
    if request.method == "POST":
        from service.web import csrf

        csrf.protect()


@blueprint.after_request
def _policy(response: Response) -> Response:
    """Nothing but this service may be loaded by a page."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


@blueprint.app_template_filter("words")
def _words(name: str) -> str:
    return words(str(name))


@blueprint.app_template_filter("label")
def _label(value: Any) -> str:
    return value_label(value)


@blueprint.app_template_filter("command")
def _command(command: dict) -> str:
    return command_label(command)


@blueprint.app_template_filter("pct")
def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


@blueprint.app_template_filter("num")
def _num(value: float | None, places: int = 1) -> str:
    return "–" if value is None else f"{value:.{places}f}"


@blueprint.context_processor
def _signed_in() -> dict[str, Any]:
    return {"principal": session.principal(), "signed_in_as": session.signed_in_as}


def _int(name: str, default: int | None = None) -> int | None:
    """A whole number from the query or form (at most 9 digits), or a 422 page."""
    value = request.values.get(name, "")
    if value == "":
        return default
    digits = value[1:] if value.startswith("-") else value
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
        raise Invalid("bad-number", f"{name} must be a whole number.")
    return int(value)


def _position() -> int | None:
    """``min_position`` from the query: a log position (a whole number below 2^63), or a 422 page."""
    value = request.args.get("min_position", "")
    if value == "":
        return None
    if not (value.isascii() and value.isdigit() and len(value) <= 18):
        raise Invalid("bad-number", "min_position must be a whole number.")
    return int(value)


# -- signing in ------------------------------------------------------------------


@blueprint.get("/")
def home():
    principal = session.principal()
    if principal is not None:
        return redirect(_landing(principal))
    return render_template("home.html", next=request.args.get("next", ""))


@blueprint.post("/sign-in")
def sign_in():
    token = request.form.get("token", "")
    response, principal = session.sign_in(redirect(url_for("web.home"), 303), token)
    response.headers["Location"] = _local(request.form.get("next", "")) or _landing(principal)
    return response


def _landing(principal) -> str:
    """Where a sign-in lands: its club (admin, member), or its game (a seat token)."""
    if principal.kind == "seat":
        return url_for("web.game", game_id=principal.game_id)
    return url_for("web.club", club_id=principal.club_id)


def _local(target: str) -> str | None:
    r"""Only a path of this site is followed after signing in. The target is
    parsed, not prefix-checked: browsers drop tabs and newlines and read ``\``
    as ``/``, so ``/\t/elsewhere`` or ``/\elsewhere`` would leave the site."""
    if "\\" in target or any(ord(c) < 0x20 or ord(c) == 0x7F for c in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return None
    return urlunsplit(("", "", parts.path, parts.query, ""))


@blueprint.post("/sign-out")
def sign_out():
    return session.forget(redirect(url_for("web.home"), 303))


# -- a club ----------------------------------------------------------------------


@blueprint.get("/club/<uuid:club_id>")
def club(club_id: UUID):
    return render_template(
        "club.html", **club_home.club_home(session.records(), club_id, session.principal())
    )


@blueprint.get("/club/<uuid:club_id>/games/live")
def club_games(club_id: UUID):
    """The club page's live and latest games, redrawn as the club's stream moves."""
    games = club_home.club_games(session.records(), club_id, session.principal(), _position())
    return render_template("_club_games.html", **games)


@blueprint.get("/club/<uuid:club_id>/new-game")
def new_game(club_id: UUID):
    form = club_home.new_game_form(
        session.records(), club_id, session.principal(), request.args.get("engine")
    )
    return render_template("new_game.html", **form)


@blueprint.post("/club/<uuid:club_id>/new-game")
def create(club_id: UUID):
    engine = request.form.get("engine", "")
    seats = [str(_uuid(p, "seat")) for p in request.form.getlist("seat") if p]
    league = request.form.get("league", "")
    options = {
        name[len("option-") :]: _form_value(value)
        for name, value in request.form.items()
        if name.startswith("option-") and value != ""
    }
    spec = {
        "engine": engine,
        "seats": seats,
        "options": options,
        "dealer": "table",
        "league": str(_uuid(league, "league")) if league else None,
        "public": request.form.get("public") == "on",
        "admin_spectator": request.form.get("admin_spectator") == "on",
    }
    try:
        created = create_game(session.records(), club_id, session.principal(), spec, g.get("request_id"))
    except (Invalid, RuleViolation) as refused:
        return _new_game_again(club_id, engine, refused)
    return session.shows_a_sign_in(Response(render_template("created.html", game=created)))


#: Which part of the new-game form a refusal is about (the rest: the form as a whole).
FORM_PART = {
    "seat-count": "seats",
    "player-seated-twice": "seats",
    "unknown-player": "seats",
    "retired-player": "seats",
    "player-merged": "seats",
    "unknown-league": "league",
    "league-engine": "league",
    "league-closed": "league",
    "invalid-options": "options",
}


def _new_game_again(club_id: UUID, engine: str, refused: Exception) -> tuple[str, int]:
    """The new-game form again, as filled in, with the problem beside its part."""
    form = club_home.new_game_form(session.records(), club_id, session.principal(), engine or None)
    code = getattr(refused, "code", "")
    message = getattr(refused, "detail", None) or getattr(refused, "message", str(refused))
    chosen = {
        "seats": request.form.getlist("seat"),
        "options": {k[len("option-") :]: v for k, v in request.form.items() if k.startswith("option-")},
        "league": request.form.get("league", ""),
        "public": request.form.get("public") == "on",
    }
    problem = {FORM_PART.get(code, "form"): message}
    return render_template("new_game.html", **form, chosen=chosen, problem=problem), 422


def _uuid(value: str, name: str) -> UUID:
    """A player or league the form offered (its id), or a 422 page."""
    try:
        return UUID(value)
    except ValueError as exc:
        raise Invalid(f"bad-{name}", f"Choose the {name} from the list.") from exc


def _form_value(value: str) -> Any:
    """An option as the form sends it (text): numbers and yes/no become the
    JSON values the game's option schema takes strictly; other text stays text."""
    try:
        return json.loads(value)
    except ValueError:
        return value


# -- a league --------------------------------------------------------------------


@blueprint.get("/league/<uuid:league_id>")
def league(league_id: UUID):
    page = league_page.league_page(session.records(), league_id, session.principal(), _int("upto"))
    return render_template("league.html", **page)


@blueprint.get("/league/<uuid:league_id>/live")
def league_live(league_id: UUID):
    """The league page's standings and latest results, redrawn as the club's stream moves."""
    page = league_page.league_live(session.records(), league_id, session.principal(), _position())
    return render_template("_league_live.html", **page)


@blueprint.get("/league/<uuid:league_id>/statistics")
def statistics(league_id: UUID):
    figures = league_figures_page.statistics_page(
        session.records(), league_id, session.principal(), _int("page", 1), _int("upto")
    )
    charts = {
        "by_seat": [
            {"label": f"{place_name(r['seat'] + 1)} to play", "win_rate": r["win_rate"]}
            for r in figures["statistics"]["win_rate_by_seat"]
        ],
        "players": [
            {
                "name": p["name"],
                "win_rate": p["win_rate"],
                "luck": p["luck"]["average_percentile"],
            }
            for p in figures["statistics"]["players"]
        ],
    }
    return render_template("statistics.html", **figures, charts=charts)
