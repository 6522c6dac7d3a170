"""The game night pages: the club's nights and a new one posted by its
organiser, and one night, where a member answers yes, no or maybe (with the
games they want to play) and the organiser reads everyone's answers. Each
view parses the form, calls one domain function and renders; a refused form
comes back with its input and the problem in plain words."""

from __future__ import annotations

import datetime as dt
from uuid import UUID

from flask import Response, g, redirect, render_template, request, url_for

from service.records.competitions import evenings
from service.records.errors import Conflict, DomainError, Invalid
from service.records.pages import night_page
from service.web import session
from service.web.views import blueprint

#: Refusals that are not about the form: the error page answers them.
NOT_THE_FORM = (
    "not-found",
    "admin-only",
    "members-only",
    "members-answer",
    "token-required",
    "invalid-token",
)


@blueprint.get("/club/<uuid:club_id>/game-nights")
def game_nights(club_id: UUID):
    page = night_page.nights_page(session.records(), club_id, session.principal())
    return render_template("game_nights.html", **page, form={})


@blueprint.post("/club/<uuid:club_id>/game-nights")
def post_game_night(club_id: UUID):
    records, principal = session.records(), session.principal()
    try:
        spec = {
            "day": _day(request.form.get("day", "")),
            "time": request.form.get("time", ""),
            "place": request.form.get("place", ""),
            "games": request.form.getlist("game"),
        }
        posted = evenings.post_night(records, club_id, principal, spec, g.get("request_id"))
    except DomainError as refused:
        if refused.code in NOT_THE_FORM:
            raise
        page = night_page.nights_page(records, club_id, principal)
        body = render_template("game_nights.html", **page, form=request.form, problem=refused.detail)
        return Response(body, status=_status(refused))
    return redirect(url_for("web.game_night", night_id=posted["id"]), 303)


@blueprint.get("/game-night/<uuid:night_id>")
def game_night(night_id: UUID):
    mode = request.args.get("tables")
    page = night_page.night_page(
        session.records(), night_id, session.principal(), mode if mode in night_page.MODE_WORDS else None
    )
    return render_template("game_night.html", **page, given=None)


@blueprint.post("/game-night/<uuid:night_id>/answer")
def answer_game_night(night_id: UUID):
    records, principal = session.records(), session.principal()
    try:
        evenings.answer_night(
            records,
            night_id,
            principal,
            request.form.get("answer", ""),
            request.form.getlist("game"),
            g.get("request_id"),
        )
    except DomainError as refused:
        if refused.code in NOT_THE_FORM:
            raise
        page = night_page.night_page(records, night_id, principal)
        body = render_template("game_night.html", **page, given=request.form, problem=refused.detail)
        return Response(body, status=_status(refused))
    return redirect(url_for("web.game_night", night_id=night_id), 303)


@blueprint.post("/game-night/<uuid:night_id>/present")
def mark_present(night_id: UUID):
    def mark(records, principal, request_id):
        came = [_player(p) for p in request.form.getlist("player")]
        evenings.mark_present(records, night_id, principal, came, request_id)
        return url_for("web.game_night", night_id=night_id, tables=request.form.get("tables", "balance"))

    return _run(night_id, mark)


@blueprint.post("/game-night/<uuid:night_id>/tables")
def start_night_table(night_id: UUID):
    def start(records, principal, request_id):
        seated = [_player(p) for p in request.form.getlist("player")]
        view = evenings.start_table(
            records, night_id, principal, request.form.get("engine", ""), seated, request_id
        )
        return url_for("web.scorepad", game_id=view["tables"][-1]["game"])

    return _run(night_id, start)


@blueprint.post("/game-night/<uuid:night_id>/tables/result")
def log_night_table(night_id: UUID):
    def log(records, principal, request_id):
        finished = []
        for player in (_player(p) for p in request.form.getlist("player")):
            place = request.form.get(f"place-{player}", "")
            if not place.isdigit():
                raise Invalid("result-one-per-player", "Tap a place for every player of the table.")
            finished.append({"player": player, "place": int(place), "score": None})
        engine = request.form.get("engine", "")
        evenings.log_table_result(records, night_id, principal, engine, finished, None, request_id)
        return url_for("web.game_night", night_id=night_id)

    return _run(night_id, log)


def _run(night_id: UUID, write) -> Response:
    """One write of the organiser; on to where it leads, or the night's page
    again with the problem in words."""
    records, principal = session.records(), session.principal()
    try:
        where = write(records, principal, g.get("request_id"))
    except DomainError as refused:
        if refused.code in NOT_THE_FORM:
            raise
        page = night_page.night_page(records, night_id, principal)
        body = render_template("game_night.html", **page, given=None, problem=refused.detail)
        return Response(body, status=_status(refused))
    return redirect(where, 303)


def _player(value: str) -> str:
    try:
        return str(UUID(value))
    except ValueError:
        raise Invalid("bad-player", "Choose the players from the page.") from None


def _status(refused: DomainError) -> int:
    return 409 if isinstance(refused, Conflict) else 422


def _day(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise Invalid("night-day", "Choose the day of the game night.") from None
