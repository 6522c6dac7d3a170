"""The board catalog: the default reconstruction and what the schema refuses."""

import pytest
from marshmallow import ValidationError

from engines.base import RuleViolation
from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion.catalog import EFFECT_FIELDS, parse_board
from engines.maccreedys_mansion.catalog_schema import CATALOG, EFFECT_OPS

from .builders import catalog, config


def refused(data) -> dict:
    with pytest.raises(ValidationError) as error:
        CATALOG().load(data)
    return error.value.messages


def test_the_default_board_is_valid_and_marked_as_a_reconstruction():
    data = catalog()
    CATALOG().load(data)
    assert data["reconstruction"] is True and "reconstruction" in data["note"]
    board = parse_board(data)
    assert len(board.jobs) == len(board.locations) and board.job_track == 5
    assert {w.type: (w.pieces, w.wage) for w in board.workers} == {
        "carpenter": (8, 1000),
        "mason": (6, 2000),
        "electrician": (2, 4000),
        "plumber": (2, 4000),
        "gasman": (1, 6000),
    }
    assert dict(board.prices) == {"stone": 500, "lumber": 500, "wiring": 1000, "pipes": 1000}


def test_the_default_board_uses_every_effect_operation():
    data = catalog()
    used = {e["op"] for group in ("events", "haunts") for card in data[group] for e in card["effect"]}
    assert used == set(EFFECT_OPS)


def test_a_club_may_choose_the_gasmans_resource_only():
    data = catalog()
    data["workers"][4]["resource"] = "wiring"
    CATALOG().load(data)
    assert parse_board(data).worker["gasman"].resource == "wiring"
    data = catalog()
    data["workers"][0]["resource"] = "stone"
    assert "workers" in refused(data)


def test_the_rulebooks_numbers_are_fixed():
    data = catalog()
    data["workers"][1]["wage"] = 2500
    assert "workers" in refused(data)
    data = catalog()
    data["resources"][0]["price"] = 100
    assert "resources" in refused(data)
    data = catalog()
    data["start_active"] = 5000
    assert "start_active" in refused(data)


def test_a_catalog_with_an_unknown_effect_is_refused():
    data = catalog()
    data["events"][0]["effect"] = [{"op": "flood-basement"}]
    assert "events" in refused(data)


def test_an_effect_with_the_wrong_fields_or_an_unknown_target_is_refused():
    data = catalog()
    data["events"][0]["effect"] = [{"op": "fine", "who": "all"}]
    assert "events" in refused(data)
    data = catalog()
    data["events"][0]["effect"] = [{"op": "break-location", "location": "attic"}]
    assert "events" in refused(data)
    data = catalog()
    data["haunts"][0]["effect"] = [{"op": "haunt-room", "room": "attic"}]
    assert "haunts" in refused(data)


def test_a_job_names_a_location_of_the_board_and_ids_are_unique():
    data = catalog()
    data["jobs"][0]["location"] = "attic"
    assert "jobs" in refused(data)
    data = catalog()
    data["jobs"][1]["id"] = data["jobs"][0]["id"]
    assert "rooms" in refused(data)


def test_an_invalid_catalog_is_a_rule_violation_for_the_engine():
    data = catalog()
    data["workers"] = []
    with pytest.raises(RuleViolation) as violation:
        ENGINE.initial_state(config(2, board=data))
    assert violation.value.code == "invalid-catalog"


def test_the_board_in_a_game_is_the_one_in_its_config():
    data = catalog()
    data["jobs"][0]["reward"] = 99_000
    state = ENGINE.initial_state(config(2, board=data))
    assert state.board.job[data["jobs"][0]["id"]].reward == 99_000
    assert parse_board(catalog()).job[data["jobs"][0]["id"]].reward != 99_000


def test_the_engine_refuses_an_effect_it_cannot_run_even_past_the_schema():
    data = catalog()
    data["haunts"][0]["effect"] = [{"op": "summon-ghost"}]
    with pytest.raises(RuleViolation) as violation:
        parse_board(data)
    assert violation.value.code == "invalid-catalog"
    assert set(EFFECT_OPS) == set(EFFECT_FIELDS)
