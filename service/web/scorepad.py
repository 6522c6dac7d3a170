"""The scorepad's pages: a table game entered tap by tap.

Every tap of the page (a card picked, a die, an entry, an undo) comes through
htmx and is answered with the scorepad's live part alone, swapped in place; a
browser without JavaScript gets the same forms and links as whole pages (an
entry then redirects back to the scorepad, its refusal flashed). A tap that
narrows an entry (``?actor=&p=``) keeps the picks as the caller's
half-entered set, which every later drawing of the pad shows (``sets``).
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from flask import flash, g, redirect, render_template, request, url_for

from engines.base import RuleViolation
from service.records.errors import Conflict, Forbidden, Invalid
from service.records.pages import entries, scorepad_page
from service.web import posted, session
from service.web.views import blueprint


def _render(
    game_id: UUID,
    actor: str | None = None,
    picks: list[str] | None = None,
    refused: str = "",
    typed: dict[str, Any] | None = None,
    entered: bool = False,
):
    """The pad, each actor's half-entered set as the caller left it (``actor``: a tap keeps ``picks`` as its set)."""
    page = scorepad_page.scorepad(
        session.records(), game_id, session.principal(), actor, picks or [], entered
    )
    template = "_scorepad.html" if posted.swapped() else "scorepad.html"
    return render_template(template, **page, refused=refused, typed=typed)


def _answered(game_id: UUID, refused: str, entered: bool = False):
    """After an entry or an undo: the pad in place (a refused number still
    typed in its field; what the entry forced said in this answer alone), or
    a redirect to the page."""
    if posted.swapped():
        return _render(game_id, refused=refused, typed=posted.typed() if refused else None, entered=entered)
    if refused:
        flash(refused, "refused")
    return redirect(url_for("web.scorepad", game_id=game_id), 303)


@blueprint.get("/game/<uuid:game_id>/scorepad")
def scorepad(game_id: UUID):
    return _render(game_id, request.args.get("actor"), request.args.getlist("p"))


@blueprint.post("/game/<uuid:game_id>/scorepad")
def enter(game_id: UUID):
    seat = request.form.get("seat", "")
    then = _roll(request.form.get("then", ""))
    refused = ""
    try:
        command = posted.command()
        entries.record_entry(
            session.records(),
            game_id,
            session.principal(),
            None if seat in ("", "table") else posted.seat(seat),
            command,
            posted.version(),
            g.get("request_id"),
            then,
        )
    except (Conflict, Forbidden, Invalid, RuleViolation) as error:
        refused = posted.why(error)
    return _answered(game_id, refused, entered=not refused)


def _roll(value: str) -> dict[str, Any] | None:
    """The scorepad's ``then`` field: the die rolled on the same tap, or none."""
    if not value:
        return None
    try:
        roll: Any = json.loads(value)
    except ValueError as exc:
        raise Invalid("bad-command", "The roll is not a command.") from exc
    if not isinstance(roll, dict) or "type" not in roll:
        raise Invalid("bad-command", "The roll is not a command.")
    return roll


@blueprint.post("/game/<uuid:game_id>/scorepad/nobody-else")
def enter_pass_window(game_id: UUID):
    """The table's "Nobody else reacts": every seat still able to answer passes (and the dice then rolled), in one tap."""
    refused = ""
    try:
        entries.record_pass_window(
            session.records(),
            game_id,
            session.principal(),
            posted.version(),
            g.get("request_id"),
            _roll(request.form.get("then", "")),
        )
    except (Conflict, Forbidden, Invalid, RuleViolation) as error:
        refused = posted.why(error)
    return _answered(game_id, refused, entered=not refused)


@blueprint.post("/game/<uuid:game_id>/scorepad/let-try-again")
def let_try_again(game_id: UUID):
    """The recorder lets players whose entries of their cards were refused too often enter them again."""
    entries.let_seats_try_again(session.records(), game_id, session.principal())
    return _answered(game_id, "")


@blueprint.post("/game/<uuid:game_id>/undo")
def undo(game_id: UUID):
    refused = ""
    try:
        entries.undo_last_entry(
            session.records(), game_id, session.principal(), posted.version(), g.get("request_id")
        )
    except (Conflict, Invalid) as error:
        refused = posted.why(error)
    return _answered(game_id, refused)
