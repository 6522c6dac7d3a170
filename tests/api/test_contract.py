"""The contract a client reads is the one the service keeps: typed commands,
typed views, refusals the spec foretells, catalogs a client can read."""

import random

import jsonschema_rs
import pytest

from engines import registry
from schemas.api import ActionResult, Event
from service.records.club.catalogs import default_catalog
from tests.conftest import OPERATOR_TOKEN
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.helpers import new_pig_game


def test_an_engine_publishes_each_command_with_its_type(client):
    pig = client.get("/engines/pig").get_json()
    assert set(pig["commands"]) == set(registry.game("pig").typed_commands)
    roll = pig["commands"]["ResolveRoll"]
    assert roll["properties"]["type"]["enum"] == ["ResolveRoll"]
    assert set(roll["required"]) == {"type", "dice"} and roll["additionalProperties"] is False
    assert pig["options"]["properties"]["target"]["minimum"] == 5


@pytest.mark.parametrize("dealer", ["server", "table"])
@pytest.mark.parametrize("engine_id", registry.available())
def test_a_game_view_fits_the_view_schema_its_engine_publishes(client, engine_id, dealer):
    published = client.get(f"/engines/{engine_id}").get_json()
    schema = jsonschema_rs.Draft202012Validator(published["view"])
    options = jsonschema_rs.Draft202012Validator(published["options"])
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    seats = registry.get(engine_id).min_seats
    game = GameFactory(client=client, club=club, engine=engine_id, options={}, dealer=dealer, seats=seats)
    rng, seen = random.Random(3), set()
    for _ in range(12):
        for query in ("", "?seat=0"):  # the recorder's own view, then seat 0's
            view = api.get(f"/games/{game['id']}{query}").get_json()
            errors = [e.message[:200] for e in schema.iter_errors(view["state"])][:3]
            assert not errors, (view["viewer"], errors)
            assert options.is_valid(view["options"])
            if view["status"] == "active":  # once it has ended, every viewer sees all
                seen.add(view["viewer"])
        legal = api.get(f"/games/{game['id']}/legal-actions").get_json()["seats"]
        offered = [a for actions in legal.values() for a in actions]
        if not offered:  # the game has ended (server-dealt chance is not seeded here)
            break
        assert api.post(f"/games/{game['id']}/actions", rng.choice(offered)).status_code == 201
    assert seen == {0, "all" if dealer == "table" else None}


def test_a_command_is_checked_by_its_typed_schema(client):
    club, game, api = new_pig_game(client, dealer="table")
    r = api.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll", "dice": [3]}})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid-command"
    assert "dice" in r.get_json()["errors"]


