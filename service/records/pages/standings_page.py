"""The standings as members read them: ranked players, then those still
playing their way in ("2 more games to be ranked"), finishing places as
columns, the rating on the members' scale with its change in the player's
last game, and the ranking rule in one sentence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from service.records.access import Principal
from service.records.log.context import Records
from service.records.reading.league_tables import standings
from service.records.reading.ratings import Rating

#: Finishing places shown as their own columns; later places share the last one ("4th+").
PLACE_COLUMNS = 4


def place_name(place: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def place_columns(placements: Sequence[dict[str, int]]) -> list[dict[str, Any]]:
    """The place columns a table of these players' placements needs: one per
    place up to the worst place anyone took, the last one (``PLACE_COLUMNS``)
    holding every place from there on."""
    worst = max((int(p) for row in placements for p in row), default=1)
    columns = []
    for place in range(1, min(worst, PLACE_COLUMNS) + 1):
        last = place == PLACE_COLUMNS and worst > PLACE_COLUMNS
        columns.append({"label": place_name(place) + ("+" if last else ""), "from": place, "last": last})
    return columns


def place_counts(placements: dict[str, int], columns: list[dict[str, Any]]) -> list[int]:
    counts = []
    for column in columns:
        if column["last"]:
            counts.append(sum(n for p, n in placements.items() if int(p) >= column["from"]))
        else:
            counts.append(placements.get(str(column["from"]), 0))
    return counts


def ranking_rule(points_table: Sequence[float], min_games: int) -> str:
    """The league's ranking rule in one sentence."""
    points = ", ".join(f"{_number(p)} for {place_name(i)}" for i, p in enumerate(points_table, start=1))
    needed = max(min_games, 1)
    games = "1 game" if needed == 1 else f"{needed} games"
    return (
        f"Ranked by points ({points}), then wins, rating, average score and fewer games played;"
        f" a player is ranked after {games}."
    )


def _number(value: float) -> str:
    return f"{value:g}"


def more_games(games: int, min_games: int) -> str:
    """What an unranked player still needs: "1 more game to be ranked", "2 more games …"."""
    left = max(min_games, 1) - games
    return f"{left} more game to be ranked" if left == 1 else f"{left} more games to be ranked"


def standings_page(records: Records, league_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The league's standings table for its page (see the module's docstring)."""
    table = standings(records, league_id, principal, None)
    league = table["league"]
    columns = place_columns([r["placements"] for r in table["standings"]])
    ranked, unranked = [], []
    for r in table["standings"]:
        player = str(r["player"])
        row = {
            "player": player,
            "name": r["name"],
            "rank": r["rank"],
            "games": r["games"],
            "wins": r["wins"],
            "points": r["points"],
            "places": place_counts(r["placements"], columns),
            "rating": Rating(r["rating"], r["rating_uncertainty"], r["rating_change"]),
        }
        if r["ranked"]:
            ranked.append(row)
        else:
            unranked.append({**row, "to_be_ranked": more_games(r["games"], league["min_games"])})
    return {
        "league": league,
        "position": table.get("position"),
        "place_columns": columns,
        "ranked": ranked,
        "unranked": unranked,
        "rule": ranking_rule(league["points_table"], league["min_games"]),
    }
