"""The event streams: a game's events and a club's feed as server-sent
events, in order, without a gap, resumable from ``Last-Event-ID``, each
reader getting what it may see and no more."""

from __future__ import annotations

import dataclasses
import json
import random
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPConnection

import orjson
import psycopg
import pytest
import yaml
from werkzeug.serving import make_server

from engines import registry
from engines.base import Event as EngineEvent
from schemas.api import Event, FeedEvent, Problem
from service.config import Settings
from service.records.log import context, notices
from service.records.log.db import make_pool
from service.records.log.fold import SERVICE_EVENTS
from service.records.log.migrate import migrate
from service.streams import feeds
from tests.conftest import ROOT, with_schema
from tests.factories import Api, ClubFactory, GameFactory, PlayerFactory
from tests.streams import StreamServer

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def streams(pool, database_url):
    server = StreamServer(pool, database_url)
    yield server
    server.stop()


def roll(api, game, times=1):
    """``times`` moves, each the first the game offers."""
    for _ in range(times):
        legal = api.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]
        r = api.post(f"/games/{game['id']}/actions", next(a for actions in legal.values() for a in actions))
        assert r.status_code == 201, r.get_json()


def test_a_game_stream_sends_every_event_in_version_order_and_resumes_from_last_event_id(client, streams):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    api = Api(client, club["admin_token"])
    reader = streams.open(f"/streams/games/{game['id']}", club["admin_token"])
    assert reader.status == 200 and reader.response.getheader("Content-Type").startswith("text/event-stream")
    first = reader.take(1)  # GameCreated, recorded before the reader came
    roll(api, game, 3)
    log = api.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
    got = first + reader.take(len(log) - 1)
    assert [m.id for m in got] == list(range(1, len(log) + 1))
    assert {m.event for m in got} == {"game-event"}
    assert [m.data for m in got] == log  # as the events page shows them to the same reader
    assert all(Event().validate(m.data) == {} for m in got)  # the payload openapi.yaml documents
    reader.close()

    roll(api, game, 2)  # while nobody follows
    again = streams.open(
        f"/streams/games/{game['id']}", club["admin_token"], **{"Last-Event-ID": str(got[-1].id)}
    )
    log = api.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
    rest = again.take(len(log) - len(got))
    assert [m.id for m in rest] == list(range(len(got) + 1, len(log) + 1))
    assert [m.data for m in rest] == log[len(got) :]
    roll(api, game)  # and it follows on
    assert again.next().id == len(log) + 1
    again.close()


def test_a_club_stream_follows_its_games_in_position_order_and_resumes(client, streams):
    club, other = ClubFactory(client=client), ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    first, second = GameFactory(client=client, club=club), GameFactory(client=client, club=club)
    elsewhere = GameFactory(client=client, club=other)
    reader = streams.open(f"/streams/clubs/{club['id']}", club["admin_token"])  # from now on
    roll(api, first)
    roll(Api(client, other["admin_token"]), elsewhere)
    roll(api, second)
    roll(api, first)
    page = api.get(f"/clubs/{club['id']}/events?after_position=0&limit=1000").get_json()["events"]
    before = [e for e in page if e["type"] == "GameCreated"]
    expected = page[len(before) :]
    got = reader.take(len(expected))
    assert [m.id for m in got] == [e["position"] for e in expected]
    assert [m.data for m in got] == expected  # the feed's own shape, and only this club's games
    assert {m.event for m in got} == {"club-event"}
    assert all(FeedEvent().validate(m.data) == {} for m in got)
    reader.close()

    resumed = streams.open(
        f"/streams/clubs/{club['id']}", club["admin_token"], **{"Last-Event-ID": str(got[1].id)}
    )
    assert [m.data for m in resumed.take(len(got) - 2)] == expected[2:]
    from_start = streams.open(f"/streams/clubs/{club['id']}?after_position=0", club["admin_token"])
    assert [m.data for m in from_start.take(len(page))] == page
    resumed.close()
    from_start.close()


def test_a_club_stream_resumed_within_what_its_feed_keeps_gets_every_game_of_it(client, streams):
    """A reader resuming from a position the feed still keeps gets the kept
    events of every game, not only of the games the feed's last read touched."""
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    first, second = GameFactory(client=client, club=club), GameFactory(client=client, club=club)
    head = api.get(f"/clubs/{club['id']}/events?after_position=0").get_json()["events"][-1]["position"]
    reader = streams.open(f"/streams/clubs/{club['id']}", club["admin_token"])  # from the head on
    taken = 0
    for game in (first, second):  # each game's events read by the feed on their own
        roll(api, game)
        page = api.get(f"/clubs/{club['id']}/events?after_position={head}").get_json()["events"]
        assert [m.id for m in reader.take(len(page) - taken)] == [e["position"] for e in page[taken:]]
        taken = len(page)
    page = api.get(f"/clubs/{club['id']}/events?after_position={head}").get_json()["events"]
    assert {e["game"] for e in page[1:]} == {first["id"], second["id"]}
    resumed = streams.open(
        f"/streams/clubs/{club['id']}", club["admin_token"], **{"Last-Event-ID": str(page[0]["position"])}
    )
    assert [m.data for m in resumed.take(len(page) - 1)] == page[1:]
    reader.close()
    resumed.close()


