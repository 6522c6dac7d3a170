"""The replay page when the replay cannot follow the record: it says so, in
plain words, and does not wait for a replay that will not come."""

from __future__ import annotations

from service.records.log import store
from service.records.log.store import NewEvent
from tests.factories import ClubFactory, GameFactory, PlayerFactory
from tests.web.helpers import sign_in
from tests.workers.helpers import drain


def test_a_replay_that_cannot_follow_an_entry_says_where_it_ends_in_plain_words(client, pool, database_url):
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    game = GameFactory(client=client, club=club, players=players)
    with pool.connection() as conn, conn.transaction():
        version = conn.execute(
            "SELECT max(version) AS v FROM events WHERE game_id = %s", (game["id"],)
        ).fetchone()
        store.append(conn, club["id"], game["id"], version["v"], [NewEvent("MeteorStruck", {"seat": 0})])
    drain(database_url)
    sign_in(client, club["admin_token"])

    response = client.get(f"/game/{game['id']}/replay")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'id="unreplayable"' in page and "the entry after it could not be followed" in page
    assert "MeteorStruck" not in page and "data-await-ready" not in page
