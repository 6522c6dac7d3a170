"""Every engine's game can be played to its end through the REST API alone,
by a client that only ever posts what legal-actions offers, in both dealer
modes; the API's state then equals a fresh replay of the stored log."""

import random
from uuid import UUID

import pytest

from engines import registry
from service.records.recording import games, states
from tests.factories import Api, ClubFactory, GameFactory


def play_through_api(api, game_id, rng, max_steps=3000):
    for step in range(max_steps):
        legal = api.get(f"/games/{game_id}/legal-actions").get_json()
        if not legal["seats"]:
            return step
        choices = [action for actions in legal["seats"].values() for action in actions]
        assert choices, "an active game offers no legal action"
        action = rng.choice(choices)
        r = api.post(f"/games/{game_id}/actions", {**action, "expected_version": legal["version"]})
        assert r.status_code == 201, (action, r.get_json())
    raise AssertionError("game did not end")


@pytest.mark.parametrize("dealer", ["server", "table"])
@pytest.mark.parametrize("engine_id", registry.available())
def test_a_whole_game_is_played_through_the_api(client, pool, engine_id, dealer):
    club = ClubFactory(client=client)
    trial = registry.game(engine_id).trial
    game = GameFactory(
        client=client,
        club=club,
        engine=engine_id,
        options=dict(trial.options),
        dealer=dealer,
        seats=trial.seats,
    )
    api = Api(client, club["admin_token"])
    play_through_api(api, game["id"], random.Random(7))
    final = api.get(f"/games/{game['id']}").get_json()
    assert final["status"] == "finished" and final["outcome"]["finished"]
    assert 1 in final["outcome"]["places"]
    events = api.get(f"/games/{game['id']}/events?limit=1000").get_json()
    assert events["events"][-1]["type"] == "GameEnded" or events["next_after_version"]
    with pool.connection() as conn:
        g = games.get_game(conn, UUID(game["id"]))
        assert states.load_state(conn, g, use_snapshots=False) == states.load_state(conn, g)
        assert g.engine.dump_state(states.load_state(conn, g, use_snapshots=False)) == final["state"]