def test_a_club_stream_is_for_who_sees_its_pages_and_a_game_stream_for_who_may_read_the_game(client, streams):
    club, other = ClubFactory(client=client), ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    seat = game["seat_tokens"][0]["token"]
    assert streams.open(f"/streams/clubs/{club['id']}").status == 401
    assert streams.open(f"/streams/clubs/{club['id']}", other["admin_token"]).status == 404
    assert streams.open(f"/streams/clubs/{club['id']}", seat).status == 403
    assert streams.open(f"/streams/clubs/{club['id']}", "tr_admin_made_up").status == 401
    private = f"/streams/games/{game['id']}"
    assert streams.open(private).status == 404  # a private game: not found for strangers
    assert streams.open(private, other["admin_token"]).status == 404
    assert streams.open(private, seat).status == 200
    bad = streams.open(private, seat, **{"Last-Event-ID": "-1"})
    assert bad.status == 422 and bad.body()["code"] == "invalid-position"
    assert Problem().validate(streams.open(private).body()) == {}


def test_a_members_club_stream_carries_only_the_games_it_may_see_each_as_it_sees_it(client, streams):
    """A member's sign-in follows the club (its page, its leagues' pages): the
    events of its own games, seen from its seat, and of the public ones; no
    event of another's private game, however many there are."""
    club = ClubFactory(client=client)
    ana, ben, cleo, dev = (PlayerFactory(client=client, club=club) for _ in range(4))
    admin = Api(client, club["admin_token"])
    member = admin.post(f"/clubs/{club['id']}/players/{ana['id']}/sign-in").get_json()["token"]
    hers = GameFactory(client=client, club=club, players=[ana, ben])
    private = GameFactory(client=client, club=club, players=[cleo, dev])
    public = GameFactory(client=client, club=club, players=[cleo, dev], public=True)
    for game in (hers, private, public, private, hers):
        roll(admin, game)
    reader = streams.open(f"/streams/clubs/{club['id']}?after_position=0", member)
    assert reader.status == 200
    shown = {
        g["id"]: Api(client, member).get(f"/games/{g['id']}/events?limit=1000").get_json()["events"]
        for g in (hers, public)
    }
    expected = sorted(
        ({"game": gid, **e} for gid, events in shown.items() for e in events), key=lambda e: e["position"]
    )
    got = reader.take(len(expected))
    assert [m.data for m in got] == expected  # as the member's own reads show them, in log order
    assert [m.id for m in got] == [e["position"] for e in expected]
    roll(admin, private)
    roll(admin, public)
    after = reader.next()
    assert after.data["game"] == public["id"], "another's private game is never sent"
    reader.close()


def test_openapi_documents_both_streams_as_event_streams_with_their_payloads():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    for path, payload in (("/streams/games/{game}", "Event"), ("/streams/clubs/{club}", "FeedEvent")):
        stream = spec["paths"][path]["get"]["responses"]["200"]["content"]["text/event-stream"]
        assert stream["x-event-data"] == {"$ref": f"#/components/schemas/{payload}"}
        assert payload in spec["components"]["schemas"]


def test_a_stream_ends_when_its_sign_in_does(client, streams, monkeypatch):
    monkeypatch.setattr(feeds, "SIGN_IN_SECONDS", 0)  # asked again at every event
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    reader = streams.open(f"/streams/games/{game['id']}", club["admin_token"])
    assert reader.next().data["type"] == "GameCreated"
    rotated = Api(client, club["admin_token"]).post(f"/clubs/{club['id']}/admin-token").get_json()
    roll(Api(client, rotated["admin_token"]), game)
    with pytest.raises(EOFError):
        reader.next()


def _strings(node) -> set[str]:
    if isinstance(node, str):
        return {node}
    if isinstance(node, dict):
        node = list(node.values())
    if isinstance(node, list | tuple):
        return set().union(set(), *(_strings(v) for v in node))
    return set()


