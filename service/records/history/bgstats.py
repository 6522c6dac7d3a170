"""Taking plays out in BG Stats' own format, so that a player can carry their
record to the app they keep their plays in.

The file is what BG Stats exports and opens: ``players``, ``locations``,
``games`` and ``plays``, each entry with a ``uuid`` and a small whole-number
``id`` the plays refer to (``playerRefId``, ``gameRefId``,
``locationRefId``). A play gives its day, its length, a note, and each
player's score (as text, as BG Stats writes it), ``rank`` (the place),
``winner`` and seat (``seatOrder``, ``startPlayer`` for the first seat), and
the game's options under a key of this service's own (``formats.OWN_KEY``),
which BG Stats leaves alone. The club is the one location. It is the shape ``formats.read_bgstats`` reads, so
importing the file into another club gives the same standings; a play's
``uuid`` is its game's, so importing it twice adds nothing.

Played and result-only games alike, finished ones only, in the order the
standings rate them (``exports.finished``); abandoned and retracted games are
left out.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any
from uuid import UUID

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.errors import NotFound
from service.records.history.exports import finished
from service.records.history.formats import OWN_KEY
from service.records.log.context import Records
from service.records.recording.games import player_names

ABOUT = (
    "A Play file that can be read by Board Game Stats, written by tablerecord. Open it with"
    " Board Game Stats (share, export or open-in) to add these plays."
)

#: The one location of every play: the club (a stable id of its own).
LOCATION_NAMESPACE = uuid.UUID("0b5f7a52-2f0e-4f55-9d7c-0d1f3c6a6b21")


def plays_file(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    *,
    player_id: UUID | None = None,
    league_id: UUID | None = None,
) -> dict[str, Any]:
    """The club's finished games (``player_id``'s only, ``league_id``'s only,
    when given) as a BG Stats file (``access.may_take_out_plays``)."""
    access.may_take_out_plays(principal, club_id, player_id)
    with records.pool.connection() as conn:
        club = conn.execute("SELECT name FROM clubs WHERE id = %s", (club_id,)).fetchone()
        if (
            player_id is not None
            and not conn.execute(
                "SELECT 1 FROM players WHERE id = %s AND club_id = %s", (player_id, club_id)
            ).fetchone()
        ):
            raise NotFound("player")
        rows = finished(
            conn,
            "g.club_id = %s AND (%s::uuid IS NULL OR g.league_id = %s) AND (%s::jsonb IS NULL OR g.seats @> %s::jsonb)",
            (club_id, league_id, league_id, *([f'["{player_id}"]'] * 2 if player_id else [None, None])),
        )
        names = player_names(conn, {s for r in rows for s in r["seats"]})
    return written(club_id, club["name"], rows, names)


def written(
    club_id: UUID, club_name: str, rows: list[dict[str, Any]], names: dict[str, str]
) -> dict[str, Any]:
    """The file for finished games ``rows`` (``exports.finished``) of players ``names``."""
    players: dict[str, int] = {}
    games: dict[str, int] = {}
    plays = []
    for row in rows:
        seats = [str(p) for p in row["seats"]]
        for player in seats:
            players.setdefault(player, len(players) + 1)
        games.setdefault(row["engine"], len(games) + 1)
        plays.append(_play(row, seats, players, games[row["engine"]]))
    return {
        "about": ABOUT,
        "players": [
            {
                "uuid": player,
                "id": ref,
                "name": names.get(player, player),
                "isAnonymous": False,
                "bggUsername": "",
            }
            for player, ref in players.items()
        ],
        "locations": [
            {"uuid": str(uuid.uuid5(LOCATION_NAMESPACE, str(club_id))), "id": 1, "name": club_name}
        ],
        "games": [_game(engine, ref) for engine, ref in games.items()],
        "plays": plays,
    }


def _game(engine_id: str, ref: int) -> dict[str, Any]:
    outcome = registry.game(engine_id).outcome
    lowest = outcome is not None and outcome.endings[0].lowest_wins  # the game's usual ending
    return {
        "uuid": str(uuid.uuid5(LOCATION_NAMESPACE, engine_id)),
        "id": ref,
        "name": registry.get(engine_id).title,
        "cooperative": False,
        "highestWins": not lowest,
        "noPoints": False,
        "usesTeams": False,
    }


def _play(row: dict[str, Any], seats: list[str], players: dict[str, int], game_ref: int) -> dict[str, Any]:
    ended = row["ended"]
    scores, places = ended.get("scores"), ended["places"]
    played_on: dt.date = row["played_on"]
    return {
        "uuid": str(row["id"]),
        "playDate": f"{played_on.isoformat()} 00:00:00",
        "durationMin": row.get("minutes") or 0,
        "ignored": False,
        "manualWinner": False,
        "usesTeams": False,
        "comments": row.get("note") or "",
        "locationRefId": 1,
        "gameRefId": game_ref,
        **({OWN_KEY: {"options": row["options"]}} if row["options"] else {}),
        "playerScores": [
            {
                "playerRefId": players[player],
                "score": _score(scores[seat]) if scores is not None else None,
                "rank": places[seat],
                "winner": places[seat] == 1,
                "seatOrder": seat + 1,
                "startPlayer": seat == 0,
                "newPlayer": False,
            }
            for seat, player in enumerate(seats)
        ],
    }


def _score(value: float) -> str:
    """A score as BG Stats writes it: text, a whole number without its point."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))
