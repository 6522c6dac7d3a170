"""Every write of the API answers once per Idempotency-Key: the same key and
body give the same answer (tokens included), another body under the key is a
422, and a key belongs to the token that sent it."""

from __future__ import annotations

import copy
import io

from tests.api.test_app_tokens import ANYONE, LAST, ROUTES, _World, _world, api_endpoints, make_app
from tests.factories import Api, ClubFactory, PlayerFactory

#: The methods of a write.
WRITES = ("POST", "PATCH", "DELETE")

#: Ends the admin token every other write is sent with: walked after them all.
ROTATION = "clubs.rotate_admin_token"


def _writes(app) -> list[str]:
    """Every write route of the API, the routes that end what others need last."""
    writes = [
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if rule.endpoint in api_endpoints(app) and set(rule.methods) & set(WRITES)
    ]
    return sorted(writes, key=lambda e: (e == ROTATION, e in LAST, LAST.index(e) if e in LAST else 0, e))


def _tournament(w, players: int, seated: bool) -> str:
    """A tournament of its own for one route, ``players`` entered, its first round seated or not."""
    made = w.admin.post(f"/clubs/{w.club}/tournaments", {"name": "Cup", "engine": "chancellors", "rounds": 1})
    tid = made.get_json()["id"]
    for _ in range(players):
        p = PlayerFactory(client=w.client, club={"id": w.club, "admin_token": w.admin.token})
        entered = w.admin.post(f"/tournaments/{tid}/players", {"player": p["id"]})
        assert entered.status_code == 200, entered.get_json()
    if seated:
        assert w.admin.post(f"/tournaments/{tid}/rounds").status_code == 200
    return tid


def _present(w, players) -> None:
    answer = w.admin.post(f"/game-nights/{w.night}/present", {"players": [p["id"] for p in players]})
    assert answer.status_code == 200, answer.get_json()


def _arrange(w: _World, endpoint: str, monkeypatch) -> _World:
    """The world as a route needs it to succeed the first time: the matrix of
    scopes only asks that a route is not refused, this test asks that it works."""
    w = copy.copy(w)
    if endpoint == "game nights.answer_night":  # a member answers for themselves
        w.token = w.member
    elif endpoint == "game nights.start_table":
        _present(w, w.players)
    elif endpoint == "game nights.log_table_result":
        _present(w, w.players)
        w.body = {
            "engine": "chancellors",
            "players": [{"player": p["id"], "place": i} for i, p in enumerate(w.players[2:], 1)],
        }
    elif endpoint in ("players.merge_player", "players.unmerge_player"):  # two players who never met
        fresh = [
            w.admin.post(f"/clubs/{w.club}/players", {"name": f"{endpoint} {i}"}).get_json() for i in (1, 2)
        ]
        w.players = [*w.players[:2], *fresh]
        if endpoint == "players.unmerge_player":
            _, _, path, request = ROUTES["players.merge_player"]
            assert w.admin.post(path(w), request(w)["json"]).status_code == 201
    elif endpoint == "tournaments.log_table_result":
        tid = w.tournament = _tournament(w, 2, seated=True)
        (table,) = w.admin.get(f"/tournaments/{tid}").get_json()["played"][-1]["tables"]
        w.body = {"players": [{"player": s["player"], "place": i} for i, s in enumerate(table["players"], 1)]}
    elif endpoint == "tournaments.swap_players":
        tid = w.tournament = _tournament(w, 6, seated=True)
        first, second = w.admin.get(f"/tournaments/{tid}").get_json()["played"][-1]["tables"][:2]
        w.body = {"players": [first["players"][0]["player"], second["players"][0]["player"]]}
    elif endpoint.startswith("webhooks."):
        monkeypatch.setenv("WEBHOOK_ALLOW_PRIVATE", "1")
        hook = {"url": "http://127.0.0.1:9/tablerecord", "events": ["game.ended"]}
        if endpoint == "webhooks.create_webhook":
            w.body = hook
        else:
            w.webhook = w.admin.post(f"/clubs/{w.club}/webhooks", hook).get_json()["id"]
    return w