@pytest.mark.parametrize("engine_id", registry.available())
def test_a_seat_never_receives_what_it_may_not_see_over_the_stream(client, streams, pool, engine_id):
    """Every reader of a live game (each seat, the recorder who sees only public
    information, a spectator of the public game) gets over the stream exactly
    what the engine's ``redact`` lets it see of each event, no string more."""
    trial = registry.game(engine_id).trial
    club = ClubFactory(client=client)
    game = GameFactory(
        client=client,
        club=club,
        engine=engine_id,
        options={
            **trial.options,
            **({"target": 100} if engine_id == "pig" else {}),
        },  # still on after 40 moves
        seats=trial.seats,
        public=True,
        admin_spectator=True,
    )
    engine = registry.get(engine_id)
    seats = [t["token"] for t in game["seat_tokens"]]
    readers = {
        **{seat: streams.open(f"/streams/games/{game['id']}", token) for seat, token in enumerate(seats)},
        "recorder": streams.open(f"/streams/games/{game['id']}", club["admin_token"]),
        "spectator": streams.open(f"/streams/games/{game['id']}"),
    }
    rng = random.Random(11)
    seen = 0
    for _ in range(40):  # each seat plays for itself, as at a table of phones
        moves = [
            (token, a)
            for token in seats
            for actions in Api(client, token)
            .get(f"/games/{game['id']}/legal-actions")
            .get_json()["seats"]
            .values()
            for a in actions
        ]
        if not moves:
            break
        token, action = rng.choice(moves)
        assert Api(client, token).post(f"/games/{game['id']}/actions", action).status_code == 201
        with pool.connection() as conn:
            stored = conn.execute(
                "SELECT version, type, data FROM events WHERE game_id = %s AND version > %s ORDER BY version",
                (game["id"], seen),
            ).fetchall()
        live = Api(client, club["admin_token"]).get(f"/games/{game['id']}").get_json()["status"] == "active"
        for who, reader in readers.items():
            got = reader.take(len(stored))
            assert [m.id for m in got] == [e["version"] for e in stored]
            for message, event in zip(got, stored, strict=True):
                if event["type"] in SERVICE_EVENTS or not live:  # an ended game shows everything
                    continue
                allowed = engine.redact(
                    EngineEvent(event["type"], event["data"]), who if isinstance(who, int) else None
                )
                assert _strings(message.data["data"]) <= _strings(allowed.data), (
                    engine_id,
                    who,
                    event["type"],
                )
                assert message.data["data"] == orjson.loads(orjson.dumps(allowed.data)), (engine_id, who)
        seen += len(stored)
        if not live:
            break
    for reader in readers.values():
        reader.close()


def test_a_lost_notice_costs_a_delay_never_an_event(client, streams, pool, monkeypatch):
    """The listening session is cut, and moves are made before it listens
    again: their notices are lost, yet the reader gets every event, since on
    listening again every feed reads the log from where it stands."""
    monkeypatch.setattr(notices, "FIRST_RETRY", 1.0)  # listens again a second later
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    api = Api(client, club["admin_token"])
    reader = streams.open(f"/streams/games/{game['id']}", club["admin_token"])
    assert reader.next().id == 1
    cut = streams.listener()
    with pool.connection() as conn:
        conn.execute("SELECT pg_terminate_backend(%s)", (cut,))
    roll(api, game, 2)  # while nobody listens
    streams.listener(other_than=cut)
    versions = api.get(f"/games/{game['id']}").get_json()["version"]
    assert [m.id for m in reader.take(versions - 1)] == list(range(2, versions + 1))


def test_a_club_stream_waits_for_an_older_open_transaction_and_skips_nothing(client, streams, database_url):
    """An event committed above the horizon (an older transaction still open)
    is sent once that transaction ends, though its end sends no notice."""
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    api = Api(client, club["admin_token"])
    reader = streams.open(f"/streams/clubs/{club['id']}", club["admin_token"])
    with psycopg.connect(database_url) as older:
        older.execute("SELECT pg_current_xact_id()")  # holds the horizon below what follows
        roll(api, game)
        page = api.get(f"/clubs/{club['id']}/events?after_position=0").get_json()["events"]
        assert [e["type"] for e in page] == ["GameCreated"]  # the feed does not see it yet either
        older.rollback()
    page = api.get(f"/clubs/{club['id']}/events?after_position=0").get_json()["events"]
    got = reader.take(len(page) - 1)
    assert [m.data for m in got] == page[1:]


def test_each_stream_process_serves_its_own_readers(client, streams, pool, database_url):
    other = StreamServer(pool, database_url)
    try:
        club = ClubFactory(client=client)
        game = GameFactory(client=client, club=club)
        readers = [s.open(f"/streams/games/{game['id']}", club["admin_token"]) for s in (streams, other)]
        roll(Api(client, club["admin_token"]), game, 3)
        versions = Api(client, club["admin_token"]).get(f"/games/{game['id']}").get_json()["version"]
        for reader in readers:
            assert [m.id for m in reader.take(versions)] == list(range(1, versions + 1))
            reader.close()
    finally:
        other.stop()


