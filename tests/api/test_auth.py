"""Tokens: the admin records, a seat acts for itself, strangers learn nothing."""

from tests.factories import Api, ClubFactory, GameFactory, PlayerFactory


def test_another_clubs_token_gets_404_and_learns_nothing(client):
    club, other = ClubFactory(client=client), ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    stranger = Api(client, other["admin_token"])
    assert stranger.get(f"/games/{game['id']}").status_code == 404
    assert stranger.get(f"/clubs/{club['id']}/players").status_code == 404
    r = stranger.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    assert r.status_code == 404


def test_a_seat_token_acts_only_for_its_seat(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club)
    seat1 = Api(client, game["seat_tokens"][1]["token"])
    r = seat1.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    assert r.status_code == 403 and r.get_json()["code"] == "not-your-seat"
    legal = seat1.get(f"/games/{game['id']}/legal-actions").get_json()
    assert list(legal["seats"]) == ["1"]
    assert seat1.get(f"/clubs/{club['id']}/players").status_code == 403


def test_the_recorder_sees_every_seats_legal_actions(client):
    club = ClubFactory(client=client)
    game = GameFactory(client=client, club=club, seats=3)
    legal = Api(client, club["admin_token"]).get(f"/games/{game['id']}/legal-actions").get_json()
    assert set(legal["seats"]) == {"0", "1", "2"}
    assert legal["seats"]["0"] == [{"seat": 0, "command": {"type": "Roll"}}]


def test_without_a_token_only_public_games_are_visible(client):
    club = ClubFactory(client=client)
    private = GameFactory(client=client, club=club)
    public = GameFactory(client=client, club=club, public=True)
    anonymous = Api(client)
    assert anonymous.get(f"/games/{private['id']}").status_code == 404
    view = anonymous.get(f"/games/{public['id']}")
    assert view.status_code == 200 and view.get_json()["viewer"] is None
    assert (
        anonymous.post(f"/games/{public['id']}/actions", {"seat": 0, "command": {"type": "Roll"}}).status_code
        == 401
    )


def test_an_invalid_token_is_a_401(client):
    r = Api(client, "tr_admin_forged").get("/engines")
    assert r.status_code == 200  # public route ignores tokens it does not need
    club = ClubFactory(client=client)
    r = Api(client, "tr_admin_forged").get(f"/clubs/{club['id']}/players")
    assert r.status_code == 401 and r.get_json()["code"] == "invalid-token"


def test_tokens_are_stored_hashed(client, pool):
    club = ClubFactory(client=client)
    PlayerFactory(client=client, club=club)
    with pool.connection() as conn:
        hashes = [r["hash"] for r in conn.execute("SELECT hash FROM tokens")]
    assert club["admin_token"] not in hashes and all(len(h) == 64 for h in hashes)


def test_a_token_over_its_rate_limit_gets_429_with_retry_after(settings, pool, client):
    from dataclasses import replace

    from service.app import create_app

    first, second = ClubFactory(client=client), ClubFactory(client=client)
    limited = create_app(replace(settings, rate_limit="3 per minute"), pool=pool).test_client()
    as_first = {"Authorization": f"Bearer {first['admin_token']}"}
    statuses = [limited.get("/engines", headers=as_first).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    r = limited.get("/engines", headers=as_first)
    assert r.mimetype == "application/problem+json" and int(r.headers["Retry-After"]) > 0
    as_second = {"Authorization": f"Bearer {second['admin_token']}"}
    assert limited.get("/engines", headers=as_second).status_code == 200
