"""The tournament pages: the club's tournaments and a new one, one tournament
run by its organiser (players entered, rounds seated, swaps, each table's
game started or its result logged), and its page for the room's screen.
Each view parses the form, calls one domain function and renders; a refused
form comes back with its input and the problem in plain words."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Response, g, redirect, render_template, request, url_for

from service.records.competitions import running
from service.records.errors import Conflict, DomainError, Invalid
from service.records.pages import tournament_page
from service.web import session
from service.web.views import blueprint

#: Refusals that are not about the form: the error page answers them.
NOT_THE_FORM = ("not-found", "admin-only", "members-only", "token-required", "invalid-token")


@blueprint.get("/club/<uuid:club_id>/tournaments")
def tournaments(club_id: UUID):
    page = tournament_page.tournaments_page(session.records(), club_id, session.principal())
    return render_template("tournaments.html", **page, form={})


@blueprint.post("/club/<uuid:club_id>/tournaments")
def create_tournament(club_id: UUID):
    records, principal = session.records(), session.principal()
    try:
        spec = {
            "name": request.form.get("name", ""),
            "engine": request.form.get("engine", ""),
            "league": _id(request.form.get("league", ""), "league") or None,
            "rounds": _whole(request.form.get("rounds", ""), "The number of rounds"),
            "final_table": _whole(request.form.get("final_table", ""), "The final table") or None,
        }
        if spec["rounds"] is None:
            raise Invalid("tournament-rounds", "Say how many rounds the tournament plays.")
        created = running.create_tournament(records, club_id, principal, spec, g.get("request_id"))
    except DomainError as refused:
        if refused.code in NOT_THE_FORM:
            raise
        page = tournament_page.tournaments_page(records, club_id, principal)
        body = render_template("tournaments.html", **page, form=request.form, problem=refused.detail)
        return Response(body, status=_status(refused))
    return redirect(url_for("web.tournament", tournament_id=created["id"]), 303)


@blueprint.get("/tournament/<uuid:tournament_id>")
def tournament(tournament_id: UUID):
    page = tournament_page.tournament_page(session.records(), tournament_id, session.principal())
    return render_template("tournament.html", **page, given={})


@blueprint.get("/tournament/<uuid:tournament_id>/screen")
def tournament_screen(tournament_id: UUID):
    page = tournament_page.tournament_screen(session.records(), tournament_id, session.principal())
    return render_template("tournament_screen.html", **page)


@blueprint.get("/tournament/<uuid:tournament_id>/screen/live")
def tournament_screen_live(tournament_id: UUID):
    """The screen's tables and standings, redrawn as the club's stream moves."""
    page = tournament_page.tournament_page(session.records(), tournament_id, session.principal())
    return render_template("_tournament_screen.html", **page)


@blueprint.post("/tournament/<uuid:tournament_id>/players")
def enter_players(tournament_id: UUID):
    return _run(
        tournament_id,
        lambda r, p, rid: running.enter_players(
            r, tournament_id, p, [_id(x, "player") for x in request.form.getlist("player")], rid
        ),
    )


@blueprint.post("/tournament/<uuid:tournament_id>/players/<uuid:player_id>/withdraw")
def withdraw_player(tournament_id: UUID, player_id: UUID):
    return _run(
        tournament_id, lambda r, p, rid: running.withdraw_player(r, tournament_id, p, str(player_id), rid)
    )


@blueprint.post("/tournament/<uuid:tournament_id>/rounds")
def seat_round(tournament_id: UUID):
    return _run(tournament_id, lambda r, p, rid: running.seat_round(r, tournament_id, p, rid))


@blueprint.post("/tournament/<uuid:tournament_id>/swap")
def swap_players(tournament_id: UUID):
    def swap(records, principal, request_id):
        chosen = [_id(request.form.get(f"swap-{i}", ""), "player") for i in (1, 2)]
        if not all(chosen):
            raise Invalid("swap-two-players", "Choose the two players to swap.")
        return running.swap_players(records, tournament_id, principal, chosen, request_id)

    return _run(tournament_id, swap)


@blueprint.post("/tournament/<uuid:tournament_id>/tables/<int:table>/game")
def start_table_game(tournament_id: UUID, table: int):
    try:
        view = running.start_table_game(
            session.records(), tournament_id, session.principal(), table, {}, g.get("request_id")
        )
    except DomainError as refused:
        if refused.code in NOT_THE_FORM:
            raise
        return _again(tournament_id, refused)
    game = next(t["game"] for t in view["played"][-1]["tables"] if t["table"] == table)
    return redirect(url_for("web.scorepad", game_id=game), 303)


@blueprint.post("/tournament/<uuid:tournament_id>/tables/<int:table>/result")
def log_table_result(tournament_id: UUID, table: int):
    def log(records, principal, request_id):
        finished = []
        for player in (_id(p, "player") for p in request.form.getlist("player")):
            place = _whole(request.form.get(f"place-{table}-{player}", ""), "A place")
            if place is None:
                raise Invalid("result-one-per-player", "Tap a place for every player of the table.")
            finished.append({"player": player, "place": place, "score": None})
        return running.log_table_result(records, tournament_id, principal, table, finished, None, request_id)

    return _run(tournament_id, log)


def _run(tournament_id: UUID, write) -> Any:
    """One write; back to the tournament's page, or the page again with the problem."""
    try:
        write(session.records(), session.principal(), g.get("request_id"))
    except DomainError as refused:
        if refused.code in NOT_THE_FORM:
            raise
        return _again(tournament_id, refused)
    return redirect(url_for("web.tournament", tournament_id=tournament_id), 303)


def _again(tournament_id: UUID, refused: DomainError) -> Response:
    page = tournament_page.tournament_page(session.records(), tournament_id, session.principal())
    body = render_template("tournament.html", **page, given=request.form, problem=refused.detail)
    return Response(body, status=_status(refused))


def _status(refused: DomainError) -> int:
    return 409 if isinstance(refused, Conflict) else 422


def _id(value: str, what: str) -> str:
    """A player or league the page offered (its id); empty when none was chosen."""
    if not value:
        return ""
    try:
        return str(UUID(value))
    except ValueError:
        raise Invalid(f"bad-{what}", f"Choose the {what} from the page.") from None


def _whole(text: str, what: str) -> int | None:
    if not text.strip():
        return None
    try:
        return int(text)
    except ValueError:
        raise Invalid("bad-number", f"{what} is a whole number.") from None
