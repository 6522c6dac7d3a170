"""A club's tournaments and game nights as its backup carries them, and
restored into a new club (``history.backup``).

A backup carries each one as its stream: its events (type and data) in
order. Restored, every id an event names becomes the new club's (its
players, its leagues, the tables' games, each made anew by the restore), and
an id the backup does not hold refuses the line: a restored tournament or
night names nothing outside its club. Each event keeps only the fields its
type has, each of the type it has, and the stream must fold as the service
folds it (``tournaments.fold``, ``game_nights.fold``), within ``MOST_EVENTS``;
its names pass the one rule for names. The events are appended as the new
club's admin's, in the restore's one transaction.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import psycopg

from service.records.access import Principal
from service.records.club import names
from service.records.competitions import game_nights, night_log, running, tournament_log, tournaments
from service.records.errors import DomainError, Invalid
from service.records.recording import commands

#: The kinds of line a backup carries them in.
KINDS = ("tournament", "night")

Events = list[tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class NewIds:
    """The new club's ids by the backup's: its players, leagues and games."""

    players: Mapping[str, str]
    leagues: Mapping[str, UUID]
    games: Mapping[str, UUID]

    def player(self, old: Any) -> str:
        return self._known(self.players, old, "a player")

    def game(self, old: Any) -> str:
        return self._known(self.games, old, "a game")

    def league(self, old: Any) -> str | None:
        return None if old is None else self._known(self.leagues, old, "a league")

    @staticmethod
    def _known(new: Mapping[str, Any], old: Any, what: str) -> str:
        if str(old) not in new:
            raise Invalid("backup-refused", f"It names {what} the backup does not hold.")
        return str(new[str(old)])


@dataclass(frozen=True)
class Carried:
    """A tournament or a night of a backup under its new id, not stored yet."""

    kind: str
    id: UUID
    created_at: dt.datetime | None
    events: Events


def lines(conn: psycopg.Connection, club_id: UUID) -> Iterator[dict[str, Any]]:
    """The club's tournaments (oldest first), then its nights (earliest day first), one line each."""
    for row in tournament_log.every_of_club(conn, club_id):
        yield {"tournament": _content(row, tournament_log.read(conn, row["id"]))}
    for row in night_log.every_of_club(conn, club_id):
        yield {"night": _content(row, night_log.read(conn, row["id"]))}


def _content(row: dict[str, Any], events: Events) -> dict[str, Any]:
    return {
        "id": row["id"],
        "created_at": row["created_at"],
        "events": [{"type": t, "data": d} for t, d in events],
    }


def restored(kind: str, content: Any, ids: NewIds) -> Carried:
    """A backup's tournament or night (``kind``) with the new club's ids,
    checked as the module says; ``Invalid`` (backup-refused) names what is wrong."""
    what = "tournament" if kind == "tournament" else "game night"
    try:
        given = content["events"]
        if not isinstance(given, list) or not given:
            raise TypeError("no events")
        most = tournament_log.MOST_EVENTS if kind == "tournament" else night_log.MOST_EVENTS
        if len(given) > most:
            raise Invalid("backup-refused", f"A {what} holds at most {most} events.")
        renamed = _TOURNAMENT if kind == "tournament" else _NIGHT
        events = []
        for event in given:
            event_type, data = str(event["type"]), event["data"]
            if event_type not in renamed:
                raise Invalid("backup-refused", f"Its event {event_type!r} is not an event of a {what}.")
            events.append((event_type, renamed[event_type](data, ids)))
        new_id = uuid.uuid4()
        if kind == "tournament":
            tournaments.fold(str(new_id), events, running.seat_range(events[0][1]["engine"]))
        else:
            game_nights.fold(str(new_id), events)
        created_at = content.get("created_at")
        return Carried(kind, new_id, dt.datetime.fromisoformat(created_at) if created_at else None, events)
    except DomainError as error:
        raise Invalid("backup-refused", f"Its {what}: {error.detail}") from error
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        raise Invalid("backup-refused", f"It is not a {what} as the service keeps one.") from error


