"""What a webhook is told: the events derived from the log, and each
delivery's body in its webhook's format, signed per Standard Webhooks.

Pure: no database, no clock (the caller passes the attempt's time).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
from standardwebhooks.webhooks import Webhook

from schemas.webhooks import EVENTS, FORMATS  # noqa: F401 - the vocabulary, re-exported
from service.records.log import fold
from service.records.log.store import StoredEvent

GAME_STARTED, GAME_ENDED, RESULT_RECORDED, STANDINGS_CHANGED, PLAYER_ADDED = EVENTS

#: What takes an ended game's end back, when it comes right after it: its
#: standings change (a result retracted is a retraction and an abandon).
TAKE_BACK = frozenset({fold.ACTIONS_RETRACTED, fold.GAME_ABANDONED})
#: The log's event types the outbox reads (a player added is not one: see the migration's trigger).
LOG_TYPES = frozenset({fold.GAME_CREATED, fold.RESULT_RECORDED, fold.GAME_ENDED}) | TAKE_BACK

#: Discord refuses a message longer than this.
DISCORD_LIMIT = 2000


@dataclass(frozen=True)
class GameContext:
    club_id: UUID
    league_id: UUID | None
    engine: str
    title: str
    players: list[str]  # names in seat order


@dataclass(frozen=True)
class Told:
    """One derived event: what the webhooks of ``club_id`` that want ``event`` are told."""

    club_id: UUID
    position: int
    event: str
    data: dict[str, Any]
    occurred_at: datetime


def derive(event: StoredEvent, game: GameContext, ended_before: bool = False) -> list[Told]:
    """The webhook events one log event makes (none for most: moves are not news).

    ``ended_before``: the game's event just before ``event`` is its
    ``GameEnded`` (a game that has ended takes nothing more but a retraction
    or an abandon), so a retraction behind it or an abandon takes the end back."""
    base = {
        "club": str(game.club_id),
        "game": str(event.game_id),
        "engine": game.engine,
        "title": game.title,
        "league": str(game.league_id) if game.league_id else None,
        "players": game.players,
    }
    told: list[tuple[str, dict[str, Any]]] = []
    if event.type == fold.GAME_CREATED and not event.data.get("result_only"):
        told.append((GAME_STARTED, base))
    elif event.type == fold.RESULT_RECORDED:
        keep = ("played_on", "minutes", "places", "scores")
        told.append((RESULT_RECORDED, {**base, **{k: event.data.get(k) for k in keep}}))
    elif event.type == fold.GAME_ENDED:
        places = event.data.get("places") or []
        winners = [name for name, place in zip(game.players, places, strict=False) if place == 1]
        ended = {
            **base,
            "places": places,
            "scores": event.data.get("scores"),
            "ended_by": event.data.get("ended_by"),
            "winners": winners,
        }
        told.append((GAME_ENDED, ended))
        if game.league_id:
            told.append((STANDINGS_CHANGED, _standings(base)))
    elif event.type in TAKE_BACK and ended_before and game.league_id and _takes_back_end(event):
        told.append((STANDINGS_CHANGED, _standings(base)))
    return [Told(game.club_id, event.position, name, data, event.recorded_at) for name, data in told]


def _standings(base: dict[str, Any]) -> dict[str, Any]:
    return {"club": base["club"], "league": base["league"], "game": base["game"]}


def _takes_back_end(event: StoredEvent) -> bool:
    """Of an event right after the game's end: whether it takes the end back
    (an abandon does; a retraction to a version before the end does)."""
    if event.type == fold.ACTIONS_RETRACTED:
        return int(event.data["to_version"]) < event.version - 1
    return True


def standard_body(event: str, position: int, data: dict[str, Any], occurred_at: datetime) -> bytes:
    """The Standard Webhooks payload: ``type``, ``timestamp`` and ``data``
    (with the log position a reader waits for with ``min_position``)."""
    return orjson.dumps(
        {"type": event, "timestamp": occurred_at.isoformat(), "data": {**data, "position": position}}
    )


def discord_text(event: str, data: dict[str, Any], top: Sequence[tuple[str, float]] = ()) -> str:
    """One line a Discord channel shows (its top three of the standings, for a game ended in a league)."""
    title = data.get("title") or data.get("engine") or "A game"
    players = ", ".join(data.get("players") or [])
    if event == GAME_STARTED:
        text = f"{title} started: {players}."
    elif event == RESULT_RECORDED:
        text = f"{title} result logged: {_places(data)}."
    elif event == GAME_ENDED:
        winners = data.get("winners") or []
        won = f"{' and '.join(winners)} won" if winners else "no one won"
        text = f"{title} ended: {won}. {_places(data)}."
        if top:
            text += (
                " Standings: "
                + ", ".join(f"{i}. {n} ({_num(p)} pts)" for i, (n, p) in enumerate(top, 1))
                + "."
            )
    elif event == STANDINGS_CHANGED:
        text = "The standings changed."
    elif event == PLAYER_ADDED:
        text = f"{data['player']['name']} joined the club."
    else:
        text = event
    return text[:DISCORD_LIMIT]


def discord_body(event: str, data: dict[str, Any], top: Sequence[tuple[str, float]] = ()) -> bytes:
    """A message a Discord channel webhook takes; names never ping anyone."""
    return orjson.dumps({"content": discord_text(event, data, top), "allowed_mentions": {"parse": []}})


def _places(data: dict[str, Any]) -> str:
    places, names = data.get("places") or [], data.get("players") or []
    scores = data.get("scores") or [None] * len(places)
    rows = sorted(zip(places, names, scores, strict=False), key=lambda row: row[0])
    return ", ".join(f"{p}. {n}" + ("" if s is None else f" {_num(s)}") for p, n, s in rows)


def _num(value: float) -> str:
    return f"{value:g}"


def headers(secret: str, msg_id: str, body: bytes, at: datetime) -> dict[str, str]:
    """The Standard Webhooks headers of one attempt: ``msg_id`` (the same on
    every attempt), this attempt's timestamp, and the signature over both and the body."""
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": Webhook(secret).sign(msg_id, at, body.decode()),
        "content-type": "application/json",
    }


def message_id(delivery_id: UUID) -> str:
    """A delivery's ``webhook-id``."""
    return f"msg_{delivery_id.hex}"
