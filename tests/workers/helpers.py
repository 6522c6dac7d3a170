"""Helpers for the workers' tests: play games through the API, drain and
compare projections."""

from __future__ import annotations

import time
from typing import Any

import psycopg
from psycopg.rows import dict_row

from tests.factories import Api, GameFactory, LeagueFactory, PlayerFactory
from workers import runner
from workers.projections import PROJECTIONS
from workers.projections.checkpoints import positions

SNAPSHOT_ORDER = {
    "standings_games": "game_id",
    "rating_history": "league_id, seq, player_id",
    "standings": "league_id, player_id",
    "replay_games": "game_id",
    "replay_states": "game_id, step",
    "stats_games": "game_id",
    "stats_tallies": "league_id",
    "standings_merges": "merged_id",
    "stats_merges": "merged_id",
}


def play_pig(client, game: dict[str, Any], hold_at: int = 6, max_actions: int = 600) -> dict[str, Any]:
    """Play a server-dealt Pig game to its end through the API; returns the final view."""
    gid = game["id"]
    seat_api = [Api(client, t["token"]) for t in game["seat_tokens"]]
    for _ in range(max_actions):
        view = seat_api[0].get(f"/games/{gid}").get_json()
        if view["status"] != "active":
            return view
        seat = view["state"]["turn"]
        if view["state"]["turn_total"] is None:  # hidden from seat 0: ask as the seat to play
            view = seat_api[seat].get(f"/games/{gid}").get_json()
        kind = "Hold" if view["state"]["turn_total"] >= hold_at else "Roll"
        response = seat_api[seat].post(f"/games/{gid}/actions", {"seat": seat, "command": {"type": kind}})
        assert response.status_code == 201, response.get_json()
    raise AssertionError("the game did not end")


def league_with_games(client, club, n_games: int, players: int = 3, public: bool = False, **league_fields):
    league = LeagueFactory(client=client, club=club, public=public, **league_fields)
    members = [PlayerFactory(client=client, club=club) for _ in range(players)]
    finals = []
    for i in range(n_games):
        seated = [members[(i + k) % players] for k in range(min(players, 2 + i % 2))]
        game = GameFactory(
            client=client, club=club, players=seated, league=league["id"], options={"target": 12}
        )
        finals.append((game, play_pig(client, game, hold_at=4 + i % 3)))
    return league, members, finals


def drain(url: str, names: list[str] | None = None) -> dict[str, int]:
    """Run every projection in this process until each is at the head."""
    with psycopg.connect(url, autocommit=True, row_factory=dict_row) as conn:
        for name in names or list(PROJECTIONS):
            while True:
                result = runner.catch_up(conn, PROJECTIONS[name], batch_size=50)
                if result.status == "caught-up":
                    break
        return positions(conn)


def head(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0]


def snapshot(url: str) -> dict[str, list[tuple]]:
    """Every projection table's rows, in a stable order."""
    out = {}
    with psycopg.connect(url) as conn:
        for projection in PROJECTIONS.values():
            for table in projection.tables:
                out[table] = conn.execute(
                    f"SELECT * FROM {table} ORDER BY {SNAPSHOT_ORDER[table]}"
                ).fetchall()
        out["projection_errors"] = conn.execute(
            "SELECT projection, game_id, position, event_type FROM projection_errors ORDER BY 1, 2"
        ).fetchall()
    return out


def checkpoints(url: str) -> dict[str, int]:
    with psycopg.connect(url, row_factory=dict_row) as conn:
        return positions(conn)


def wait_for(predicate, timeout: float, interval: float = 0.2, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)
