"""Conditional requests: ETags on the reads an app caches, If-Match on actions,
and the log position every write that appends answers with."""

from __future__ import annotations

import re

import pytest

from tests.api.test_app_tokens import _world
from tests.api.test_idempotent_writes import _arrange, _send, _writes
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.helpers import event_count
from tests.workers.helpers import drain


@pytest.fixture
def league_game(client, database_url):
    club = ClubFactory(client=client)
    admin = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    league = LeagueFactory(client=client, club=club, engine="pig")
    game = GameFactory(client=client, club=club, players=players, dealer="table", league=league["id"])
    drain(database_url)
    return club, admin, players, league, game


def _reads(club, players, league, game) -> list[str]:
    return [
        f"/games/{game['id']}",
        f"/games/{game['id']}/events",
        f"/games/{game['id']}/events.ndjson",
        f"/clubs/{club['id']}/events",
        f"/clubs/{club['id']}/events.ndjson",
        f"/games/{game['id']}/replay",
        f"/games/{game['id']}/replay/steps/1",
        f"/games/{game['id']}/replay/export",
        f"/games/{game['id']}/replay/export.ndjson",
        f"/leagues/{league['id']}/standings",
        f"/leagues/{league['id']}/rating-history",
        f"/leagues/{league['id']}/statistics",
        f"/players/{players[0]['id']}/profile",
    ]


def test_each_cached_read_answers_304_to_its_own_etag_and_200_once_it_changed(
    client, database_url, league_game
):
    club, admin, players, league, game = league_game
    tags = {}
    for path in _reads(club, players, league, game):
        first = admin.get(path)
        assert first.status_code == 200, (path, first.get_data()[:200])
        tags[path] = first.headers["ETag"]
        assert "Authorization" in first.headers["Vary"]
        again = admin.get(path, **{"If-None-Match": tags[path]})
        assert again.status_code == 304 and again.get_data() == b"", path
        assert admin.get(path, **{"If-None-Match": '"another"'}).status_code == 200
    rolled = admin.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    assert rolled.status_code == 201
    admin.post(
        f"/games/{game['id']}/actions", {"seat": None, "command": {"type": "ResolveRoll", "dice": [1]}}
    )
    drain(database_url)
    for path in _reads(club, players, league, game)[:9]:  # the game and its feed moved on
        changed = admin.get(path, **{"If-None-Match": tags[path]})
        assert changed.status_code == 200 and changed.headers["ETag"] != tags[path], path


def test_an_etag_belongs_to_what_its_token_sees(client, league_game):
    club, admin, players, league, game = league_game
    seat = Api(client, game["seat_tokens"][0]["token"])
    recorder = admin.get(f"/games/{game['id']}")
    seated = seat.get(f"/games/{game['id']}", **{"If-None-Match": recorder.headers["ETag"]})
    assert seated.status_code == 200 and seated.headers["ETag"] != recorder.headers["ETag"]


def test_if_match_on_an_action_is_its_expected_version(client, pool, league_game):
    club, admin, players, league, game = league_game
    tag = admin.get(f"/games/{game['id']}").headers["ETag"]
    assert tag.startswith('"v1-')
    roll = {"seat": 0, "command": {"type": "Roll"}}
    assert admin.post(f"/games/{game['id']}/actions", roll, **{"If-Match": tag}).status_code == 201
    stored = event_count(pool, game["id"])
    die = {"seat": None, "command": {"type": "ResolveRoll", "dice": [4]}}
    stale = admin.post(f"/games/{game['id']}/actions", die, **{"If-Match": tag})
    by_body = admin.post(f"/games/{game['id']}/actions", {**die, "expected_version": 1})
    assert stale.status_code == by_body.status_code == 409
    assert stale.get_json()["code"] == by_body.get_json()["code"] == "version-conflict"
    assert stale.get_json()["current_version"] == 2
    assert event_count(pool, game["id"]) == stored
    current = admin.get(f"/games/{game['id']}").headers["ETag"]
    assert admin.post(f"/games/{game['id']}/actions", die, **{"If-Match": current}).status_code == 201
    assert admin.post(f"/games/{game['id']}/actions", roll, **{"If-Match": "*"}).status_code == 201


