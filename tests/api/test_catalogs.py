"""Card catalogs: a game records the catalog it was created with and always
replays with exactly that content."""

import copy
import json
from uuid import UUID

from service.records.club.catalogs import default_catalog
from service.records.recording import games
from tests.factories import Api, ClubFactory, PlayerFactory


def _club(client):
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club)["id"] for _ in range(3)]
    return club, players, Api(client, club["admin_token"])


def _printed_catalog():
    catalog = copy.deepcopy(default_catalog("house-of-cronies"))
    catalog.update(id="tuesday-printed", version=1, reconstruction=False)
    for crony in catalog["cronies"]:
        crony["votes"] = crony["votes"] + 1
    return catalog


def test_a_game_records_the_default_catalog_it_was_created_with(client):
    club, players, api = _club(client)
    game = api.post(f"/clubs/{club['id']}/games", {"engine": "house-of-cronies", "seats": players}).get_json()
    default = default_catalog("house-of-cronies")
    assert game["catalog"] == {
        "kind": "house-of-cronies",
        "id": default["id"],
        "version": default["version"],
        "club": None,
    }


def test_a_club_registers_its_own_catalog_and_plays_with_it(client, pool):
    club, players, api = _club(client)
    catalog = _printed_catalog()
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": "house-of-cronies", "content": catalog})
    assert r.status_code == 201, r.get_json()
    game = api.post(
        f"/clubs/{club['id']}/games",
        {"engine": "house-of-cronies", "seats": players, "catalog": {"id": "tuesday-printed", "version": 1}},
    ).get_json()
    assert game["catalog"]["id"] == "tuesday-printed"
    with pool.connection() as conn:
        g = games.get_game(conn, UUID(game["id"]))
        config = games.config_of(conn, g)
    assert json.loads(json.dumps(config.catalog)) == json.loads(
        json.dumps({**catalog, "kind": "house-of-cronies"})
    )


def test_a_catalog_version_is_never_replaced(client):
    club, _, api = _club(client)
    catalog = _printed_catalog()
    api.post(f"/clubs/{club['id']}/catalogs", {"kind": "house-of-cronies", "content": catalog})
    catalog["cronies"][0]["votes"] = 20
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": "house-of-cronies", "content": catalog})
    assert r.status_code == 409 and r.get_json()["code"] == "catalog-version-exists"


def test_a_catalog_that_breaks_its_schema_is_refused(client):
    club, _, api = _club(client)
    catalog = _printed_catalog()
    catalog["cronies"] = catalog["cronies"][:5]
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": "house-of-cronies", "content": catalog})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid-catalog"


def test_an_unknown_catalog_is_refused_when_creating_a_game(client):
    club, players, api = _club(client)
    r = api.post(
        f"/clubs/{club['id']}/games",
        {"engine": "house-of-cronies", "seats": players, "catalog": {"id": "missing", "version": 3}},
    )
    assert r.status_code == 422 and r.get_json()["code"] == "unknown-catalog"


def test_a_catalog_card_named_with_bidi_or_invisible_characters_is_refused_and_names_are_trimmed(client):
    club, players, api = _club(client)
    spoofing = _printed_catalog()
    spoofing["cronies"][0]["name"] = "Ana\u202eevil"
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": "house-of-cronies", "content": spoofing})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid-catalog"
    padded = _printed_catalog()
    name = padded["cronies"][0]["name"]
    padded["cronies"][0]["name"] = f"  {name} "
    r = api.post(f"/clubs/{club['id']}/catalogs", {"kind": "house-of-cronies", "content": padded})
    assert r.status_code == 201, r.get_json()
    stored = api.get(f"/clubs/{club['id']}/catalogs/house-of-cronies/tuesday-printed/1").get_json()
    assert stored["content"]["cronies"][0]["name"] == name
