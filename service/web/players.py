"""The members' pages about players and past games: a player's profile, the
club's game search, and how ratings work. Registered on the site's blueprint."""

from __future__ import annotations

from uuid import UUID

from flask import render_template, request

from service.records.errors import Invalid
from service.records.pages import figure_words
from service.records.pages.standings_page import place_name
from service.records.reading import game_search, profiles
from service.records.reading.ratings import BASE, SCALE, signed
from service.web import session
from service.web.views import blueprint


def page_number() -> int:
    try:
        return int(request.args.get("page") or 1)
    except ValueError as exc:
        raise Invalid("bad-number", "The page is a whole number.") from exc


@blueprint.app_template_filter("signed")
def _signed(change: int | None) -> str:
    return signed(change)


@blueprint.app_template_filter("place")
def _place(place: int | None) -> str:
    return "–" if place is None else place_name(int(place))


@blueprint.app_template_filter("day")
def _day(moment) -> str:
    """A day as members write it: "1 Sep 2026"."""
    return f"{moment.day} {moment:%b %Y}" if moment else ""


@blueprint.app_template_filter("plural")
def _plural(count: int, one: str) -> str:
    return figure_words.plural(int(count), one)


@blueprint.app_template_filter("amount")
def _amount(value: float | None) -> str:
    return figure_words.amount(value)


@blueprint.app_template_filter("duration")
def _duration(minutes: float | None) -> str:
    return figure_words.duration(minutes)


@blueprint.get("/player/<uuid:player_id>")
def player(player_id: UUID):
    page = profiles.player_profile(session.records(), player_id, session.principal(), page_number())
    return render_template("player.html", **page, rated_games_shown=profiles.RATED_GAMES_SHOWN)


@blueprint.get("/club/<uuid:club_id>/games")
def game_search_page(club_id: UUID):
    query = game_search.parse(request.args)
    found = game_search.search(session.records(), club_id, session.principal(), query)
    return render_template("game_search.html", **found, args=request.args)


@blueprint.get("/ratings")
def about_ratings():
    return render_template("ratings.html", base=BASE, scale=SCALE)
