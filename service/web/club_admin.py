"""The organiser's pages: a new club, its players and their member sign-ins,
its leagues, its apps' tokens, and the admin token's replacement. Each view parses the form,
calls one domain function and renders; a refused form comes back with its
input and the problem beside the field."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import segno
from flask import Response, redirect, render_template, request, url_for
from markupsafe import Markup

from engines import registry
from service.records.club import apps, clubs, merges, sign_ins
from service.records.errors import Conflict, Invalid
from service.records.pages import club_pages
from service.web import session
from service.web.views import blueprint


@blueprint.app_template_filter("qr")
def _qr(link: str) -> Markup:
    """The link as a QR code, an inline SVG (nothing loaded from elsewhere)."""
    code = segno.make(link, error="m")
    svg = code.svg_inline(scale=4, border=2, dark="#000", light="#fff", omitsize=False)
    return Markup(svg)  # segno's own markup; the link is encoded in its modules, not as text


@blueprint.app_template_filter("sign_in_link")
def sign_in_link(token: str) -> str:
    """The link that signs its holder in with ``token`` (the token after "#": never sent to a server's log)."""
    return url_for("web.welcome", _external=True) + "#" + token


def _name(field: str = "name") -> str:
    """The form's name as typed; the domain's rule for names judges it."""
    return request.form.get(field, "")


# -- a new club ----------------------------------------------------------------------


@blueprint.post("/new-club")
def new_club():
    try:
        club = clubs.create_club(session.records(), _name())
    except Invalid as refused:
        body = render_template(
            "home.html", next="", club_error=refused.detail, club_name=request.form.get("name", "")
        )
        return Response(body, status=422)
    response = Response(status=200)
    session.sign_in(response, club["admin_token"])
    response.set_data(
        render_template("admin_sign_in.html", club=club, link=sign_in_link(club["admin_token"]), new=True)
    )
    return session.shows_a_sign_in(response)


@blueprint.post("/club/<uuid:club_id>/admin-token")
def rotate_admin_token(club_id: UUID):
    """A new admin sign-in; this browser stays signed in with it, every other
    holder of the old one is signed out."""
    rotated = sign_ins.rotate_admin_token(session.records(), club_id, session.principal())
    club = {"id": club_id, "name": None}
    response = Response(status=200)
    session.sign_in(response, rotated["admin_token"])
    response.set_data(
        render_template("admin_sign_in.html", club=club, link=sign_in_link(rotated["admin_token"]), new=False)
    )
    return session.shows_a_sign_in(response)


# -- players -------------------------------------------------------------------------


@blueprint.get("/club/<uuid:club_id>/players")
def players(club_id: UUID):
    return render_template(
        "players.html", **club_pages.players_page(session.records(), club_id, session.principal())
    )


def _players_again(club_id: UUID, status: int, **errors: Any) -> Response:
    page = club_pages.players_page(session.records(), club_id, session.principal())
    return Response(render_template("players.html", **page, form=request.form, **errors), status=status)


@blueprint.post("/club/<uuid:club_id>/players")
def add_player(club_id: UUID):
    try:
        clubs.add_player(session.records(), club_id, session.principal(), _name())
    except (Invalid, Conflict) as refused:
        return _players_again(
            club_id, 409 if isinstance(refused, Conflict) else 422, add_error=refused.detail
        )
    return redirect(url_for("web.players", club_id=club_id), 303)


@blueprint.post("/club/<uuid:club_id>/players/<uuid:player_id>")
def update_player(club_id: UUID, player_id: UUID):
    changes: dict[str, Any] = {}
    try:
        if "retired" in request.form:
            changes["retired"] = request.form["retired"] == "yes"
        else:
            changes["name"] = _name()
        clubs.update_player(session.records(), club_id, player_id, session.principal(), changes)
    except (Invalid, Conflict) as refused:
        status = 409 if isinstance(refused, Conflict) else 422
        return _players_again(club_id, status, edit_error=refused.detail, edit_player=str(player_id))
    return redirect(url_for("web.players", club_id=club_id), 303)


@blueprint.post("/club/<uuid:club_id>/players/<uuid:player_id>/merge")
def merge_player(club_id: UUID, player_id: UUID):
    try:
        into = UUID(request.form.get("into", ""))
    except ValueError:
        return _players_again(
            club_id, 422, merge_error="Choose the player to keep.", merge_player=str(player_id)
        )
    try:
        merges.merge_players(session.records(), club_id, player_id, into, session.principal())
    except (Invalid, Conflict) as refused:
        status = 409 if isinstance(refused, Conflict) else 422
        return _players_again(club_id, status, merge_error=refused.detail, merge_player=str(player_id))
    return redirect(url_for("web.players", club_id=club_id), 303)


@blueprint.post("/club/<uuid:club_id>/players/<uuid:player_id>/unmerge")
def unmerge_player(club_id: UUID, player_id: UUID):
    try:
        merges.unmerge_player(session.records(), club_id, player_id, session.principal())
    except Conflict as refused:
        return _players_again(club_id, 409, merge_error=refused.detail)
    return redirect(url_for("web.players", club_id=club_id), 303)


@blueprint.post("/club/<uuid:club_id>/players/<uuid:player_id>/sign-in")
def issue_member_sign_in(club_id: UUID, player_id: UUID):
    issued = sign_ins.issue_member_sign_in(session.records(), club_id, player_id, session.principal())
    page = render_template(
        "member_sign_in.html", club_id=club_id, member=issued, link=sign_in_link(issued["token"])
    )
    return session.shows_a_sign_in(Response(page))


@blueprint.post("/club/<uuid:club_id>/players/<uuid:player_id>/sign-in/revoke")
def revoke_member_sign_in(club_id: UUID, player_id: UUID):
    sign_ins.revoke_member_sign_in(session.records(), club_id, player_id, session.principal())
    return redirect(url_for("web.players", club_id=club_id), 303)


# -- leagues -------------------------------------------------------------------------


@blueprint.get("/club/<uuid:club_id>/leagues")
def leagues(club_id: UUID):
    return render_template(
        "leagues.html", **club_pages.leagues_page(session.records(), club_id, session.principal())
    )


def _leagues_again(club_id: UUID, status: int, **errors: Any) -> Response:
    page = club_pages.leagues_page(session.records(), club_id, session.principal())
    return Response(render_template("leagues.html", **page, form=request.form, **errors), status=status)


@blueprint.post("/club/<uuid:club_id>/leagues")
def create_league(club_id: UUID):
    engine = request.form.get("engine") or None
    try:
        spec = {
            "name": _name(),
            "engine": engine,
            "season": _name("season"),
            "points_table": None,
            "min_games": _whole("min_games", 1),
            "public": request.form.get("public") == "on",
        }
        if engine is not None and engine not in registry.available():
            raise Invalid("unknown-engine", "Please pick a game from the list.")
        clubs.create_league(session.records(), club_id, session.principal(), spec)
    except (Invalid, Conflict) as refused:
        return _leagues_again(
            club_id, 409 if isinstance(refused, Conflict) else 422, add_error=refused.detail
        )
    return redirect(url_for("web.leagues", club_id=club_id), 303)


@blueprint.post("/club/<uuid:club_id>/leagues/<uuid:league_id>")
def update_league(club_id: UUID, league_id: UUID):
    try:
        if "closed" in request.form:
            changes: dict[str, Any] = {"closed": request.form["closed"] == "yes"}
        else:
            changes = {
                "name": _name(),
                "season": _name("season"),
                "public": request.form.get("public") == "on",
            }
        clubs.update_league(session.records(), club_id, league_id, session.principal(), changes)
    except (Invalid, Conflict) as refused:
        status = 409 if isinstance(refused, Conflict) else 422
        return _leagues_again(club_id, status, edit_error=refused.detail, edit_league=str(league_id))
    return redirect(url_for("web.leagues", club_id=club_id), 303)


# -- apps ----------------------------------------------------------------------------


@blueprint.get("/club/<uuid:club_id>/apps")
def apps_list(club_id: UUID):
    return render_template(
        "apps.html", **club_pages.apps_page(session.records(), club_id, session.principal())
    )


@blueprint.post("/club/<uuid:club_id>/apps")
def make_app(club_id: UUID):
    try:
        made = apps.make_app(
            session.records(), club_id, session.principal(), _name(), request.form.getlist("scope")
        )
    except Invalid as refused:
        page = club_pages.apps_page(session.records(), club_id, session.principal())
        body = render_template(
            "apps.html", **page, form=request.form, scopes=request.form.getlist("scope"), error=refused
        )
        return Response(body, status=422)
    page = render_template("app_token.html", club_id=club_id, app=made, scope_words=club_pages.SCOPE_WORDS)
    return session.shows_a_sign_in(Response(page))


@blueprint.post("/club/<uuid:club_id>/apps/<uuid:app_id>/revoke")
def revoke_app(club_id: UUID, app_id: UUID):
    apps.revoke_app(session.records(), club_id, app_id, session.principal())
    return redirect(url_for("web.apps_list", club_id=club_id), 303)


def _whole(field: str, default: int) -> int:
    value = request.form.get(field, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) > 1000:
        raise Invalid("bad-number", "Games to be ranked is a whole number from 0 to 1000.")
    return int(value)
