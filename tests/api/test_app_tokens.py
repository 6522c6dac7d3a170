"""App tokens: made, listed and revoked by the club's admin, each holding only
its scopes; every route of the API walked with a token of every scope."""

from __future__ import annotations

import datetime as dt
import io
import time
import uuid
from types import SimpleNamespace

import pytest

from service.records.access import SCOPES
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.web.helpers import csrf_token
from tests.workers.helpers import drain


def make_app(client, club, scopes, name="Club website"):
    response = Api(client, club["admin_token"]).post(
        f"/clubs/{club['id']}/apps", {"name": name, "scopes": list(scopes)}
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


# -- made, listed, revoked ---------------------------------------------------------


def test_an_app_token_is_shown_once_kept_as_a_hash_and_listed_with_its_scopes_and_last_use(client, pool):
    club = ClubFactory(client=client)
    admin = Api(client, club["admin_token"])
    made = make_app(client, club, ["players", "read"], name="Discord bot")
    assert made["token"].startswith("tr_app_") and made["scopes"] == ["read", "players"]
    with pool.connection() as conn:
        stored = [r["hash"] for r in conn.execute("SELECT hash FROM tokens WHERE kind = 'app'")]
    assert len(stored) == 1 and made["token"] not in stored[0]
    listed = admin.get(f"/clubs/{club['id']}/apps").get_json()
    assert [(a["id"], a["name"], a["scopes"], a["last_used_at"]) for a in listed] == [
        (made["id"], "Discord bot", ["read", "players"], None)
    ]
    assert "token" not in listed[0]
    assert Api(client, made["token"]).get(f"/clubs/{club['id']}").status_code == 200
    (used,) = admin.get(f"/clubs/{club['id']}/apps").get_json()
    assert used["last_used_at"] is not None


@pytest.mark.parametrize(
    "body",
    [
        {"name": "Bot", "scopes": []},
        {"name": "Bot", "scopes": ["admin"]},
        {"name": "Bot\u202e", "scopes": ["read"]},
        {"scopes": ["read"]},
    ],
)
def test_an_app_needs_a_name_and_known_scopes(client, body):
    club = ClubFactory(client=client)
    response = Api(client, club["admin_token"]).post(f"/clubs/{club['id']}/apps", body)
    assert response.status_code == 422, response.get_json()
    assert Api(client, club["admin_token"]).get(f"/clubs/{club['id']}/apps").get_json() == []


def test_only_the_admin_token_makes_lists_and_revokes_apps(client):
    club, other = ClubFactory(client=client), ClubFactory(client=client)
    app = make_app(client, club, SCOPES)
    holder = Api(client, app["token"])
    for response in (
        holder.post(f"/clubs/{club['id']}/apps", {"name": "Another", "scopes": ["read"]}),
        holder.get(f"/clubs/{club['id']}/apps"),
        client.delete(f"/clubs/{club['id']}/apps/{app['id']}", headers=holder.headers()),
    ):
        assert response.status_code == 403 and response.get_json()["code"] == "admin-only"
    outsider = Api(client, other["admin_token"])
    assert outsider.get(f"/clubs/{club['id']}/apps").status_code == 404
    gone = client.delete(f"/clubs/{other['id']}/apps/{app['id']}", headers=outsider.headers())
    assert gone.status_code == 404


def test_a_revoked_app_token_stops_at_once_in_the_process_that_revoked_it(client):
    club = ClubFactory(client=client)
    app = make_app(client, club, ["read"])
    holder = Api(client, app["token"])
    assert holder.get(f"/clubs/{club['id']}").status_code == 200  # known to this process
    admin = Api(client, club["admin_token"])
    revoked = client.delete(f"/clubs/{club['id']}/apps/{app['id']}", headers=admin.headers())
    assert revoked.status_code == 204
    refused = holder.get(f"/clubs/{club['id']}")
    assert refused.status_code == 401 and refused.get_json()["code"] == "invalid-token"
    assert admin.get(f"/clubs/{club['id']}/apps").get_json() == []


def test_another_process_forgets_a_revoked_app_token_within_two_seconds(client, pool, monkeypatch):
    club = ClubFactory(client=client)
    app = make_app(client, club, ["read"])
    holder = Api(client, app["token"])
    assert holder.get(f"/clubs/{club['id']}").status_code == 200  # known to this process
    with pool.connection() as conn:  # another process revokes it
        conn.execute("DELETE FROM apps WHERE id = %s", (app["id"],))
    assert holder.get(f"/clubs/{club['id']}").status_code == 200  # still remembered
    monkeypatch.setattr("service.auth.time", SimpleNamespace(monotonic=lambda: time.monotonic() + 2.01))
    assert holder.get(f"/clubs/{club['id']}").status_code == 401


def test_an_app_token_signs_nobody_in_on_the_web_pages(client):
    club = ClubFactory(client=client)
    app = make_app(client, club, SCOPES)
    page = client.get("/").get_data(as_text=True)
    response = client.post("/sign-in", data={"token": app["token"], "csrf_token": csrf_token(page)})
    assert response.status_code == 401 and "for the API" in response.get_data(as_text=True)
    assert "tablerecord_session" not in response.headers.get("Set-Cookie", "")


def test_an_app_token_is_rate_limited_on_its_own(settings, pool):
    """Each token counts against its own allowance: an app that spends its
    allowance holds back neither the admin nor another app."""
    from dataclasses import replace

    from service.app import create_app

    app = create_app(replace(settings, rate_limit="5 per minute"), pool=pool)
    client = app.test_client()
    club = ClubFactory(client=client)
    busy, quiet = make_app(client, club, ["read"]), make_app(client, club, ["read"], name="Quiet")
    answers = [Api(client, busy["token"]).get(f"/clubs/{club['id']}").status_code for _ in range(6)]
    assert answers == [200] * 5 + [429]
    assert Api(client, quiet["token"]).get(f"/clubs/{club['id']}").status_code == 200
    assert Api(client, club["admin_token"]).get(f"/clubs/{club['id']}").status_code == 200


# -- every route, every scope ------------------------------------------------------

#: What grants each route to an app token: the scopes that do (the admin token
#: holds them all), ``ADMIN`` (the admin token alone), ``CLUB`` (any token of
#: the club) or ``ANYONE`` (no token needed).
ADMIN, CLUB, ANYONE = "admin", "club", "anyone"
#: Only a member's own sign-in (a game night's answer): no app scope opens it.
MEMBER = "member"
READ, RESULTS, GAMES, PLAYERS = (frozenset({s}) for s in SCOPES)
SEES_GAMES = frozenset({"read", "games"})


def _csv(w):
    rows = "".join(
        f"2024-01-02,Pig,{p['name']},{score},\n" for p, score in zip(w.players[:2], (40, 3), strict=True)
    )
    return {"data": {"file": (io.BytesIO(f"date,game,player,score,place\n{rows}".encode()), "plays.csv")}}


#: endpoint: (what grants it, method, path, request) with the world ``w`` of ``_world``.
ROUTES = {
    "health": (ANYONE, "GET", lambda w: "/health", None),
    "api-docs.openapi_json": (ANYONE, "GET", lambda w: "/openapi.json", None),
    "engines.list_engines": (ANYONE, "GET", lambda w: "/engines", None),
    "engines.get_engine": (ANYONE, "GET", lambda w: "/engines/pig", None),
    "engines.get_default_catalog": (ANYONE, "GET", lambda w: "/engines/house-of-cronies/catalog", None),
    "projections.freshness": (ANYONE, "GET", lambda w: "/projections", None),
    "clubs.create_club": (ANYONE, "POST", lambda w: "/clubs", lambda w: {"json": {"name": "New"}}),
    "history.restore_club": (ANYONE, "POST", lambda w: "/clubs/restore", lambda w: w.backup()),
    "clubs.get_club": (READ, "GET", lambda w: f"/clubs/{w.club}", None),
    "clubs.rotate_admin_token": (ADMIN, "POST", lambda w: f"/clubs/{w.club}/admin-token", None),
    "history.club_backup": (ADMIN, "GET", lambda w: f"/clubs/{w.club}/backup.ndjson", None),
    "apps.create_app_token": (
        ADMIN,
        "POST",
        lambda w: f"/clubs/{w.club}/apps",
        lambda w: {"json": {"name": "Another", "scopes": ["read"]}},
    ),
    "apps.list_app_tokens": (ADMIN, "GET", lambda w: f"/clubs/{w.club}/apps", None),
    "apps.revoke_app_token": (ADMIN, "DELETE", lambda w: f"/clubs/{w.club}/apps/{w.other_app}", None),
    "catalogs.register_catalog": (
        ADMIN,
        "POST",
        lambda w: f"/clubs/{w.club}/catalogs",
        lambda w: {"json": {"kind": "house-of-cronies", "content": w.catalog}},
    ),
    "catalogs.list_catalogs": (CLUB, "GET", lambda w: f"/clubs/{w.club}/catalogs", None),
    "catalogs.get_catalog": (
        CLUB,
        "GET",
        lambda w: f"/clubs/{w.club}/catalogs/house-of-cronies/house-of-cronies-default/1",
        None,
    ),
    "games.club_feed": (READ, "GET", lambda w: f"/clubs/{w.club}/events", None),
    "games.club_feed_ndjson": (READ, "GET", lambda w: f"/clubs/{w.club}/events.ndjson", None),
    "games.list_games": (READ, "GET", lambda w: f"/clubs/{w.club}/games", None),
    "games.create_game": (
        GAMES,
        "POST",
        lambda w: f"/clubs/{w.club}/games",
        lambda w: {"json": {"engine": "pig", "seats": [p["id"] for p in w.players[:2]], "options": {}}},
    ),
    "interchange.import_game": (
        GAMES,
        "POST",
        lambda w: f"/clubs/{w.club}/games/import",
        lambda w: {"json": w.document},
    ),
    "profiles.search": (READ, "GET", lambda w: f"/clubs/{w.club}/games/search", None),
    "history.import_history": (
        RESULTS,
        "POST",
        lambda w: f"/clubs/{w.club}/history",
        lambda w: {**_csv(w), "content_type": "multipart/form-data"},
    ),
    "history.club_plays": (READ, "GET", lambda w: f"/clubs/{w.club}/plays.csv", None),
    # A restore's job is read by whoever has its address (an import's: only its starter).
    "history.read_job": (ANYONE, "GET", lambda w: f"/jobs/{w.job}", None),
    "leagues.create_league": (
        PLAYERS,
        "POST",
        lambda w: f"/clubs/{w.club}/leagues",
        lambda w: {"json": {"name": "Spring"}},
    ),
    "leagues.list_leagues": (READ, "GET", lambda w: f"/clubs/{w.club}/leagues", None),
    "leagues.update_league": (
        PLAYERS,
        "PATCH",
        lambda w: f"/clubs/{w.club}/leagues/{w.league}",
        lambda w: {"json": {"name": "Renamed"}},
    ),
    "players.create_player": (
        PLAYERS,
        "POST",
        lambda w: f"/clubs/{w.club}/players",
        lambda w: {"json": {"name": "Newcomer"}},
    ),
    "players.list_players": (READ, "GET", lambda w: f"/clubs/{w.club}/players", None),
    "players.update_player": (
        PLAYERS,
        "PATCH",
        lambda w: f"/clubs/{w.club}/players/{w.players[3]['id']}",
        lambda w: {"json": {"retired": True}},
    ),
    "players.issue_member_sign_in": (
        ADMIN,
        "POST",
        lambda w: f"/clubs/{w.club}/players/{w.players[0]['id']}/sign-in",
        None,
    ),
    "players.merge_player": (
        PLAYERS,
        "POST",
        lambda w: f"/clubs/{w.club}/players/{w.players[2]['id']}/merge",
        lambda w: {"json": {"into": w.players[3]["id"]}},
    ),
    "players.unmerge_player": (
        PLAYERS,
        "POST",
        lambda w: f"/clubs/{w.club}/players/{w.players[2]['id']}/unmerge",
        None,
    ),
    "players.revoke_member_sign_in": (
        ADMIN,
        "DELETE",
        lambda w: f"/clubs/{w.club}/players/{w.players[0]['id']}/sign-in",
        None,
    ),
    "results.record_result": (
        RESULTS,
        "POST",
        lambda w: f"/clubs/{w.club}/results",
        lambda w: {"json": w.result_body},
    ),
    "results.list_results": (READ, "GET", lambda w: f"/clubs/{w.club}/results", None),
    "results.get_result": (READ, "GET", lambda w: f"/games/{w.result}/result", None),
    "results.retract_result": (
        RESULTS,
        "POST",
        lambda w: f"/games/{w.result}/result/retract",
        lambda w: {"json": {"reason": "entered twice"}},
    ),
    "games.get_game": (SEES_GAMES, "GET", lambda w: f"/games/{w.game}", None),
    "games.legal_actions": (GAMES, "GET", lambda w: f"/games/{w.game}/legal-actions", None),
    "games.post_action": (
        GAMES,
        "POST",
        lambda w: f"/games/{w.game}/actions",
        lambda w: {"json": w.action},
    ),
    "games.list_events": (SEES_GAMES, "GET", lambda w: f"/games/{w.game}/events", None),
    "games.list_events_ndjson": (SEES_GAMES, "GET", lambda w: f"/games/{w.game}/events.ndjson", None),
    "games.retract": (
        GAMES,
        "POST",
        lambda w: f"/games/{w.game}/retract",
        lambda w: {"json": {"to_version": 1}},
    ),
    "games.abandon": (GAMES, "POST", lambda w: f"/games/{w.game}/abandon", lambda w: {"json": {}}),
    "games.reissue_seat_tokens": (GAMES, "POST", lambda w: f"/games/{w.game}/seat-tokens", None),
    "interchange.export_game": (GAMES, "GET", lambda w: f"/games/{w.game}/export", None),
    "replays.replay": (SEES_GAMES, "GET", lambda w: f"/games/{w.game}/replay", None),
    "replays.replay_step": (SEES_GAMES, "GET", lambda w: f"/games/{w.game}/replay/steps/1", None),
    "replays.export": (SEES_GAMES, "GET", lambda w: f"/games/{w.game}/replay/export", None),
    "replays.export_ndjson": (SEES_GAMES, "GET", lambda w: f"/games/{w.game}/replay/export.ndjson", None),
    "history.league_plays": (READ, "GET", lambda w: f"/leagues/{w.league}/plays.csv", None),
    "history.league_standings": (READ, "GET", lambda w: f"/leagues/{w.league}/standings.csv", None),
    "standings.standings": (READ, "GET", lambda w: f"/leagues/{w.league}/standings", None),
    "standings.rating_history": (READ, "GET", lambda w: f"/leagues/{w.league}/rating-history", None),
    "statistics.statistics": (READ, "GET", lambda w: f"/leagues/{w.league}/statistics", None),
    "profiles.profile": (READ, "GET", lambda w: f"/players/{w.players[0]['id']}/profile", None),
    "history.club_plays_bgstats": (READ, "GET", lambda w: f"/clubs/{w.club}/plays.bgsplay", None),
    "api_reference": (ANYONE, "GET", lambda w: "/docs", None),
    "tournaments.list_tournaments": (READ, "GET", lambda w: f"/clubs/{w.club}/tournaments", None),
    "tournaments.get_tournament": (READ, "GET", lambda w: f"/tournaments/{w.tournament}", None),
    "tournaments.create_tournament": (
        ADMIN,
        "POST",
        lambda w: f"/clubs/{w.club}/tournaments",
        lambda w: {"json": {"name": "Spring Cup", "engine": "chancellors", "rounds": 1}},
    ),
    "tournaments.enter_player": (
        ADMIN,
        "POST",
        lambda w: f"/tournaments/{w.tournament}/players",
        lambda w: {"json": {"player": w.players[2]["id"]}},
    ),
    "tournaments.withdraw_player": (
        ADMIN,
        "POST",
        lambda w: f"/tournaments/{w.tournament}/players/{w.players[0]['id']}/withdraw",
        None,
    ),
    "tournaments.seat_round": (ADMIN, "POST", lambda w: f"/tournaments/{w.tournament}/rounds", None),
    "tournaments.swap_players": (
        ADMIN,
        "POST",
        lambda w: f"/tournaments/{w.tournament}/swap",
        lambda w: {"json": {"players": [w.players[0]["id"], w.players[1]["id"]]}},
    ),
    "tournaments.start_table_game": (
        ADMIN,
        "POST",
        lambda w: f"/tournaments/{w.tournament}/tables/1/game",
        lambda w: {"json": {"options": {}}},
    ),
    "tournaments.log_table_result": (
        ADMIN,
        "POST",
        lambda w: f"/tournaments/{w.tournament}/tables/1/result",
        lambda w: {"json": {"players": [{"player": w.players[0]["id"], "place": 1}]}},
    ),
    "game nights.list_nights": (READ, "GET", lambda w: f"/clubs/{w.club}/game-nights", None),
    "game nights.get_night": (READ, "GET", lambda w: f"/game-nights/{w.night}", None),
    "game nights.post_night": (
        ADMIN,
        "POST",
        lambda w: f"/clubs/{w.club}/game-nights",
        lambda w: {"json": {"day": w.today, "time": "19:30", "place": "Hall", "games": ["chancellors"]}},
    ),
    "game nights.answer_night": (
        MEMBER,
        "POST",
        lambda w: f"/game-nights/{w.night}/answer",
        lambda w: {"json": {"answer": "yes"}},
    ),
    "game nights.mark_present": (
        ADMIN,
        "POST",
        lambda w: f"/game-nights/{w.night}/present",
        lambda w: {"json": {"players": [w.players[0]["id"]]}},
    ),
    "game nights.propose_tables": (ADMIN, "GET", lambda w: f"/game-nights/{w.night}/tables", None),
    "game nights.start_table": (
        ADMIN,
        "POST",
        lambda w: f"/game-nights/{w.night}/tables",
        lambda w: {"json": {"engine": "chancellors", "players": [p["id"] for p in w.players[:2]]}},
    ),
    "game nights.log_table_result": (
        ADMIN,
        "POST",
        lambda w: f"/game-nights/{w.night}/tables/result",
        lambda w: {
            "json": {"engine": "chancellors", "players": [{"player": w.players[0]["id"], "place": 1}]}
        },
    ),
    "webhooks.create_webhook": (
        ADMIN,
        "POST",
        lambda w: f"/clubs/{w.club}/webhooks",
        lambda w: {"json": {"url": "https://example.org/tablerecord", "events": ["game.ended"]}},
    ),
    "webhooks.list_webhooks": (ADMIN, "GET", lambda w: f"/clubs/{w.club}/webhooks", None),
    "webhooks.end_webhook": (ADMIN, "DELETE", lambda w: f"/clubs/{w.club}/webhooks/{w.webhook}", None),
    "webhooks.list_deliveries": (
        ADMIN,
        "GET",
        lambda w: f"/clubs/{w.club}/webhooks/{w.webhook}/deliveries",
        None,
    ),
    "webhooks.redeliver": (
        ADMIN,
        "POST",
        lambda w: f"/clubs/{w.club}/webhooks/{w.webhook}/redeliver",
        lambda w: {"json": {"after_position": 0}},
    ),
}


def api_endpoints(app) -> set[str]:
    """Every endpoint of the API (the web pages and the docs' assets aside)."""
    return {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if not rule.endpoint.startswith(("web.", "static", "swagger_ui"))
    }


def test_every_route_of_the_api_is_in_the_scope_matrix(app):
    assert api_endpoints(app) == set(ROUTES)


class _World(SimpleNamespace):
    def backup(self):
        text = self.admin.get(f"/clubs/{self.club}/backup.ndjson").get_data()
        return {"data": {"file": (io.BytesIO(text), "club.ndjson")}, "content_type": "multipart/form-data"}


def _world(client, database_url) -> _World:
    """A club with four players, a private league, a live table game of Pig in
    it, a result, a tournament with two players entered and an app of every scope."""
    club = ClubFactory(client=client)
    admin = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club) for _ in range(4)]
    league = LeagueFactory(client=client, club=club, engine="pig")
    game = GameFactory(client=client, club=club, players=players[:2], dealer="table", league=league["id"])
    rolled = admin.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    assert rolled.status_code == 201, rolled.get_json()
    action = admin.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]["dealer"][0]
    result_body = {
        "engine": "pig",
        "players": [{"player": p["id"], "score": s} for p, s in zip(players[:2], (31, 7), strict=True)],
    }
    result = admin.post(f"/clubs/{club['id']}/results", result_body).get_json()
    assert "id" in result, result
    document = admin.get(f"/games/{game['id']}/export").get_json()
    catalog = client.get("/engines/house-of-cronies/catalog").get_json()["content"]
    tournament = admin.post(
        f"/clubs/{club['id']}/tournaments", {"name": "Winter Cup", "engine": "chancellors", "rounds": 1}
    ).get_json()
    for p in players[:2]:
        admin.post(f"/tournaments/{tournament['id']}/players", {"player": p["id"]})
    today = dt.date.today().isoformat()
    night_body = {"day": today, "time": "19:30", "place": "Hall", "games": ["chancellors"]}
    night = admin.post(f"/clubs/{club['id']}/game-nights", night_body).get_json()
    drain(database_url)
    world = _World(client=client, admin=admin, club=club["id"])
    job = client.post("/clubs/restore", headers={"Prefer": "respond-async"}, **world.backup())
    assert job.status_code == 202, job.get_json()
    return _World(
        job=job.get_json()["id"],
        night=night["id"],
        today=today,
        client=client,
        admin=admin,
        club=club["id"],
        players=players,
        league=league["id"],
        game=game["id"],
        action=action,
        result=result["id"],
        tournament=tournament["id"],
        webhook=uuid.uuid4(),  # the admin-only refusal comes before the webhook is looked up
        result_body=result_body,
        document=document,
        catalog={**catalog, "id": "tuesday", "version": 1},
        other_app=make_app(client, club, ["read"], name="Other")["id"],
        tokens={scope: make_app(client, club, [scope], name=scope)["token"] for scope in SCOPES},
    )