@pytest.mark.parametrize(
    ("header", "body", "code"),
    [('"not-a-version"', {}, "invalid-if-match"), ('"v3"', {"expected_version": 2}, "if-match-disagrees")],
)
def test_an_if_match_that_names_no_version_or_another_one_is_refused(client, league_game, header, body, code):
    club, admin, players, league, game = league_game
    roll = {"seat": 0, "command": {"type": "Roll"}, **body}
    refused = admin.post(f"/games/{game['id']}/actions", roll, **{"If-Match": header})
    assert refused.status_code == 422 and refused.get_json()["code"] == code


def test_every_write_that_appends_says_its_log_position_for_min_position(client, database_url, league_game):
    club, admin, players, league, game = league_game
    acted = admin.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    assert int(acted.headers["Log-Position"]) == acted.get_json()["events"][-1]["position"]
    result = admin.post(
        f"/clubs/{club['id']}/results",
        {
            "engine": "pig",
            "league": league["id"],
            "players": [{"player": p["id"], "score": s} for p, s in zip(players, (31, 7), strict=True)],
        },
    )
    assert result.status_code == 201
    position = int(result.headers["Log-Position"])
    assert position > int(acted.headers["Log-Position"])
    waiting = admin.get(f"/leagues/{league['id']}/standings?min_position={position}")
    assert waiting.status_code == 503 and waiting.get_json()["code"] == "projection-behind"
    drain(database_url)
    standings = admin.get(f"/leagues/{league['id']}/standings?min_position={position}")
    assert standings.status_code == 200
    assert "Log-Position" not in admin.post(f"/clubs/{club['id']}/players", {"name": "Newcomer"}).headers


def _documents_position(spec: dict, rule, method: str, status: int) -> bool:
    """Whether openapi documents ``Log-Position`` and ``log_position`` on this answer (both, or neither)."""
    path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
    answer = spec["paths"][path][method.lower()]["responses"][str(status)]
    header = "Log-Position" in answer.get("headers", {})
    schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
    name = schema.get("$ref", "").rpartition("/")[2]
    field = "log_position" in spec["components"]["schemas"].get(name, {}).get("properties", {})
    assert header == field, (rule.endpoint, header, field)
    return header


def test_every_write_says_its_log_position_in_its_body_as_in_its_header(
    app, client, database_url, monkeypatch
):
    """Every write route, sent and sent again under its Idempotency-Key: the
    body's ``log_position`` is its ``Log-Position`` header, openapi.yaml says
    so exactly where it is sent, and a read waiting for it sees the write."""
    world = _world(client, database_url)
    member = world.players[3]
    world.member = world.admin.post(f"/clubs/{world.club}/players/{member['id']}/sign-in").get_json()["token"]
    spec = app.extensions["tablerecord.api"].spec.to_dict()
    rules = {rule.endpoint: rule for rule in app.url_map.iter_rules()}
    admin, positions = world.admin.token, []
    for endpoint in _writes(app):
        w = _arrange(world, endpoint, monkeypatch)
        first = _send(w, endpoint, f"position-of-{endpoint}")
        again = _send(w, endpoint, f"position-of-{endpoint}")
        assert first.status_code < 400, (endpoint, first.get_data()[:200])
        header = first.headers.get("Log-Position")
        assert (endpoint, again.headers.get("Log-Position")) == (endpoint, header)
        for answer in (first, again):
            body = answer.get_json(silent=True) or {}
            assert (endpoint, body.get("log_position")) == (endpoint, header and int(header))
        method = next(iter(rules[endpoint].methods & {"POST", "PATCH", "DELETE"}))
        assert _documents_position(spec, rules[endpoint], method, first.status_code) == (header is not None)
        body = first.get_json(silent=True) or {}
        if header is not None:  # a restore's events are its new club's
            club, token = (body["id"], body["admin_token"]) if "admin_token" in body else (world.club, None)
            positions.append((endpoint, int(header), club, token))
        if endpoint == "clubs.rotate_admin_token":
            admin = body["admin_token"]
    assert {e for e, *_ in positions} >= {
        "games.post_action",
        "results.record_result",
        "results.retract_result",
    }
    last = max(p for _, p, *_ in positions)
    waiting = Api(client, admin).get(f"/projections?min_position={last}")
    assert waiting.status_code == 503 and waiting.get_json()["code"] == "projection-behind"
    drain(database_url)
    for endpoint, position, club, token in positions:
        reader = Api(client, token or admin)
        assert reader.get(f"/projections?min_position={position}").status_code == 200, endpoint
        feed = reader.get(f"/clubs/{club}/events?after_position={position - 1}&limit=1").get_json()
        assert [e["position"] for e in feed["events"]] == [position], endpoint
