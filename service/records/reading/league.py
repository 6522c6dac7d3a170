"""League maths shared by standings and statistics: a game's result and its
lifecycle, points by place, the rating's ordinal and the ranking key.

A league game's result lives from its ``GameEnded`` until an
``ActionsRetracted`` takes the game back before that end (a later
``GameEnded`` sets the new result); ``GameAbandoned`` means it never counts.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import Any

from service.records.club.clubs import DEFAULT_POINTS
from service.records.log.fold import (
    ACTIONS_RETRACTED,
    GAME_ABANDONED,
    GAME_CREATED,
    GAME_ENDED,
    RESULT_RECORDED,
)
from service.records.log.store import StoredEvent
from service.records.reading.ratings import ordinal  # noqa: F401 - the ranking's rating, read from here too

TIE_BREAKS = ["points", "wins", "rating", "average_score", "fewer_games"]

ENDED, REOPENED, ABANDONED = "ended", "reopened", "abandoned"


def result_change(status: str, ended_version: int | None, event: StoredEvent) -> str | None:
    """What ``event`` does to the result of a game that is ``status`` (ended
    at ``ended_version``): ``ENDED``, ``REOPENED`` (a retraction took the end
    back), ``ABANDONED``, or None (nothing)."""
    if event.type == GAME_ENDED:
        return ENDED
    if event.type == ACTIONS_RETRACTED:
        reopened = status == "finished" and ended_version > int(event.data["to_version"])
        return REOPENED if reopened else None
    if event.type == GAME_ABANDONED:
        return ABANDONED
    return None


def game_result(event: StoredEvent, seats: int) -> dict[str, Any]:
    """The places, scores and way of ending of a ``GameEnded``; one that does
    not fit the game's seats is refused (``ValueError``). A result logged
    without scores has none (``scores`` None), never zeros."""
    places = [int(p) for p in event.data["places"]]
    given = event.data.get("scores")
    scores = [float(s) for s in given] if given else None
    if len(places) != seats or (scores is not None and len(scores) != len(places)) or min(places) < 1:
        raise ValueError(f"GameEnded places {places} / scores {scores} do not fit {seats} seats")
    return {"places": places, "scores": scores, "ended_by": event.data.get("ended_by") or ""}


def day_given(event: StoredEvent) -> dt.date | None:
    """The day a game was played as its record gives it: a result's
    ``played_on`` (``ResultRecorded``), or an imported game's ``played_at``
    (its ``GameCreated``); None when the record leaves it to the game's end
    (``day_ended``)."""
    if event.type == RESULT_RECORDED and event.data.get("played_on"):
        return dt.date.fromisoformat(str(event.data["played_on"]))
    if event.type == GAME_CREATED and event.data.get("played_at"):
        return dt.datetime.fromisoformat(str(event.data["played_at"])).astimezone().date()
    return None


def day_ended(event: StoredEvent) -> dt.date:
    """The day a game recorded as it was played ended: its ``GameEnded``'s day, here."""
    return event.recorded_at.astimezone().date()


def rating_order(played_on: dt.date, first_end_position: float) -> tuple[dt.date, float]:
    """Where a game stands in its league's rating order: by the day it was
    played, then (games of one day) by the position at which it first ended,
    so a corrected result keeps its place and history logged late takes its own."""
    return (played_on, first_end_position)


def points_for(table: Sequence[float], place: int) -> float:
    return float(table[place - 1]) if 1 <= place <= len(table) else 0.0


def rank_key(points: float, wins: int, rating: float, average: float | None, games: int) -> tuple:
    """Smaller sorts first. Floats are rounded so noise never breaks a tie; a
    player with no score recorded comes after those with an average score."""
    return (
        -round(points, 9),
        -wins,
        -round(rating, 9),
        -round(average, 9) if average is not None else math.inf,
        games,
    )


def league_info(league: dict[str, Any]) -> dict[str, Any]:
    """A league as its readers show it (the default points table filled in)."""
    return {**league, "points_table": league["points_table"] or DEFAULT_POINTS}
