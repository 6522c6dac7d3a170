"""A game night as the fold of its events, and the rules each new event obeys.

A game night is a stream of its own, as a tournament is, rather than a row
edited in place: a member changes their mind (maybe, then yes), and the log
keeps every answer with who gave it and when, while the night's state is the
fold. ``GameNightPosted`` (the day, the time, the place and the games on
offer), ``AnswerGiven`` (a member's yes, no or maybe, and the games they want
to play: the latest answer of a member counts), ``PresenceMarked`` (who came,
on the night) and ``NightTableStarted`` (a table's game, on the scorepad or
logged by its result).

Everything here is pure: the state is rebuilt by folding the events, and each
``decide_*`` judges a request against the state and returns the event's data,
or raises the domain error naming the rule.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from service.records.errors import Conflict, Invalid

GAME_NIGHT_POSTED = "GameNightPosted"
ANSWER_GIVEN = "AnswerGiven"
PRESENCE_MARKED = "PresenceMarked"
NIGHT_TABLE_STARTED = "NightTableStarted"

#: A member's answers, in the order a page offers them.
ANSWERS = ("yes", "maybe", "no")

#: The most games one night offers.
MOST_GAMES = 20


@dataclass(frozen=True)
class Answer:
    answer: str
    games: tuple[str, ...] = ()


@dataclass(frozen=True)
class NightTable:
    number: int
    engine: str
    players: tuple[str, ...]
    game: str


@dataclass(frozen=True)
class Night:
    id: str
    day: dt.date
    time: str
    place: str
    games: tuple[str, ...]
    #: Each member's latest answer, by player, in the order first given.
    answers: Mapping[str, Answer] = field(default_factory=dict)
    present: tuple[str, ...] = ()
    tables: tuple[NightTable, ...] = ()
    version: int = 0

    def past(self, today: dt.date) -> bool:
        return self.day < today


def create(night_id: str, data: Mapping[str, Any]) -> Night:
    """The night a ``GameNightPosted`` starts."""
    return Night(
        id=night_id,
        day=dt.date.fromisoformat(data["day"]),
        time=data["time"],
        place=data["place"],
        games=tuple(data["games"]),
        version=1,
    )


def evolve(night: Night, event_type: str, data: Mapping[str, Any]) -> Night:
    """The night after one more event."""
    night = replace(night, version=night.version + 1)
    if event_type == ANSWER_GIVEN:
        answers = {**night.answers, data["player"]: Answer(data["answer"], tuple(data["games"]))}
        return replace(night, answers=answers)
    if event_type == PRESENCE_MARKED:
        return replace(night, present=tuple(data["players"]))
    if event_type == NIGHT_TABLE_STARTED:
        table = NightTable(len(night.tables) + 1, data["engine"], tuple(data["players"]), data["game"])
        return replace(night, tables=(*night.tables, table))
    raise ValueError(f"not a game night event: {event_type}")


def fold(night_id: str, events: Sequence[tuple[str, Mapping[str, Any]]]) -> Night:
    """The night its events (type, data), in order, make."""
    (first_type, first), *rest = events
    if first_type != GAME_NIGHT_POSTED:
        raise ValueError("a game night's stream starts with GameNightPosted")
    night = create(night_id, first)
    for event_type, data in rest:
        night = evolve(night, event_type, data)
    return night


# -- deciding ----------------------------------------------------------------------


def decide_post(
    day: dt.date, time: str, place: str, games: Sequence[str], known: Sequence[str], today: dt.date
) -> dict[str, Any]:
    """A new night: on a day not yet past, at a time of day (``HH:MM``), with
    one or more of the ``known`` games on offer (each once)."""
    if day < today:
        raise Invalid("night-in-the-past", "A game night is posted for today or a day to come.")
    try:
        at = dt.time.fromisoformat(time)
    except ValueError:
        raise Invalid("night-time", "Give the time as hours and minutes, such as 19:30.") from None
    if not games:
        raise Invalid("night-no-games", "Choose at least one game to offer.")
    if len(games) > MOST_GAMES:
        raise Invalid("night-too-many-games", f"A game night offers at most {MOST_GAMES} games.")
    if len(set(games)) != len(games) or any(g not in known for g in games):
        raise Invalid("night-games", "Offer each game once, from the club's games.")
    return {"day": day.isoformat(), "time": at.strftime("%H:%M"), "place": place, "games": list(games)}


def decide_answer(
    night: Night, player: str, answer: str, games: Sequence[str], today: dt.date
) -> dict[str, Any]:
    """A member's answer: yes, no or maybe, and which of the night's games they
    want to play (none when they say no), until the night has passed."""
    if night.past(today):
        raise Conflict("night-over", "This game night has passed: answers are closed.")
    if answer not in ANSWERS:
        raise Invalid("night-answer", "Answer yes, no or maybe.")
    wanted = list(dict.fromkeys(games))
    if any(g not in night.games for g in wanted):
        raise Invalid("night-game-not-offered", "Choose the games you want among those on offer that night.")
    return {"player": player, "answer": answer, "games": [] if answer == "no" else wanted}


def decide_presence(night: Night, players: Sequence[str], today: dt.date) -> dict[str, Any]:
    """Who came, marked on the night (or after it): any of the club's players,
    whether they answered or not; a later mark replaces the earlier one."""
    if today < night.day:
        raise Conflict("night-not-yet", "Mark who came on the night itself.")
    return {"players": list(dict.fromkeys(players))}


def decide_table(
    night: Night, engine: str, players: Sequence[str], seats: Mapping[str, tuple[int, int]]
) -> dict[str, Any]:
    """A table of the night about to start its game: a game on offer, players
    who came and sit at no other table, as many as the game seats."""
    if engine not in night.games:
        raise Invalid("night-game-not-offered", "Choose a game on offer that night.")
    if len(set(players)) != len(players) or any(p not in night.present for p in players):
        raise Invalid("night-table-players", "A table seats players who came, each once.")
    least, most = seats[engine]
    if not least <= len(players) <= most:
        raise Invalid("night-table-size", f"A table of this game seats {least} to {most} players.")
    busy = {p for t in night.tables for p in t.players}
    if busy & set(players):
        raise Conflict("night-player-seated", "A player at this table has a table already tonight.")
    return {"engine": engine, "players": list(players)}