def _send(w, endpoint: str, key: str, other_body: bool = False):
    grants, method, path, request = ROUTES[endpoint]
    kwargs = request(w) if request else {}
    if getattr(w, "body", None) is not None:
        kwargs["json"] = dict(w.body)
    if other_body:
        if endpoint == "games.post_action":  # an action's shape is checked before its key
            kwargs["json"] = {**kwargs["json"], "expected_version": 1000}
        elif "json" in kwargs:
            kwargs["json"] = {**kwargs["json"], "another": "body"}
        elif "data" in kwargs:
            kwargs["data"]["file"] = (io.BytesIO(b"another file"), "another.csv")
        else:
            kwargs["json"] = {"another": "body"}
    headers = {"Idempotency-Key": key}
    if grants != ANYONE:
        headers["Authorization"] = f"Bearer {getattr(w, 'token', None) or w.admin.token}"
    return w.client.open(path(w), method=method, headers=headers, **kwargs)


def test_every_write_route_answers_once_per_key(app, client, database_url, monkeypatch):
    world = _world(client, database_url)
    member = world.players[3]
    signed = world.admin.post(f"/clubs/{world.club}/players/{member['id']}/sign-in")
    world.member = signed.get_json()["token"]
    writes = _writes(app)
    assert writes and set(writes) <= set(ROUTES)
    wrong = []
    for endpoint in writes:
        w = _arrange(world, endpoint, monkeypatch)
        key = f"key-of-{endpoint}"
        first = _send(w, endpoint, key)
        again = _send(w, endpoint, key)
        other = _send(w, endpoint, key, other_body=True)
        if first.status_code >= 400:
            wrong.append((endpoint, "first", first.status_code, first.get_data()[:200]))
        elif (again.status_code, again.get_json(silent=True), again.headers.get("Idempotent-Replayed")) != (
            first.status_code,
            first.get_json(silent=True),
            "true",
        ):
            wrong.append(
                (endpoint, "again", again.status_code, again.get_data()[:200], first.get_data()[:200])
            )
        if (other.status_code, (other.get_json(silent=True) or {}).get("code")) != (
            422,
            "idempotency-key-reused",
        ):
            wrong.append((endpoint, "other body", other.status_code, other.get_data()[:200]))
    assert wrong == []


def test_a_replayed_creation_gives_the_same_tokens_and_makes_nothing_more(client, pool):
    club = ClubFactory(client=client)
    admin = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    body = {"engine": "pig", "seats": [p["id"] for p in players], "options": {}}
    first = admin.post(f"/clubs/{club['id']}/games", body, **{"Idempotency-Key": "tuesday-game"})
    again = admin.post(f"/clubs/{club['id']}/games", body, **{"Idempotency-Key": "tuesday-game"})
    assert first.status_code == again.status_code == 201
    assert again.get_json()["seat_tokens"] == first.get_json()["seat_tokens"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Log-Position"] == first.headers["Log-Position"]
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == 1
        kept = conn.execute("SELECT answer FROM request_keys").fetchone()["answer"]
    for seat in first.get_json()["seat_tokens"]:  # what is kept signs nobody in
        assert seat["token"].encode() not in bytes(kept)


def test_a_generic_key_belongs_to_the_token_that_used_it(client):
    club = ClubFactory(client=client)
    admin = Api(client, club["admin_token"])
    app = Api(client, make_app(client, club, ["players"])["token"])
    key = {"Idempotency-Key": "add-ana"}
    assert admin.post(f"/clubs/{club['id']}/players", {"name": "Ana"}, **key).status_code == 201
    judged = app.post(f"/clubs/{club['id']}/players", {"name": "Ana"}, **key)
    assert judged.status_code == 409 and judged.get_json()["code"] == "player-exists"
    assert "Idempotent-Replayed" not in judged.headers


def test_a_refused_write_lets_its_key_go(client):
    club = ClubFactory(client=client)
    admin = Api(client, club["admin_token"])
    ana = PlayerFactory(client=client, club=club, name="Ana")
    key = {"Idempotency-Key": "add-ana"}
    assert admin.post(f"/clubs/{club['id']}/players", {"name": "Ana"}, **key).status_code == 409
    renamed = client.patch(
        f"/clubs/{club['id']}/players/{ana['id']}", json={"name": "Anna"}, headers=admin.headers()
    )
    assert renamed.status_code == 200
    assert admin.post(f"/clubs/{club['id']}/players", {"name": "Ana"}, **key).status_code == 201
