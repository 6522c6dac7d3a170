"""The organiser's "Bring in your history" page: choose a file, see what will
come in, choose a game for each name the service does not know, import it and
follow its progress (htmx: the import's answer and its progress are swapped in
place; without scripts the form posts and the report comes as a page)."""

from __future__ import annotations

import json
from uuid import UUID

from flask import Response, g, render_template, request

from service.records.errors import DomainError, Invalid
from service.records.history import bgstats
from service.records.pages import history_import_page
from service.web import posted, session
from service.web.views import blueprint

#: Answers for the organiser's own mistakes: the page again, saying what was wrong.
ACCESS = ("not-found", "admin-only", "token-required", "invalid-token")


@blueprint.get("/club/<uuid:club_id>/history")
def history_import(club_id: UUID):
    form = history_import_page.import_form(session.records(), club_id, session.principal())
    return render_template("history_import.html", **form, given={})


@blueprint.post("/club/<uuid:club_id>/history")
def history_choose(club_id: UUID):
    upload = request.files.get("file")
    records, principal = session.records(), session.principal()
    try:
        if upload is None or not upload.filename:
            raise Invalid("history-no-file", "Choose the file to bring in.")
        page = history_import_page.choose_file(
            records,
            club_id,
            principal,
            upload.filename,
            upload.read(),
            request.form.get("format") or None,
            _league(request.form.get("league", "")),
        )
    except DomainError as error:
        if error.code in ACCESS:
            raise
        form = history_import_page.import_form(records, club_id, principal)
        return render_template("history_import.html", **form, given=request.form, problem=error.detail), 422
    return render_template("history_preview.html", **page)


@blueprint.post("/club/<uuid:club_id>/history/<uuid:upload_id>/check")
def history_check(club_id: UUID, upload_id: UUID):
    page = history_import_page.preview_page(
        session.records(), club_id, session.principal(), upload_id, _mapping()
    )
    return render_template("history_preview.html", **page)


@blueprint.post("/club/<uuid:club_id>/history/<uuid:upload_id>/import")
def history_run(club_id: UUID, upload_id: UUID):
    records, principal, mapping = session.records(), session.principal(), _mapping()
    try:
        report = history_import_page.run_import(
            records, club_id, principal, upload_id, mapping, g.get("request_id")
        )
    except DomainError as error:
        if error.code in ACCESS:
            raise
        page = history_import_page.preview_page(records, club_id, principal, upload_id, mapping)
        if posted.swapped():  # htmx swaps a 2xx answer only: the refusal in place
            return render_template("_history_outcome.html", **page, problem=error.detail)
        return render_template("history_preview.html", **page, problem=error.detail), 422
    if posted.swapped():
        return render_template("_history_outcome.html", report=report)
    return render_template("history_done.html", report=report), 201


@blueprint.get("/club/<uuid:club_id>/history/<uuid:upload_id>/progress")
def history_progress(club_id: UUID, upload_id: UUID):
    state = history_import_page.progress(session.records(), club_id, session.principal(), upload_id)
    return render_template("_history_progress.html", **state)


@blueprint.get("/club/<uuid:club_id>/plays.bgsplay")
def plays_for_bg_stats(club_id: UUID):
    """The club's plays (the organiser) or a member's own, as a BG Stats file."""
    principal = session.principal()
    player = principal.player_id if principal is not None and principal.is_member else None
    body = bgstats.plays_file(session.records(), club_id, principal, player_id=player)
    return Response(
        json.dumps(body, ensure_ascii=False),
        content_type="application/json; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="plays.bgsplay"'},
    )


def _mapping() -> dict[str, str]:
    """The games chosen for the file's names (a name left out is not mapped)."""
    names, games = request.form.getlist("name"), request.form.getlist("game")
    return {name: game for name, game in zip(names, games, strict=False) if game}


def _league(value: str) -> UUID | None:
    if not value:
        return None
    try:
        return UUID(value)
    except ValueError:
        raise Invalid("bad-league", "Choose the league from the page.") from None
