"""Game nights through the API: posted by the organiser alone, answered by
members for themselves alone (the latest answer counts), the rules of the
day, the time and the games, and the night a replay of its stream gives
equals the one served."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from service.records import access
from service.records.competitions import evenings, game_nights, night_log
from service.records.errors import Conflict
from tests.factories import Api, ClubFactory, PlayerFactory

TOMORROW = (dt.date.today() + dt.timedelta(days=1)).isoformat()


@pytest.fixture
def club(client):
    return ClubFactory(client=client)


@pytest.fixture
def api(client, club):
    return Api(client, club["admin_token"])


def ok(response, status=200) -> dict:
    assert response.status_code == status, response.get_json()
    return response.get_json()


def post_night(api, club, **spec) -> dict:
    body = {
        "day": TOMORROW,
        "time": "19:30",
        "place": "The back room",
        "games": ["chancellors", "house-of-cronies"],
    }
    return ok(api.post(f"/clubs/{club['id']}/game-nights", {**body, **spec}), 201)


def member(api, client, club, name=None) -> tuple[dict, Api]:
    player = PlayerFactory(client=client, club=club, **({"name": name} if name else {}))
    token = ok(api.post(f"/clubs/{club['id']}/players/{player['id']}/sign-in"), 201)["token"]
    return player, Api(client, token)


def test_members_answer_for_themselves_and_the_latest_answer_counts(api, client, club, pool):
    night = post_night(api, club)
    assert night["version"] == 1 and night["answers"] == [] and not night["past"]
    assert [g["title"] for g in night["games"]] == ["Chancellors", "House of Cronies"]
    ann, ann_api = member(api, client, club, "Ann")
    ben, ben_api = member(api, client, club, "Ben")
    nid = night["id"]

    seen = ok(ann_api.post(f"/game-nights/{nid}/answer", {"answer": "maybe", "games": ["chancellors"]}))
    assert seen["my_answer"] == {
        "player": ann["id"],
        "name": "Ann",
        "answer": "maybe",
        "games": ["chancellors"],
    }
    ok(ben_api.post(f"/game-nights/{nid}/answer", {"answer": "no", "games": ["chancellors"]}))
    seen = ok(ann_api.post(f"/game-nights/{nid}/answer", {"answer": "yes", "games": ["house-of-cronies"]}))

    assert [(a["name"], a["answer"], a["games"]) for a in seen["answers"]] == [
        ("Ann", "yes", ["house-of-cronies"]),
        ("Ben", "no", []),
    ]
    assert seen["answered"] == {"yes": 1, "maybe": 0, "no": 1}
    assert ok(ben_api.get(f"/game-nights/{nid}"))["my_answer"]["answer"] == "no"
    listed = ok(ben_api.get(f"/clubs/{club['id']}/game-nights"))
    assert [(n["id"], n["answered"]["yes"]) for n in listed] == [(nid, 1)]

    with pool.connection() as conn:
        events = night_log.read(conn, uuid.UUID(nid))
    replayed = game_nights.fold(nid, events)
    assert replayed.version == seen["version"] == 4
    assert {p: a.answer for p, a in replayed.answers.items()} == {ann["id"]: "yes", ben["id"]: "no"}


def test_only_the_organiser_posts_and_only_members_answer_for_themselves(api, client, club):
    ann, ann_api = member(api, client, club)
    ben, _ = member(api, client, club)
    body = {"day": TOMORROW, "time": "19:30", "place": "Hall", "games": ["chancellors"]}
    refused = ann_api.post(f"/clubs/{club['id']}/game-nights", body)
    assert refused.status_code == 403 and refused.get_json()["code"] == "admin-only"
    nid = post_night(api, club)["id"]

    by_organiser = api.post(f"/game-nights/{nid}/answer", {"answer": "yes"})
    assert by_organiser.status_code == 403 and by_organiser.get_json()["code"] == "members-answer"
    # No body names another player: the answer is always the sign-in's own.
    for_another = ann_api.post(f"/game-nights/{nid}/answer", {"answer": "yes", "player": ben["id"]})
    assert for_another.status_code == 422
    assert ok(api.get(f"/game-nights/{nid}"))["answers"] == []

    other = ClubFactory(client=client)
    stranger = Api(client, other["admin_token"])
    assert stranger.get(f"/game-nights/{nid}").status_code == 404
    assert stranger.post(f"/game-nights/{nid}/answer", {"answer": "yes"}).status_code == 404
    assert Api(client, None).get(f"/game-nights/{nid}").status_code == 401


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"day": "2001-01-01"}, "night-in-the-past"),
        ({"time": "7.30pm"}, "night-time"),
        ({"games": ["chancellors", "chancellors"]}, "night-games"),
        ({"place": "  "}, None),
    ],
)
def test_a_night_breaking_a_rule_is_refused_naming_it_and_stores_nothing(api, club, change, code):
    body = {"day": TOMORROW, "time": "19:30", "place": "Hall", "games": ["chancellors"], **change}
    refused = api.post(f"/clubs/{club['id']}/game-nights", body)
    assert refused.status_code == 422, refused.get_json()
    if code:
        assert refused.get_json()["code"] == code
    assert ok(api.get(f"/clubs/{club['id']}/game-nights")) == []


def test_an_answer_naming_a_game_not_on_offer_or_after_the_night_is_refused(api, client, club, app):
    _, ann_api = member(api, client, club)
    nid = post_night(api, club, games=["chancellors"])["id"]
    refused = ann_api.post(f"/game-nights/{nid}/answer", {"answer": "yes", "games": ["final-decrees"]})
    assert refused.status_code == 422 and refused.get_json()["code"] == "night-game-not-offered"
    assert ok(ann_api.get(f"/game-nights/{nid}"))["answers"] == []

    records = app.extensions["tablerecord.records"]
    with records.pool.connection() as conn:
        ann = access.principal_for(conn, access.hash_token(ann_api.token))
    the_day_after = dt.date.today() + dt.timedelta(days=2)
    with pytest.raises(Conflict) as over:
        evenings.answer_night(records, uuid.UUID(nid), ann, "yes", [], None, today=the_day_after)
    assert over.value.code == "night-over"
    assert ok(ann_api.get(f"/game-nights/{nid}"))["version"] == 1


def test_on_the_night_the_present_are_proposed_tables_and_each_starts_its_game(api, client, club):
    today = dt.date.today().isoformat()
    nid = post_night(api, club, day=today, games=["chancellors", "final-decrees"])["id"]
    members = [member(api, client, club, name) for name in ("Ann", "Ben", "Cleo", "Dev", "Eli")]
    for (_, m_api), wants in zip(members, [["chancellors"]] * 3 + [[], ["final-decrees"]], strict=True):
        ok(m_api.post(f"/game-nights/{nid}/answer", {"answer": "yes", "games": wants}))
    walk_in = PlayerFactory(client=client, club=club, name="Fay")
    came = [p["id"] for p, _ in members[:4]] + [walk_in["id"]]

    refused = members[0][1].post(f"/game-nights/{nid}/present", {"players": came})
    assert refused.status_code == 403 and refused.get_json()["code"] == "admin-only"
    view = ok(api.post(f"/game-nights/{nid}/present", {"players": came}))
    assert [p["name"] for p in view["present"]] == ["Ann", "Ben", "Cleo", "Dev", "Fay"]

    proposal = ok(api.get(f"/game-nights/{nid}/tables?mode=balance"))
    assert proposal["waiting"] == []
    # Five want Chancellors (two named no game): tables of 3 and 2, no one waiting.
    assert [(t["engine"], len(t["players"])) for t in proposal["tables"]] == [
        ("chancellors", 3),
        ("chancellors", 2),
    ]
    assert sorted(p["player"] for t in proposal["tables"] for p in t["players"]) == sorted(came)
    table = proposal["tables"][0]
    seated = [p["player"] for p in table["players"]]
    view = ok(api.post(f"/game-nights/{nid}/tables", {"engine": "chancellors", "players": seated}))
    (started,) = view["tables"]
    assert started["title"] == "Chancellors" and started["game_status"] == "playing"
    assert [p["player"] for p in started["players"]] == seated
    assert [s["player"] for s in ok(api.get(f"/games/{started['game']}"))["seats"]] == seated

    again = api.post(f"/game-nights/{nid}/tables", {"engine": "chancellors", "players": seated[:2]})
    assert again.status_code == 409 and again.get_json()["code"] == "night-player-seated"
    absent = api.post(
        f"/game-nights/{nid}/tables", {"engine": "chancellors", "players": [members[4][0]["id"], *seated[:1]]}
    )
    assert absent.status_code == 422 and absent.get_json()["code"] == "night-table-players"
    left = ok(api.get(f"/game-nights/{nid}/tables?mode=mix"))
    assert {p["player"] for t in left["tables"] for p in t["players"]} | {
        p["player"] for p in left["waiting"]
    } == set(came) - set(seated)


def test_who_came_is_marked_on_the_night_not_before(api, client, club):
    nid = post_night(api, club)["id"]
    ann, _ = member(api, client, club)
    refused = api.post(f"/game-nights/{nid}/present", {"players": [ann["id"]]})
    assert refused.status_code == 409 and refused.get_json()["code"] == "night-not-yet"
    assert ok(api.get(f"/game-nights/{nid}"))["version"] == 1


def test_a_table_logged_by_its_result_is_a_game_played_at_the_night(api, client, club):
    nid = post_night(api, club, day=dt.date.today().isoformat(), games=["chancellors"])["id"]
    players = [PlayerFactory(client=client, club=club) for _ in range(3)]
    ok(api.post(f"/game-nights/{nid}/present", {"players": [p["id"] for p in players]}))
    body = {
        "engine": "chancellors",
        "players": [{"player": p["id"], "place": i} for i, p in enumerate(players, 1)],
    }
    bad = {**body, "players": [{"player": p["id"], "place": 1} for p in players[:1]]}
    refused = api.post(f"/game-nights/{nid}/tables/result", bad)
    assert refused.status_code == 422 and refused.get_json()["code"] == "night-table-size"
    view = ok(api.post(f"/game-nights/{nid}/tables/result", body))
    (table,) = view["tables"]
    assert table["game_status"] == "ended" and view["played"] == ["Chancellors"]
    game = ok(api.get(f"/games/{table['game']}"))
    assert [s["player"] for s in game["seats"]] == [p["id"] for p in players]
    listed = ok(api.get(f"/clubs/{club['id']}/game-nights"))
    assert listed[0]["played"] == ["Chancellors"]
