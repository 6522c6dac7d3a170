"""The "Log a result" page: a game recorded by who played and how they finished, in one screen."""

from __future__ import annotations

import datetime as dt
from typing import Any
from uuid import UUID

from flask import g, render_template, request

from service.records.errors import DomainError, Invalid
from service.records.recording import results
from service.web import session
from service.web.views import blueprint


@blueprint.get("/club/<uuid:club_id>/log-result")
def log_result(club_id: UUID):
    form = results.log_result_form(
        session.records(), club_id, session.principal(), request.args.get("engine")
    )
    return render_template("log_result.html", **form, given={})


@blueprint.post("/club/<uuid:club_id>/log-result")
def record_result(club_id: UUID):
    engine = request.form.get("engine", "")
    records, principal = session.records(), session.principal()
    try:
        logged = results.record_result(records, club_id, principal, _play(engine), g.get("request_id"))
    except DomainError as error:
        if error.code in ("not-found", "admin-only", "token-required", "invalid-token"):
            raise
        # The form again, as it was filled in, with what was wrong in plain words.
        form = results.log_result_form(records, club_id, principal, engine)
        return render_template("log_result.html", **form, given=request.form, problem=error.detail), 422
    form = results.log_result_form(records, club_id, principal, engine)
    return render_template("log_result.html", **form, given={}, logged=logged), 201


def _play(engine: str) -> results.Play:
    """The result the form describes: every player given a place or a score, in the page's order."""
    chosen, places, scores = [], [], []
    for player in (_id(p, "player") for p in request.form.getlist("player")):
        place, score = (
            request.form.get(f"place-{player}", ""),
            request.form.get(f"score-{player}", "").strip(),
        )
        if not place and not score:
            continue
        chosen.append(player)
        places.append(_number(place, int, "A place"))
        scores.append(_number(score, float, "A score"))
    if not chosen:
        raise Invalid("result-no-players", "Tap a place (or enter a score) for each player who played.")
    for given, what in ((places, "place"), (scores, "score")):
        if any(v is None for v in given) and any(v is not None for v in given):
            raise Invalid("result-one-per-player", f"Give every player who played a {what}, or nobody.")
    return results.Play(
        engine=engine,
        players=chosen,
        scores=None if scores[0] is None else scores,
        places=None if places[0] is None else places,
        played_on=_day(request.form.get("played_on", "")),
        minutes=_number(request.form.get("minutes", ""), int, "The length"),
        note=_text(request.form.get("note", "")) or None,
        league=_id(request.form["league"], "league") if request.form.get("league") else None,
    )


def _id(value: str, what: str) -> str:
    """A player or league the page offered (its id)."""
    try:
        return str(UUID(value))
    except ValueError:
        raise Invalid(f"bad-{what}", f"Choose the {what} from the page.") from None


def _text(value: str) -> str:
    if "\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise Invalid("bad-text", "The note holds a character that cannot be kept.")
    return value.strip()


def _number(text: str, kind: type, what: str) -> Any:
    if not text.strip():
        return None
    try:
        return kind(text)
    except ValueError:
        raise Invalid("bad-number", f"{what} is a number.") from None


def _day(text: str) -> dt.date:
    if not text:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise Invalid("bad-date", "The day is a date (year, month, day).") from None
