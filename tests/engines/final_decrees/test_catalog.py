"""The catalog: the default reconstruction, and the schema refusing what the engine cannot run."""

import copy

import pytest
from marshmallow import ValidationError

from engines.base import GameConfig, RuleViolation
from engines.final_decrees import ENGINE
from engines.final_decrees.catalog_schema import CATALOG
from engines.final_decrees.effects import OPS

from .builders import CATALOG as DEFAULT


def errors(catalog):
    with pytest.raises(ValidationError) as info:
        CATALOG().load(catalog)
    return str(info.value.messages)


def test_the_default_catalog_is_a_marked_reconstruction_with_attribution():
    loaded = CATALOG().load(DEFAULT)
    assert loaded["reconstruction"] is True and "reconstruction" in loaded["note"]
    assert "Carl de Visser" in loaded["attribution"] and "Creative Commons" in loaded["attribution"]
    assert len(loaded["cards"]) == 60 and sum(c["stagnation"] for c in loaded["cards"]) == 1
    assert len(loaded["decrees"]) == 5


def test_the_default_catalog_uses_every_operation_of_the_vocabulary():
    used = {op["op"] for card in DEFAULT["cards"] for op in card["effect"]}
    assert used == set(OPS)


def test_a_card_asking_for_an_operation_the_engine_cannot_run_is_refused_at_registration():
    catalog = copy.deepcopy(DEFAULT)
    catalog["cards"][0]["effect"] = [{"op": "steal-card", "who": "target-player"}]
    assert "no operation 'steal-card'" in errors(catalog)


@pytest.mark.parametrize(
    "op",
    [
        {"op": "gain-actions", "amount": 9},
        {"op": "gain-actions", "amount": 0},
        {"op": "personal-blame", "who": "the-emperor", "amount": 1},
        {"op": "departmental-blame", "department": "treasury", "amount": 1},
        {"op": "draw", "amount": 1, "extra": True},
        {"op": "gain-actions", "amount": True},
    ],
)
def test_an_operation_with_parameters_the_engine_cannot_run_is_refused(op):
    catalog = copy.deepcopy(DEFAULT)
    catalog["cards"][3]["effect"] = [op]
    assert "cannot run this card" in errors(catalog)


def test_exactly_one_stagnation_and_decline_and_unique_ids():
    catalog = copy.deepcopy(DEFAULT)
    catalog["cards"][0]["stagnation"] = True
    catalog["cards"][0]["effect"] = []
    assert "Exactly one card" in errors(catalog)
    catalog = copy.deepcopy(DEFAULT)
    catalog["cards"][1]["id"] = catalog["cards"][0]["id"]
    assert "unique" in errors(catalog)


def test_decree_steps_are_departments_and_not_only_reform():
    catalog = copy.deepcopy(DEFAULT)
    catalog["decrees"][0]["steps"] = ["reform", "reform"]
    assert "outside Reform" in errors(catalog)
    catalog["decrees"][0]["steps"] = ["navy"]
    assert "steps" in errors(catalog)


def test_the_engine_itself_refuses_a_catalog_it_cannot_play():
    catalog = copy.deepcopy(DEFAULT)
    catalog["cards"][0]["effect"] = [{"op": "cancel"}]
    with pytest.raises(RuleViolation) as info:
        ENGINE.initial_state(GameConfig(seats=5, options={"decline_discards": 5}, catalog=catalog))
    assert info.value.code == "invalid-catalog"
