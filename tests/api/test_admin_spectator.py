"""A club whose admin also plays creates its server-dealt games with the
admin token as a spectator: nobody at the table can peek."""

from tests.factories import Api, ClubFactory, PlayerFactory


def _game(client, **spec):
    club = ClubFactory(client=client)
    admin = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club)["id"] for _ in range(2)]
    response = admin.post(
        f"/clubs/{club['id']}/games", {"engine": "pig", "seats": players, "options": {"target": 50}, **spec}
    )
    return admin, response


def test_the_option_is_shown_in_the_games_config(client):
    admin, response = _game(client, admin_spectator=True)
    game = response.get_json()
    assert response.status_code == 201 and game["admin_spectator"] is True
    assert admin.get(f"/games/{game['id']}").get_json()["admin_spectator"] is True
    created = admin.get(f"/games/{game['id']}/events").get_json()["events"][0]
    assert created["type"] == "GameCreated" and created["data"]["admin_spectator"] is True
    _, plain = _game(client)
    assert plain.get_json()["admin_spectator"] is False


def test_the_spectating_admin_cannot_see_as_a_seat_nor_list_its_actions(client):
    admin, response = _game(client, admin_spectator=True)
    game = response.get_json()
    peek = admin.get(f"/games/{game['id']}?seat=0")
    assert peek.status_code == 403 and peek.get_json()["code"] == "admin-spectator"
    assert admin.get(f"/games/{game['id']}").get_json()["viewer"] is None
    assert admin.get(f"/games/{game['id']}/legal-actions").get_json()["seats"] == {}


def test_the_spectating_admin_acts_for_no_seat_and_the_seats_act_for_themselves(client):
    admin, response = _game(client, admin_spectator=True)
    game = response.get_json()
    refused = admin.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    assert refused.status_code == 403 and refused.get_json()["code"] == "admin-spectator"
    seat = Api(admin.client, game["seat_tokens"][0]["token"])
    assert (
        seat.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}}).status_code == 201
    )


def test_once_the_game_is_over_the_admin_sees_everything(client):
    admin, response = _game(client, admin_spectator=True)
    game = response.get_json()
    assert admin.post(f"/games/{game['id']}/abandon", {"reason": "closing time"}).status_code == 201
    assert admin.get(f"/games/{game['id']}").get_json()["viewer"] == "all"
    assert admin.get(f"/games/{game['id']}?seat=1").status_code == 200


def test_without_the_option_the_admin_is_the_recorder_who_sees_every_hand(client):
    admin, response = _game(client)
    game = response.get_json()
    assert admin.get(f"/games/{game['id']}?seat=0").get_json()["viewer"] == 0
    assert set(admin.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]) == {"0", "1"}


def test_a_table_game_s_recorder_may_see_only_public_information(client):
    admin, response = _game(client, admin_spectator=True, dealer="table")
    game = response.get_json()
    assert response.status_code == 201 and game["admin_spectator"] is True
    assert admin.get(f"/games/{game['id']}").get_json()["viewer"] is None


def test_the_spectating_admin_cannot_export_a_live_game(client):
    admin, response = _game(client, admin_spectator=True)
    game = response.get_json()
    r = admin.get(f"/games/{game['id']}/export")
    assert r.status_code == 403 and r.get_json()["code"] == "admin-spectator", r.get_json()
    recorder, plain = _game(client)
    assert recorder.get(f"/games/{plain.get_json()['id']}/export").status_code == 200
