"""Replay: state is the fold of the log; snapshots only speed it up;
a table game can take back its latest actions."""

from uuid import UUID

from engines.pig import ENGINE as pig
from service.records.log import fold, store
from service.records.recording import games, states
from tests.factories import Api, ClubFactory, GameFactory


def _table_game(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, dealer="table")
    return club, game, Api(client, club["admin_token"])


def _roll(api, gid, seat, value):
    assert api.post(f"/games/{gid}/actions", {"seat": seat, "command": {"type": "Roll"}}).status_code == 201
    r = api.post(f"/games/{gid}/actions", {"seat": None, "command": {"type": "ResolveRoll", "dice": [value]}})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["version"]


def test_the_recorder_submits_the_tables_dice_and_impossible_ones_are_refused(client):
    _, game, api = _table_game(client)
    gid = game["id"]
    api.post(f"/games/{gid}/actions", {"seat": 0, "command": {"type": "Roll"}})
    r = api.post(f"/games/{gid}/actions", {"seat": None, "command": {"type": "ResolveRoll", "dice": [7]}})
    assert r.status_code == 422 and r.get_json()["code"] == "impossible-die"
    seat = Api(client, game["seat_tokens"][0]["token"])
    r = seat.post(f"/games/{gid}/actions", {"seat": None, "command": {"type": "ResolveRoll", "dice": [3]}})
    assert r.status_code == 403 and r.get_json()["code"] == "recorder-only"


def test_retraction_takes_a_table_game_back_without_deleting_anything(client, pool):
    _, game, api = _table_game(client)
    gid = game["id"]
    kept_version = _roll(api, gid, 0, 5)
    _roll(api, gid, 0, 3)
    before = api.get(f"/games/{gid}/events?limit=1000").get_json()["events"]
    r = api.post(f"/games/{gid}/retract", {"to_version": kept_version, "reason": "misread die"})
    assert r.status_code == 201
    view = api.get(f"/games/{gid}").get_json()
    assert view["state"]["turn_total"] == 5
    after = api.get(f"/games/{gid}/events?limit=1000").get_json()["events"]
    assert after[: len(before)] == before
    assert after[-1]["type"] == "ActionsRetracted" and after[-1]["data"]["to_version"] == kept_version
    _roll(api, gid, 0, 4)
    assert api.get(f"/games/{gid}").get_json()["state"]["turn_total"] == 9


def test_retraction_cannot_reach_before_the_games_setup_or_past_its_end(client):
    _, game, api = _table_game(client)
    gid = game["id"]
    _roll(api, gid, 0, 5)
    for bad in (0, 99):
        r = api.post(f"/games/{gid}/retract", {"to_version": bad})
        assert r.status_code == 422


def test_a_server_dealt_game_refuses_retraction(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    api = Api(client, club["admin_token"])
    api.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    r = api.post(f"/games/{game['id']}/retract", {"to_version": 1})
    assert r.status_code == 422 and r.get_json()["code"] == "server-dealt-no-retraction"


def test_an_abandoned_game_takes_no_more_actions(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    api = Api(client, club["admin_token"])
    assert api.post(f"/games/{game['id']}/abandon", {"reason": "fire alarm"}).status_code == 201
    r = api.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    assert r.status_code == 409 and r.get_json()["code"] == "game-not-active"


def test_snapshot_plus_tail_equals_full_replay_at_every_version(client, pool):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, options={"target": 60})
    api = Api(client, club["admin_token"])
    gid = game["id"]
    for _ in range(80):
        view = api.get(f"/games/{gid}").get_json()
        if view["status"] != "active":
            break
        seat = view["state"]["turn"]
        kind = "Hold" if view["state"]["turn_total"] >= 10 else "Roll"
        api.post(f"/games/{gid}/actions", {"seat": seat, "command": {"type": kind}})
    with pool.connection() as conn:
        snapshots = conn.execute("SELECT count(*) AS n FROM snapshots WHERE game_id = %s", (gid,)).fetchone()[
            "n"
        ]
        assert snapshots >= 2
        g = games.get_game(conn, UUID(gid))
        full = states.load_state(conn, g, use_snapshots=False)
        assert states.load_state(conn, g) == full
        assert fold.fold_stored(pig, games.config_of(conn, g), store.read_stream(conn, g.id)) == full


def test_a_changed_engine_version_ignores_old_snapshots(client, pool):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    with pool.connection() as conn, conn.transaction():
        g = games.get_game(conn, UUID(game["id"]))
        bogus = {**pig.dump_state(states.load_state(conn, g)), "scores": [99, 99]}
        store.save_snapshot(conn, g.id, "0-old", g.version, bogus)
    with pool.connection() as conn:
        assert states.load_state(conn, g).scores == (0, 0)