def _call(w: _World, endpoint: str, token: str):
    _, method, path, request = ROUTES[endpoint]
    kwargs = request(w) if request else {}
    return w.client.open(path(w), method=method, headers={"Authorization": f"Bearer {token}"}, **kwargs)


#: Routes whose use ends what others need (the live game), walked last.
LAST = ("games.retract", "games.abandon")


def _walk_order(endpoint: str) -> tuple[int, int, str]:
    """Reads first, then writes, then ``LAST``: each route finds the world as
    the others left it."""
    return (endpoint in LAST, LAST.index(endpoint) if endpoint in LAST else 0, ROUTES[endpoint][1] != "GET")


def test_each_scope_opens_its_routes_and_no_other(client, database_url):
    """An app token of each scope is refused (403, saying why) on every route
    its scope does not open, and let through on those it does."""
    w = _world(client, database_url)
    wrong = []
    for endpoint in sorted(ROUTES, key=lambda e: (*_walk_order(e), e)):
        grants = ROUTES[endpoint][0]
        granted = {ADMIN: set(), MEMBER: set(), CLUB: set(SCOPES), ANYONE: set(SCOPES)}.get(grants, grants)
        for scope in sorted(set(SCOPES) - granted):  # refused first: they change nothing
            response = _call(w, endpoint, w.tokens[scope])
            code = (response.get_json(silent=True) or {}).get("code")
            expected = {ADMIN: "admin-only", MEMBER: "members-answer"}.get(grants, "scope-missing")
            if (response.status_code, code) != (403, expected):
                wrong.append((endpoint, scope, "refused", response.status_code, code))
        for scope in sorted(granted):
            response = _call(w, endpoint, w.tokens[scope])
            if response.status_code >= 400:
                wrong.append((endpoint, scope, "granted", response.status_code, response.get_data()[:200]))
    assert wrong == []
