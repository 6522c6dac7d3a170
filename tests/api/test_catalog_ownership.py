"""Catalogs belong to the club that registered them: a club can neither take
a shipped default's id nor play with another club's cards, and the stored
shipped defaults are the shipped files."""

from __future__ import annotations

import copy
import json
import uuid

import pytest
from psycopg.types.json import Jsonb

from service.records.club.catalogs import ShippedCatalogAltered, default_catalog
from tests.factories import Api, ClubFactory, PlayerFactory

KIND = "house-of-cronies"


def _club(client):
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club)["id"] for _ in range(3)]
    return club, players, Api(client, club["admin_token"])


def _catalog(catalog_id: str, version: int = 1, votes_up: int = 1) -> dict:
    catalog = copy.deepcopy(default_catalog(KIND))
    catalog.update(id=catalog_id, version=version, reconstruction=False)
    for crony in catalog["cronies"]:
        crony["votes"] = min(crony["votes"] + votes_up, 20)
    return catalog


def _register(api, club, catalog):
    return api.post(f"/clubs/{club['id']}/catalogs", {"kind": KIND, "content": catalog})


def _game(api, club, players, catalog_id=None, version=1):
    body = {"engine": KIND, "seats": players}
    if catalog_id:
        body["catalog"] = {"id": catalog_id, "version": version}
    return api.post(f"/clubs/{club['id']}/games", body)


def _cards_of(client, api, game) -> dict:
    from service.records.recording.games import config_of, get_game

    with client.application.extensions["tablerecord.records"].pool.connection() as conn:
        return json.loads(json.dumps(config_of(conn, get_game(conn, uuid.UUID(game["id"]))).catalog))


@pytest.mark.parametrize("version", [1, 2, 99])
def test_a_shipped_default_id_is_reserved_in_every_version(client, version):
    club, players, api = _club(client)
    hijack = _catalog(default_catalog(KIND)["id"], version=version, votes_up=5)
    response = _register(api, club, hijack)
    assert response.status_code == 409 and response.get_json()["code"] == "catalog-id-reserved"


def test_another_clubs_games_keep_the_shipped_cards(client):
    first, first_players, first_api = _club(client)
    _register(first_api, first, _catalog(default_catalog(KIND)["id"], votes_up=5))
    second, players, api = _club(client)
    game = _game(api, second, players).get_json()
    assert game["catalog"]["club"] is None
    assert _cards_of(client, api, game) == default_catalog(KIND)


def test_a_club_cannot_play_with_another_clubs_catalog(client):
    owner, _, owner_api = _club(client)
    assert _register(owner_api, owner, _catalog("tuesday-printed")).status_code == 201
    other, players, api = _club(client)
    response = _game(api, other, players, "tuesday-printed")
    assert response.status_code == 422 and response.get_json()["code"] == "unknown-catalog"


def test_two_clubs_may_use_the_same_id_each_for_its_own_cards(client):
    first, first_players, first_api = _club(client)
    second, second_players, second_api = _club(client)
    first_cards, second_cards = _catalog("printed", votes_up=1), _catalog("printed", votes_up=2)
    assert _register(first_api, first, first_cards).status_code == 201
    assert _register(second_api, second, second_cards).status_code == 201
    first_game = _game(first_api, first, first_players, "printed").get_json()
    second_game = _game(second_api, second, second_players, "printed").get_json()
    assert first_game["catalog"]["club"] == first["id"] and second_game["catalog"]["club"] == second["id"]
    assert _cards_of(client, first_api, first_game) == {**first_cards, "kind": KIND}
    assert _cards_of(client, second_api, second_game) == {**second_cards, "kind": KIND}


def test_the_service_refuses_to_start_when_a_stored_default_differs_from_its_file(settings, pool):
    from service.app import create_app

    create_app(settings, pool=pool)  # stores the shipped defaults
    default = default_catalog(KIND)
    altered = {**default, "note": "changed in place"}
    with pool.connection() as conn:
        conn.execute(
            "UPDATE catalogs SET content = %s WHERE kind = %s AND id = %s AND club_id IS NULL",
            (Jsonb(altered), KIND, default["id"]),
        )
    with pytest.raises(ShippedCatalogAltered):
        create_app(settings, pool=pool)


def test_a_game_recorded_before_catalogs_had_owners_replays_with_the_cards_it_was_created_with(client, pool):
    """Then a club could register a default's id before the default was
    stored, and other clubs' games used its cards: they still do (their
    events name no owner), while new games name the shipped default."""
    from service.records.recording.games import engine_config

    club, _, _ = _club(client)
    default = default_catalog(KIND)
    taken = {**_catalog(default["id"], version=default["version"], votes_up=5), "kind": KIND}
    with pool.connection() as conn:
        conn.execute(
            "INSERT INTO catalogs (kind, id, version, club_id, content, created_at)"
            " VALUES (%s, %s, %s, %s, %s, now() - interval '1 day')",
            (KIND, default["id"], default["version"], club["id"], Jsonb(taken)),
        )
        recorded_then = {"kind": KIND, "id": default["id"], "version": default["version"]}
        assert engine_config(conn, 3, {}, "server", recorded_then).catalog == taken
        assert engine_config(conn, 3, {}, "server", {**recorded_then, "club": None}).catalog == default
