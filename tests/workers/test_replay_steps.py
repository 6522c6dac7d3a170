"""Replay steps: every step's state equals the fold of the log up to it (on
the live line as it stood then), though the projection keeps a state only
every few steps and at each retraction."""

from __future__ import annotations

import random

import jsonschema_rs
import psycopg
import pytest
from psycopg.rows import dict_row

from engines import registry
from service.records.log import fold, store
from service.records.recording import games
from tests.factories import Api, ClubFactory, GameFactory
from tests.workers.helpers import drain
from workers import runner
from workers.projections import PROJECTIONS
from workers.projections.replays import KEEP_EVERY


def _roll(api, gid, seat, value) -> None:
    assert api.post(f"/games/{gid}/actions", {"seat": seat, "command": {"type": "Roll"}}).status_code == 201
    r = api.post(f"/games/{gid}/actions", {"seat": None, "command": {"type": "ResolveRoll", "dice": [value]}})
    assert r.status_code == 201, r.get_json()


def _version(api, gid) -> int:
    return api.get(f"/games/{gid}").get_json()["version"]


def test_every_replay_step_equals_a_full_fold_across_kept_states_retractions_and_batches(
    client, pool, database_url
):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, dealer="table", options={"target": 500})
    gid, api = game["id"], Api(client, club["admin_token"])
    target = KEEP_EVERY + 1  # a step just past a kept state
    for i in range(30):
        _roll(api, gid, 0, 2 + i % 5)
        if i in (12, 22):  # back to the same step twice, going on after each
            assert api.post(f"/games/{gid}/retract", {"to_version": target}).status_code == 201
    steps = _version(api, gid)
    assert steps > 2 * KEEP_EVERY
    with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as conn:
        while runner.catch_up(conn, PROJECTIONS["replays"], batch_size=7).status != "caught-up":
            pass

    with pool.connection() as conn:
        g = games.get_game(conn, gid)
        config = games.config_of(conn, g)
        log = store.read_stream(conn, gid)
        kept = conn.execute("SELECT count(*) AS n FROM replay_states WHERE game_id = %s", (gid,)).fetchone()
    expected = {
        n: g.engine.dump_state(fold.fold_stored(g.engine, config, log[:n])) for n in range(1, steps + 1)
    }
    one_by_one = [api.get(f"/games/{gid}/replay/steps/{n}").get_json()["step"] for n in range(1, steps + 1)]
    assert [s["state"] for s in one_by_one] == [expected[n] for n in range(1, steps + 1)]
    assert [s["type"] for s in one_by_one] == [e.type for e in log]
    for start, limit in ((1, 5), (KEEP_EVERY, 3), (KEEP_EVERY + 1, 40), (steps - 2, 10)):
        page = api.get(f"/games/{gid}/replay?from_step={start}&limit={limit}").get_json()["steps"]
        assert page == one_by_one[start - 1 : start - 1 + limit]
    retractions = [e.version for e in log if e.type == fold.ACTIONS_RETRACTED]
    assert kept["n"] <= 1 + steps // KEEP_EVERY + len(retractions)
    marked = {s["step"]: s["retracted_by"] for s in one_by_one if s["retracted_by"] is not None}
    first, second = retractions
    assert marked == {n: first for n in range(target + 1, first)} | {n: second for n in range(first, second)}


@pytest.mark.parametrize("engine_id", registry.available())
def test_every_replay_steps_state_fits_the_view_schema_its_engine_publishes(client, database_url, engine_id):
    """A replay step's state is typed as the game view's is: the recorder's
    replay (the whole state) and seat 0's eye both fit the published shapes."""
    view = jsonschema_rs.Draft202012Validator(client.get(f"/engines/{engine_id}").get_json()["view"])
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    seats = registry.get(engine_id).min_seats
    game = GameFactory(client=client, club=club, engine=engine_id, options={}, dealer="table", seats=seats)
    rng = random.Random(5)
    for _ in range(12):
        legal = api.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]
        offered = [a for actions in legal.values() for a in actions]
        if not offered:
            break
        assert api.post(f"/games/{game['id']}/actions", rng.choice(offered)).status_code == 201
    drain(database_url, ["replays"])
    for query in ("", "?seat=0"):
        replay = api.get(f"/games/{game['id']}/replay/export{query}").get_json()
        assert replay["steps"] and replay["game"]["viewer"] == ("all" if not query else 0)
        for step in replay["steps"]:
            errors = [e.message[:200] for e in view.iter_errors(step["state"])][:3]
            assert not errors, (query, step["step"], step["type"], errors)
