"""Webhooks delivered to a real receiver on the loopback: signed per the
Standard Webhooks specification, retried under the same webhook-id after a
500 or a timeout, never following a redirect, disabled after repeated
failures, refused for private addresses without WEBHOOK_ALLOW_PRIVATE, and
none lost when the worker is killed mid-delivery."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engines import registry
from service.records.hooks import endpoints, messages, outbox
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.web.helpers import sign_in
from tests.workers.helpers import drain, play_pig, wait_for
from tests.workers.receiver import Receiver, verified
from workers import db, webhooks
from workers.projections import webhooks as outbox_runner

ALL = list(messages.EVENTS)


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def quick(monkeypatch):
    """Loopback receivers allowed, short timeouts and retries."""
    monkeypatch.setenv("WEBHOOK_ALLOW_PRIVATE", "1")
    monkeypatch.setattr(outbox, "ATTEMPT_SECONDS", 0.3)
    monkeypatch.setattr(outbox, "RETRY_SECONDS", 0.05)


@pytest.fixture
def conn(database_url):
    c = db.connect(database_url)
    yield c
    c.close()


def pump(conn, until, timeout=15.0, what="the deliveries"):
    """Run the outbox and the senders in this process until ``until()`` holds."""

    def step():
        outbox_runner.catch_up(conn, budget=1)
        webhooks.deliver_due(conn, budget=0.5)
        return until()

    return wait_for(step, timeout, interval=0.05, what=what)


def club_with_webhook(client, url, events=ALL, format="standard"):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    made = api.post(f"/clubs/{club['id']}/webhooks", {"url": url, "events": events, "format": format})
    assert made.status_code == 201, made.get_json()
    return club, api, made.get_json()


def league_game(client, club, players, target=12):
    league = LeagueFactory(client=client, club=club, min_games=1)
    game = GameFactory(
        client=client, club=club, players=players, league=league["id"], options={"target": target}
    )
    return league, game, play_pig(client, game)


def deliveries(api, club, hook):
    answer = api.get(f"/clubs/{club['id']}/webhooks/{hook['id']}/deliveries")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_the_signature_is_the_specifications_own_test_vector():
    signed = messages.headers(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        b'{"test": 2432232314}',
        datetime.fromtimestamp(1614265330, UTC),
    )
    assert signed["webhook-timestamp"] == "1614265330"
    assert signed["webhook-signature"] == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def test_a_clubs_games_and_players_are_told_to_its_webhook_signed(client, conn, receiver, quick):
    club, api, hook = club_with_webhook(client, receiver.url)
    assert hook["secret"].startswith("whsec_")
    players = [PlayerFactory(client=client, club=club, name=name) for name in ("Ana", "Ben")]
    league, game, final = league_game(client, club, players)
    told = pump(conn, lambda: len(receiver.requests()) >= 5 and receiver.requests())

    assert all(verified(hook["secret"], r) for r in told)
    assert len({r.id for r in told}) == len(told)
    by_type = {r.json()["type"]: r.json() for r in told}
    assert sorted(by_type) == sorted(["player.added", "game.started", "game.ended", "standings.changed"])
    assert sum(r.json()["type"] == "player.added" for r in told) == 2
    ended = by_type["game.ended"]["data"]
    assert ended["game"] == game["id"] and ended["league"] == league["id"]
    assert ended["players"] == ["Ana", "Ben"]
    assert ended["winners"] == [
        n for n, p in zip(["Ana", "Ben"], final["outcome"]["places"], strict=True) if p == 1
    ]
    assert by_type["standings.changed"]["data"]["league"] == league["id"]
    assert ended["position"] <= by_type["standings.changed"]["data"]["position"]

    listed = deliveries(api, club, hook)["deliveries"]
    assert len(listed) == 5 and {d["status"] for d in listed} == {"delivered"}
    assert {d["webhook_id"] for d in listed} == {r.id for r in told}
    # Told once: more rounds send nothing again.
    pump(conn, lambda: True)
    assert len(receiver.requests()) == 5


def test_a_webhook_hears_only_the_events_it_wants_from_its_own_club(client, conn, receiver, quick):
    club, api, hook = club_with_webhook(client, receiver.url, events=["game.ended"])
    other = ClubFactory(client=client)
    league_game(client, other, [PlayerFactory(client=client, club=other) for _ in range(2)])
    league_game(client, club, [PlayerFactory(client=client, club=club) for _ in range(2)])
    told = pump(conn, lambda: receiver.requests())
    pump(conn, lambda: True)
    assert [r.json()["type"] for r in receiver.requests()] == ["game.ended"]
    assert told[0].json()["data"]["club"] == club["id"]


def test_a_delivery_answered_500_or_too_late_is_retried_under_the_same_webhook_id(
    client, conn, receiver, quick
):
    club, api, hook = club_with_webhook(client, receiver.url, events=["player.added"])
    receiver.answers = [500, 503]
    PlayerFactory(client=client, club=club)
    pump(conn, lambda: len(receiver.requests()) >= 3)
    first = receiver.requests()
    assert len({r.id for r in first}) == 1
    assert all(verified(hook["secret"], r) for r in first)
    listed = deliveries(api, club, hook)["deliveries"]
    assert [(d["status"], d["attempts"], d["last_status"]) for d in listed] == [("delivered", 3, 204)]

    receiver.pause = 1.0  # longer than the attempt may take
    PlayerFactory(client=client, club=club)
    pump(conn, lambda: deliveries(api, club, hook)["deliveries"][1]["attempts"] >= 1 and receiver.requests())
    timed_out = deliveries(api, club, hook)["deliveries"][1]
    assert timed_out["status"] == "pending" and "timed out" in timed_out["last_error"]
    receiver.pause = 0
    pump(conn, lambda: deliveries(api, club, hook)["deliveries"][1]["status"] == "delivered")
    second = [r for r in receiver.requests() if r not in first]
    assert len(second) >= 2 and len({r.id for r in second}) == 1 and second[0].id != first[0].id


def test_a_redirect_is_not_followed(client, conn, receiver, quick):
    club, api, hook = club_with_webhook(client, receiver.url, events=["player.added"])
    receiver.answers = [302]
    PlayerFactory(client=client, club=club)
    pump(conn, lambda: deliveries(api, club, hook)["deliveries"][0]["attempts"] >= 1)
    (delivery,) = deliveries(api, club, hook)["deliveries"]
    assert delivery["last_status"] == 302 and "redirects are not followed" in delivery["last_error"]
    assert len(receiver.requests()) == 1


def test_a_webhook_that_keeps_failing_is_disabled_stops_and_the_club_page_says_so(
    client, conn, receiver, quick, monkeypatch
):
    monkeypatch.setattr(outbox, "DISABLE_AFTER", 3)
    club, api, hook = club_with_webhook(client, receiver.url, events=["player.added"])
    receiver.answers = [500] * 100
    for _ in range(2):
        PlayerFactory(client=client, club=club)
    pump(conn, lambda: api.get(f"/clubs/{club['id']}/webhooks").get_json()[0]["disabled"], what="disabled")
    tries = len(receiver.requests())
    assert 3 <= tries <= 4  # the third failure disables it; an attempt already in flight may still go
    PlayerFactory(client=client, club=club)
    time.sleep(0.5)
    pump(conn, lambda: True)
    assert len(receiver.requests()) == tries  # a disabled webhook is sent nothing
    (listed,) = api.get(f"/clubs/{club['id']}/webhooks").get_json()
    assert listed["disabled_reason"].startswith("3 attempts in a row failed")

    sign_in(client, club["admin_token"])
    page = client.get(f"/club/{club['id']}").get_data(as_text=True)
    assert "stopped" in page and receiver.url in page

    receiver.answers = []
    again = api.post(f"/clubs/{club['id']}/webhooks/{hook['id']}/redeliver", {"after_position": 0})
    assert again.status_code == 202 and again.get_json() == {"redelivering": 3}
    pump(conn, lambda: {d["status"] for d in deliveries(api, club, hook)["deliveries"]} == {"delivered"})
    assert not api.get(f"/clubs/{club['id']}/webhooks").get_json()[0]["disabled"]


def test_private_and_loopback_addresses_are_refused_without_the_setting(
    client, conn, receiver, quick, monkeypatch
):
    club, api, hook = club_with_webhook(client, receiver.url, events=["player.added"])
    monkeypatch.delenv("WEBHOOK_ALLOW_PRIVATE")
    for url in (
        receiver.url,
        "http://localhost/",
        "http://10.1.2.3/",
        "http://[::1]:8080/",
        "http://169.254.169.254/",
    ):
        refused = api.post(f"/clubs/{club['id']}/webhooks", {"url": url, "events": ["game.ended"]})
        assert refused.status_code == 422, url
        assert refused.get_json()["code"] == "webhook-address-refused", url
    for url in ("ftp://example.org/", "http://user:pw@example.org/", "not a url"):
        assert (
            api.post(f"/clubs/{club['id']}/webhooks", {"url": url, "events": ["game.ended"]}).status_code
            == 422
        )
    # At delivery time too: the webhook made while it was allowed is not posted to.
    PlayerFactory(client=client, club=club)
    pump(conn, lambda: deliveries(api, club, hook)["deliveries"][0]["attempts"] >= 1)
    (delivery,) = deliveries(api, club, hook)["deliveries"]
    assert delivery["status"] == "pending" and "private, loopback or reserved" in delivery["last_error"]
    assert receiver.requests() == []


def test_the_discord_format_says_who_won_and_the_standings_top_three(
    client, conn, receiver, quick, database_url
):
    club, api, hook = club_with_webhook(client, receiver.url, events=["game.ended"], format="discord")
    players = [PlayerFactory(client=client, club=club, name=n) for n in ("Ana", "@everyone", "Cy")]
    league, game, final = league_game(client, club, players)
    # The message waits for the standings it quotes.
    webhooks.deliver_due(conn, budget=0.1)
    outbox_runner.catch_up(conn, budget=1)
    webhooks.deliver_due(conn, budget=0.1)
    assert receiver.requests() == []
    drain(database_url, ["standings"])
    (message,) = pump(conn, lambda: receiver.requests())
    body = message.json()
    assert body["allowed_mentions"] == {"parse": []}
    winner = next(
        p["name"] for p, place in zip(players, final["outcome"]["places"], strict=True) if place == 1
    )
    assert body["content"].startswith(f"{registry.get('pig').title} ended: {winner} won.")
    assert "Standings: 1. " in body["content"] and "3. " in body["content"].split("Standings:")[1]


def test_an_ended_webhook_is_sent_nothing_and_others_clubs_may_not_see_it(client, conn, receiver, quick):
    club, api, hook = club_with_webhook(client, receiver.url, events=["player.added"])
    other = ClubFactory(client=client)
    stranger = Api(client, other["admin_token"])
    assert stranger.get(f"/clubs/{club['id']}/webhooks").status_code in (403, 404)
    assert stranger.get(f"/clubs/{club['id']}/webhooks/{hook['id']}/deliveries").status_code in (403, 404)
    assert "secret" not in api.get(f"/clubs/{club['id']}/webhooks").get_json()[0]
    ended = client.delete(
        f"/clubs/{club['id']}/webhooks/{hook['id']}",
        headers={"Authorization": f"Bearer {club['admin_token']}"},
    )
    assert ended.status_code == 204
    PlayerFactory(client=client, club=club)
    pump(conn, lambda: True)
    time.sleep(0.3)
    pump(conn, lambda: True)
    assert receiver.requests() == []
    assert api.get(f"/clubs/{club['id']}/webhooks").get_json() == []


@pytest.mark.parametrize("point", ["before-commit", "after-post"])
def test_a_worker_killed_mid_delivery_loses_none(
    point, worker, broker_client, receiver, tmp_path, monkeypatch
):
    """``kill -9`` of the whole worker as the outbox commits a batch of
    deliveries, or after a delivery was posted and before it was recorded:
    once a worker runs again, every delivery is made, the one in flight under
    the webhook-id it was first sent with."""
    monkeypatch.setenv("WEBHOOK_ALLOW_PRIVATE", "1")
    settings = {"WEBHOOK_ALLOW_PRIVATE": "1", "WEBHOOK_RETRY_SECONDS": "0.5", "WEBHOOK_TIMEOUT": "1"}
    marker = tmp_path / "fault-fired"
    worker.start(TABLERECORD_FAULT=f"webhooks:{point}:group", TABLERECORD_FAULT_ONCE=str(marker), **settings)
    club, api, hook = club_with_webhook(broker_client, receiver.url, events=["game.started", "game.ended"])
    players = [PlayerFactory(client=broker_client, club=club) for _ in range(2)]
    league_game(broker_client, club, players)
    wait_for(lambda: not worker.alive(), 30, what="the fault to kill the worker")
    assert marker.exists()
    sent_before = receiver.requests()
    # The senders post at once: one post fires the fault, another may have gone out just before.
    assert (1 <= len(sent_before) <= webhooks.SENDERS) if point == "after-post" else not sent_before
    league_game(broker_client, club, players)  # recorded while no worker runs
    worker.start(**settings)

    def all_delivered():
        listed = deliveries(api, club, hook)["deliveries"]
        return len(listed) == 4 and {d["status"] for d in listed} == {"delivered"} and listed

    listed = wait_for(all_delivered, 60, what="every delivery made")
    received = receiver.requests()
    assert {r.id for r in received} == {d["webhook_id"] for d in listed}
    assert all(verified(hook["secret"], r) for r in received)
    ids = [r.id for r in received]
    assert all(ids.count(i) <= 2 for i in ids)
    if point == "after-post":
        again = [r.id for r in sent_before if ids.count(r.id) == 2]
        assert again, "the delivery in flight at the kill is sent again, under its id"
        assert len(received) == 4 + len(again)
    else:
        assert len(received) == 4


def test_the_guides_verification_code_accepts_a_signed_delivery_and_nothing_else():
    guide = (Path(__file__).resolve().parents[2] / "docs" / "apps.md").read_text()
    code = re.search(r"```python\n((?:(?!```).)*?def verify(?:(?!```).)*)```", guide, re.S).group(1)
    scope: dict = {}
    exec(code, scope)  # noqa: S102 - the guide's own example
    verify = scope["verify"]
    secret, body = endpoints.new_secret(), b'{"type": "game.ended", "data": {}}'
    signed = messages.headers(secret, "msg_1", body, datetime.now(UTC))
    assert verify(secret, signed, body)
    assert not verify(secret, signed, body.replace(b"ended", b"Ended"))
    assert not verify(endpoints.new_secret(), signed, body)
    stale = messages.headers(secret, "msg_1", body, datetime.fromtimestamp(time.time() - 600, UTC))
    assert not verify(secret, stale, body)


def _roll(api, gid, value):
    assert api.post(f"/games/{gid}/actions", {"seat": 0, "command": {"type": "Roll"}}).status_code == 201
    rolled = api.post(
        f"/games/{gid}/actions", {"seat": None, "command": {"type": "ResolveRoll", "dice": [value]}}
    )
    assert rolled.status_code == 201, rolled.get_json()
    return rolled.get_json()["version"]


def test_a_result_retracted_or_an_end_taken_back_tells_the_standings_changed(client, conn, receiver, quick):
    club, api, hook = club_with_webhook(client, receiver.url, events=["standings.changed"])
    ana, ben = (PlayerFactory(client=client, club=club, name=name) for name in ("Ana", "Ben"))
    league = LeagueFactory(client=client, club=club, min_games=1)
    scores = [{"player": ana["id"], "score": 31}, {"player": ben["id"], "score": 7}]
    logged = api.post(
        f"/clubs/{club['id']}/results", {"engine": "pig", "league": league["id"], "players": scores}
    )
    assert logged.status_code == 201, logged.get_json()
    retracted = api.post(f"/games/{logged.get_json()['id']}/result/retract", {"reason": "wrong table"})
    assert retracted.status_code == 200, retracted.get_json()

    game = GameFactory(
        client=client,
        club=club,
        players=[ana, ben],
        dealer="table",
        league=league["id"],
        options={"target": 12},
    )
    gid = game["id"]
    _roll(api, gid, 6)
    before_end = _roll(api, gid, 6)
    held = api.post(f"/games/{gid}/actions", {"seat": 0, "command": {"type": "Hold"}})
    assert held.get_json()["status"] == "finished"
    taken_back = api.post(f"/games/{gid}/retract", {"to_version": before_end, "reason": "misread die"})
    assert taken_back.status_code == 201
    # A game that has not ended changes no standings when its actions are taken back.
    assert api.post(f"/games/{gid}/retract", {"to_version": before_end - 2}).status_code == 201

    told = pump(conn, lambda: len(receiver.requests()) >= 4 and receiver.requests())
    pump(conn, lambda: True)
    assert len(receiver.requests()) == 4
    assert all(verified(hook["secret"], r) for r in told)
    bodies = [r.json() for r in told]
    assert {b["type"] for b in bodies} == {"standings.changed"}
    result_events = api.get(f"/games/{logged.get_json()['id']}/events").get_json()["events"]
    (retraction,) = [e["position"] for e in result_events if e["type"] == "ActionsRetracted"]
    said = [(b["data"]["game"], b["data"]["league"], b["data"]["position"]) for b in bodies]
    assert sorted(said, key=lambda s: s[2]) == [
        (logged.get_json()["id"], league["id"], logged.get_json()["log_position"]),
        (logged.get_json()["id"], league["id"], retraction),
        (gid, league["id"], held.get_json()["log_position"]),
        (gid, league["id"], taken_back.get_json()["log_position"]),
    ]
