"""Small helpers shared by the API tests."""

from __future__ import annotations

from tests.factories import Api, ClubFactory, GameFactory


def event_count(pool, game_id) -> int:
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM events WHERE game_id = %s", (game_id,)).fetchone()["n"]


def new_pig_game(client, **kwargs):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, **kwargs)
    return club, game, Api(client, club["admin_token"])
