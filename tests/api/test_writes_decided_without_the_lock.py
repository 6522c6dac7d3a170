"""A write decided on the state this process remembers, without locking the
game first: when another process has written since, nothing is stored on the
stale state and the command is judged again on the game's current one."""

from uuid import UUID

from service.records.log import fold
from service.records.recording import games, states
from tests.factories import Api, ClubFactory, GameFactory
from tests.helpers import event_count


def _table_game(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, dealer="table")
    return game, Api(client, club["admin_token"])


def _post(api, gid, seat, command):
    return api.post(f"/games/{gid}/actions", {"seat": seat, "command": command})


def _roll(api, gid, seat, value):
    assert _post(api, gid, seat, {"type": "Roll"}).status_code == 201
    assert _post(api, gid, None, {"type": "ResolveRoll", "dice": [value]}).status_code == 201


def _as_if_another_process_wrote_since(gid, known):
    """This process remembers the game as it was at ``known`` (another
    process has written since)."""
    states.LATEST.put(UUID(gid), known)


def _versions(api, gid):
    return [e["version"] for e in api.get(f"/games/{gid}/events?limit=1000").get_json()["events"]]


def _full_replay(pool, gid):
    with pool.connection() as conn:
        game = games.get_game(conn, UUID(gid))
        return game, fold.current_state(
            conn, game.engine, games.config_of(conn, game), game.id, game.version, use_snapshots=False
        )


def test_a_write_decided_on_a_stale_state_is_decided_again_on_the_current_one(client, pool):
    game, api = _table_game(client)
    gid = game["id"]
    _roll(api, gid, 0, 5)
    stale = states.latest(UUID(gid))
    _roll(api, gid, 0, 3)
    _as_if_another_process_wrote_since(gid, stale)
    _roll(api, gid, 0, 4)
    assert api.get(f"/games/{gid}").get_json()["state"]["turn_total"] == 12
    assert _versions(api, gid) == list(range(1, len(_versions(api, gid)) + 1))
    current, replayed = _full_replay(pool, gid)
    assert states.latest(UUID(gid)).game.version == current.version
    assert states.latest(UUID(gid)).state == replayed


def test_a_command_the_stale_state_refuses_is_judged_on_the_current_one(client):
    """Seat 1's roll is out of turn on the remembered state (seat 0 to play)
    but in turn on the current one (seat 0 has held since)."""
    game, api = _table_game(client)
    gid = game["id"]
    _roll(api, gid, 0, 5)
    stale = states.latest(UUID(gid))
    assert _post(api, gid, 0, {"type": "Hold"}).status_code == 201
    _as_if_another_process_wrote_since(gid, stale)
    assert _post(api, gid, 1, {"type": "Roll"}).status_code == 201


def test_a_command_the_stale_state_allows_is_refused_on_the_current_one(client, pool):
    """Seat 0's roll is in turn on the remembered state but out of turn on
    the current one: refused, and nothing is stored."""
    game, api = _table_game(client)
    gid = game["id"]
    _roll(api, gid, 0, 5)
    stale = states.latest(UUID(gid))
    assert _post(api, gid, 0, {"type": "Hold"}).status_code == 201
    _as_if_another_process_wrote_since(gid, stale)
    before = event_count(pool, gid)
    refused = _post(api, gid, 0, {"type": "Roll"})
    assert refused.status_code == 422 and refused.get_json()["code"] == "not-your-turn"
    assert event_count(pool, gid) == before


def test_a_write_after_a_retraction_follows_the_retraction(client):
    """A retraction moves the game on; the next action builds on the game as
    retracted, not on the state remembered before it."""
    game, api = _table_game(client)
    gid = game["id"]
    _roll(api, gid, 0, 5)
    kept = api.get(f"/games/{gid}").get_json()["version"]
    _roll(api, gid, 0, 3)
    assert api.post(f"/games/{gid}/retract", {"to_version": kept, "reason": "misread"}).status_code == 201
    _roll(api, gid, 0, 2)
    assert api.get(f"/games/{gid}").get_json()["state"]["turn_total"] == 7


def _snapshot_versions(pool, gid):
    with pool.connection() as conn:
        rows = conn.execute("SELECT version FROM snapshots WHERE game_id = %s ORDER BY version", (gid,))
        return [r["version"] for r in rows]


def test_a_snapshot_due_on_such_a_write_is_saved_with_it_and_a_retraction_drops_it(client, pool, app):
    """Snapshots are saved every 10 versions here; the ones written by
    remembered-state writes commit with their events, so a retraction that
    follows drops them like any other."""
    game, api = _table_game(client)
    gid = game["id"]
    every = app.extensions["tablerecord.records"].snapshot_every
    kept = api.get(f"/games/{gid}").get_json()["version"]
    while api.get(f"/games/{gid}").get_json()["version"] < kept + every + 2:
        _roll(api, gid, 0, 2)
        assert states.latest(UUID(gid)).game.version == api.get(f"/games/{gid}").get_json()["version"]
    assert [v for v in _snapshot_versions(pool, gid) if v > kept]
    assert api.post(f"/games/{gid}/retract", {"to_version": kept, "reason": "wrong game"}).status_code == 201
    assert [v for v in _snapshot_versions(pool, gid) if v > kept] == []
    _roll(api, gid, 0, 6)
    assert api.get(f"/games/{gid}").get_json()["state"]["turn_total"] == 6