def test_a_league_of_an_engine_that_does_not_exist_is_refused(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    r = api.post(f"/clubs/{club['id']}/leagues", {"name": "Decrees", "engine": "final-decrees-x"})
    assert r.status_code == 422 and "engine" in r.get_json()["errors"]
    assert api.get(f"/clubs/{club['id']}/leagues").get_json() == []


def test_a_min_position_past_the_head_of_the_log_is_the_clients_error(client):
    club = ClubFactory(client=client)
    league = LeagueFactory(client=client, club=club)
    GameFactory(client=client, club=club, league=league["id"])
    api, operator = Api(client, club["admin_token"]), Api(client, OPERATOR_TOKEN)
    past = operator.get("/projections").get_json()["head"] * 2 + 1_000_000
    for caller, path in ((api, f"/leagues/{league['id']}/standings"), (operator, "/projections")):
        problem = caller.get(f"{path}?min_position={past}").get_json()
        assert problem["status"] == 422 and problem["code"] == "position-not-reached", problem
        assert 0 < problem["head"] < past


def test_a_club_reads_the_shipped_catalogs_and_its_own_by_id_and_version(client):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    shipped = default_catalog("house-of-cronies")
    own = {**shipped, "id": "tuesday-printed", "version": 2}
    assert (
        api.post(f"/clubs/{club['id']}/catalogs", {"kind": "house-of-cronies", "content": own}).status_code
        == 201
    )
    listed = api.get(f"/clubs/{club['id']}/catalogs").get_json()
    assert {
        "kind": "house-of-cronies",
        "id": shipped["id"],
        "version": shipped["version"],
        "shipped": True,
    } in listed
    assert {"kind": "house-of-cronies", "id": "tuesday-printed", "version": 2, "shipped": False} in listed
    read = api.get(f"/clubs/{club['id']}/catalogs/house-of-cronies/tuesday-printed/2").get_json()
    assert read["content"]["cronies"] == shipped["cronies"] and read["shipped"] is False
    default = api.get(
        f"/clubs/{club['id']}/catalogs/house-of-cronies/{shipped['id']}/{shipped['version']}"
    ).get_json()
    assert default["content"] == shipped


def test_a_shipped_catalog_reads_the_same_by_engine_and_by_club(client):
    club = ClubFactory(client=client)
    shipped = default_catalog("house-of-cronies")
    by_engine = client.get("/engines/house-of-cronies/catalog").get_json()
    by_club = Api(client, club["admin_token"]).get(
        f"/clubs/{club['id']}/catalogs/house-of-cronies/{shipped['id']}/{shipped['version']}"
    )
    assert by_club.get_json() == by_engine
    assert by_engine["shipped"] is True and by_engine["reconstruction"] is True
    assert by_engine["content"] == shipped


def test_another_clubs_catalog_is_not_readable(client):
    mine, theirs = ClubFactory(client=client), ClubFactory(client=client)
    own = {**default_catalog("house-of-cronies"), "id": "theirs", "version": 1}
    Api(client, theirs["admin_token"]).post(
        f"/clubs/{theirs['id']}/catalogs", {"kind": "house-of-cronies", "content": own}
    )
    api = Api(client, mine["admin_token"])
    assert api.get(f"/clubs/{mine['id']}/catalogs/house-of-cronies/theirs/1").status_code == 404
    assert api.get(f"/clubs/{theirs['id']}/catalogs").status_code == 404
    assert all(c["id"] != "theirs" for c in api.get(f"/clubs/{mine['id']}/catalogs").get_json())


def test_a_seat_token_reads_its_clubs_catalogs(client):
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club) for _ in range(3)]
    game = GameFactory(client=client, club=club, engine="house-of-cronies", options={}, players=players)
    seat = Api(client, game["seat_tokens"][0]["token"])
    ref = game["catalog"]
    r = seat.get(f"/clubs/{club['id']}/catalogs/{ref['kind']}/{ref['id']}/{ref['version']}")
    assert r.status_code == 200 and r.get_json()["content"]["id"] == ref["id"]


def test_events_are_served_as_ndjson_at_their_own_address(client):
    club, game, api = new_pig_game(client)
    page = api.get(f"/games/{game['id']}/events").get_json()["events"]
    lines = api.get(f"/games/{game['id']}/events.ndjson")
    assert lines.mimetype == "application/x-ndjson"
    assert [line for line in lines.get_data(as_text=True).splitlines()] and len(
        lines.get_data(as_text=True).splitlines()
    ) == len(page)
    feed = api.get(f"/clubs/{club['id']}/events.ndjson")
    assert feed.mimetype == "application/x-ndjson" and len(feed.get_data(as_text=True).splitlines()) == len(
        page
    )


def test_an_actions_answer_has_exactly_the_documented_shape(client):
    """The answer to an action is the domain's own dictionary, rendered as it is:
    it must hold what `ActionResult` documents, no more and no less."""
    _club, game, api = new_pig_game(client, dealer="table")
    answer = api.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    body = answer.get_json()
    # The log position is written by the API (dump-only, so not loaded back), as its header says.
    assert body.pop("log_position") == int(answer.headers["Log-Position"])
    assert ActionResult().validate(body) == {}
    assert {*body, "log_position"} == set(ActionResult().fields)
    assert body["events"] and all(set(e) == set(Event().fields) for e in body["events"])
