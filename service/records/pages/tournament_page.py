"""What the tournament pages read: the club's tournaments, one tournament for
its organiser (players to enter, the round to seat, tables to start or log)
and for the room's screen, with its standings and their tie-breaks in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.club import clubs
from service.records.competitions import running
from service.records.log import store
from service.records.log.context import Records

#: What each state of a tournament is called on its pages.
STATUS_WORDS = {
    "entering": "Entering players",
    "playing": "Round being played",
    "between-rounds": "Between rounds",
    "finished": "Finished",
}


def tournaments_page(records: Records, club_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The club's tournaments and, for its organiser, what a new one may be."""
    access.may_see_tournament(principal, club_id)
    return {
        "club": clubs.get_club(records, club_id, principal),
        "tournaments": [
            {**t, "title": registry.get(t["engine"]).title, "status_words": STATUS_WORDS[t["status"]]}
            for t in running.club_tournaments(records, club_id, principal)
        ],
        "engines": [
            {"id": e, "title": registry.get(e).title, "min": g.min_seats, "max": g.max_seats}
            for e in registry.available()
            if (g := registry.get(e))
        ],
        "leagues": [league for league in clubs.leagues(records, club_id, principal) if not league["closed"]]
        if principal is not None and principal.is_admin
        else [],
        "organiser": principal is not None and principal.is_admin,
    }


def tournament_page(
    records: Records, tournament_id: UUID, principal: Principal | None, view: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """One tournament as its pages show it (``view``: the tournament a write
    just answered, so that the page shows exactly that)."""
    view = view or running.get_tournament(records, tournament_id, principal)
    organiser = principal is not None and principal.is_admin
    engine = registry.get(view["engine"])
    entered = {p["player"] for p in view["players"] if p["present"]}
    club_players = (
        [p for p in clubs.players(records, principal.club_id, principal) if not p["retired"]]
        if organiser
        else []
    )
    current = view["played"][-1] if view["played"] else None
    return {
        "tournament": view,
        "title": engine.title,
        "seats": (engine.min_seats, engine.max_seats),
        "status_words": STATUS_WORDS[view["status"]],
        "organiser": organiser,
        "club_id": principal.club_id,
        "to_enter": [p for p in club_players if str(p["id"]) not in entered],
        "current": current,
        "round_name": round_name(current) if current else None,
        "next_round_name": _next_round_name(view),
        "standings": standing_rows(view["standings"]),
        "present": [p for p in view["players"] if p["present"]],
    }


def tournament_screen(records: Records, tournament_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The room's screen: the tournament as it stands, and the log position it
    stands at, read first (its club's stream sends whatever comes after it:
    a table's game moving or ending, a table's result logged)."""
    with records.pool.connection() as conn:
        position = store.head_position(conn)
    return {**tournament_page(records, tournament_id, principal), "position": position}


def round_name(played: Mapping[str, Any]) -> str:
    return "The final table" if played["final"] else f"Round {played['round']}"


def _next_round_name(view: Mapping[str, Any]) -> str | None:
    """What seating next would seat ("Round 2", "The final table"); None when nothing is left."""
    if view["status"] in ("playing", "finished"):
        return None
    if view["rounds_seated"] < view["rounds"]:
        return f"Round {view['rounds_seated'] + 1}"
    return "The final table" if view["final_table"] else None


def points_words(value: float) -> str:
    """Points as a member reads them: ``2``, ``1.5``, ``2.33``."""
    rounded = round(value, 2)
    return f"{rounded:g}" if rounded == int(rounded) else f"{rounded:.2f}".rstrip("0")


def standing_rows(standings: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The standings, each row with why it stands above the next one level on points."""
    rows = []
    for i, s in enumerate(standings):
        rows.append({**s, "points_words": points_words(s["points"]), "why": _why(standings, i)})
    return rows


def _why(standings: Sequence[Mapping[str, Any]], i: int) -> str | None:
    """Why a player is ahead of (or level with) the next player on the same points, in words."""
    if i + 1 >= len(standings):
        return None
    s, below = standings[i], standings[i + 1]
    if round(s["points"], 9) != round(below["points"], 9) or not s["games"]:
        return None
    if round(s["opponents_points"], 9) != round(below["opponents_points"], 9):
        return (
            f"Level on points with {below['name']}; ahead on opponents' points "
            f"({points_words(s['opponents_points'])} to {points_words(below['opponents_points'])})."
        )
    if s["rank"] != below["rank"]:
        return f"Level with {below['name']} on points and opponents' points; ahead of them head to head."
    return f"Level with {below['name']} on points, opponents' points and head to head: they share the place."