def test_in_front_of_the_api_the_stream_process_passes_every_other_request_on(app, pool, database_url):
    """As ``make run`` serves them: pages, API and streams on one origin."""
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    front = StreamServer(pool, database_url, upstream=f"http://127.0.0.1:{http.server_port}")
    try:
        connection = HTTPConnection("127.0.0.1", front.port, timeout=10)
        connection.request("POST", "/clubs", body=json.dumps({"name": "Front Door"}), headers=JSON)
        answer = connection.getresponse()
        club = json.loads(answer.read())
        assert answer.status == 201 and club["name"] == "Front Door"
        connection.request("GET", "/", headers={"Accept": "text/html"})
        page = connection.getresponse()
        assert page.status == 200 and "text/html" in page.getheader("Content-Type")
        page.read()
        reader = front.open(f"/streams/clubs/{club['id']}?after_position=0", club["admin_token"])
        assert reader.status == 200
        connection.close()
        reader.close()
    finally:
        front.stop()
        http.shutdown()
        thread.join(10)


def test_readers_who_come_at_once_to_a_new_feed_each_get_what_they_missed(client, pool, database_url):
    """Phones reconnecting together to a stream process just started: the first
    creates the game's feed and reads the log; the others, arriving while that
    read runs, wait for it instead of finding nothing and sleeping until the
    next notice."""
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    roll(Api(client, club["admin_token"]), game, 3)
    versions = Api(client, club["admin_token"]).get(f"/games/{game['id']}").get_json()["version"]
    for _ in range(3):
        server = StreamServer(pool, database_url)
        try:
            start = threading.Barrier(8)

            def reconnect(server=server, start=start):
                start.wait()
                return server.open(
                    f"/streams/games/{game['id']}", club["admin_token"], **{"Last-Event-ID": "1"}
                )

            with ThreadPoolExecutor(8) as pool_of_phones:
                readers = list(pool_of_phones.map(lambda _: reconnect(), range(8)))
            for reader in readers:
                reader.connection.sock.settimeout(5)
                assert [m.id for m in reader.take(versions - 1)] == list(range(2, versions + 1))
                reader.close()
        finally:
            server.stop()


@dataclasses.dataclass
class SameServer(context.Replica):
    """A replica on the tests' own server (a second pool), which is no standby:
    its lag cannot be measured there, so it counts as close enough. Notes each
    log position a read asks it to hold (``min_position``)."""

    asked: list[int] = dataclasses.field(default_factory=list, init=False)

    def close_enough(self, primary) -> bool:
        return True

    def has_replayed(self, position: int) -> bool:
        self.asked.append(position)
        return super().has_replayed(position)


def follow_both(client, server: StreamServer) -> tuple[list[int], list[int]]:
    """A game's and its club's streams while the game is played: every event
    comes, in order, none missing; the log positions of the game's events."""
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    api = Api(client, club["admin_token"])
    of_game = server.open(f"/streams/games/{game['id']}", club["admin_token"])
    of_club = server.open(f"/streams/clubs/{club['id']}", club["admin_token"])
    assert of_game.next().id == 1  # GameCreated, before the readers came
    for _ in range(4):
        roll(api, game)
    log = api.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
    assert [m.data for m in of_game.take(len(log) - 1)] == log[1:]
    feed = api.get(f"/clubs/{club['id']}/events?after_position=0&limit=1000").get_json()["events"]
    assert [m.data for m in of_club.take(len(feed) - 1)] == feed[1:]
    of_game.close()
    of_club.close()
    return [e["position"] for e in log[1:]]


def test_with_a_replica_the_streams_read_what_each_notice_announced_there(client, pool, database_url):
    replica = SameServer(make_pool(database_url, max_size=4), Settings.replica_max_lag_bytes)
    server = StreamServer(pool, database_url, replica=replica)
    try:
        positions = follow_both(client, server)
    finally:
        server.stop()
        replica.pool.close()
    assert replica.asked and set(replica.asked) <= set(positions)  # each read named a notice's position
    # and was served there: one connection to ask, another to read
    assert replica.pool.get_stats()["requests_num"] > len(replica.asked)


def test_a_replica_that_lacks_what_a_notice_announced_leaves_the_read_to_the_primary(
    client, pool, database_url, server_url
):
    """The replica has replayed nothing of this test's log (an empty copy of the
    schema): every read that names a notice's position goes to the primary, and
    the readers get everything, in order."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    behind_url = with_schema(server_url, schema)
    with psycopg.connect(behind_url, autocommit=True) as conn:
        migrate(conn)
    replica = SameServer(make_pool(behind_url, max_size=4), Settings.replica_max_lag_bytes)
    server = StreamServer(pool, database_url, replica=replica)
    try:
        positions = follow_both(client, server)
    finally:
        server.stop()
        replica.pool.close()
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    assert replica.asked and set(replica.asked) <= set(positions)