def store(
    conn: psycopg.Connection,
    club_id: UUID,
    carried: Sequence[Carried],
    principal: Principal,
    request_id: str | None,
) -> None:
    """Insert the tournaments and nights and append their events, in the caller's transaction."""
    metadata = {"actor": principal.label(), "request_id": request_id}
    for c in carried:
        if c.kind == "tournament":
            tournament_log.insert(conn, c.id, club_id, c.created_at)
            tournament_log.append(conn, c.id, club_id, 0, c.events, metadata)
        else:
            day = dt.date.fromisoformat(c.events[0][1]["day"])
            night_log.insert(conn, c.id, club_id, day, c.created_at)
            night_log.append(conn, c.id, club_id, 0, c.events, metadata)


# -- each event's fields, its ids the new club's --------------------------------------


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("not a whole number")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("not true or false")
    return value


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError("not a list")
    return value


def _engine(value: Any) -> str:
    return commands.known_engine(str(value))


def _created(data: Mapping[str, Any], ids: NewIds) -> dict[str, Any]:
    final = data["final_table"]
    return {
        "name": names.name(data["name"]),
        "engine": _engine(data["engine"]),
        "league": ids.league(data["league"]),
        "rounds": _int(data["rounds"]),
        "final_table": None if final is None else _int(final),
    }


def _seated(data: Mapping[str, Any], ids: NewIds) -> dict[str, Any]:
    return {
        "tables": [[ids.player(p) for p in _list(table)] for table in _list(data["tables"])],
        "sitting_out": [ids.player(p) for p in _list(data["sitting_out"])],
        "final": _flag(data["final"]),
    }


def _posted(data: Mapping[str, Any], ids: NewIds) -> dict[str, Any]:
    return {
        "day": dt.date.fromisoformat(data["day"]).isoformat(),
        "time": dt.time.fromisoformat(data["time"]).strftime("%H:%M"),
        "place": names.name(data["place"], "place"),
        "games": [_engine(g) for g in _list(data["games"])],
    }


def _answer(data: Mapping[str, Any], ids: NewIds) -> dict[str, Any]:
    if data["answer"] not in game_nights.ANSWERS:
        raise ValueError("not an answer")
    return {
        "player": ids.player(data["player"]),
        "answer": data["answer"],
        "games": [_engine(g) for g in _list(data["games"])],
    }


Renaming = Callable[[Mapping[str, Any], NewIds], dict[str, Any]]

_TOURNAMENT: dict[str, Renaming] = {
    tournaments.TOURNAMENT_CREATED: _created,
    tournaments.PLAYER_ENTERED: lambda data, ids: {"player": ids.player(data["player"])},
    tournaments.PLAYER_WITHDRAWN: lambda data, ids: {"player": ids.player(data["player"])},
    tournaments.ROUND_SEATED: _seated,
    tournaments.PLAYERS_SWAPPED: lambda data, ids: {
        "round": _int(data["round"]),
        "players": [ids.player(p) for p in _list(data["players"])],
    },
    tournaments.TABLE_GAME_STARTED: lambda data, ids: {
        "round": _int(data["round"]),
        "table": _int(data["table"]),
        "game": ids.game(data["game"]),
    },
}

_NIGHT: dict[str, Renaming] = {
    game_nights.GAME_NIGHT_POSTED: _posted,
    game_nights.ANSWER_GIVEN: _answer,
    game_nights.PRESENCE_MARKED: lambda data, ids: {
        "players": [ids.player(p) for p in _list(data["players"])]
    },
    game_nights.NIGHT_TABLE_STARTED: lambda data, ids: {
        "engine": _engine(data["engine"]),
        "players": [ids.player(p) for p in _list(data["players"])],
        "game": ids.game(data["game"]),
    },
}
