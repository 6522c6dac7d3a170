"""The card catalog: the default is a marked reconstruction; a catalog the engine cannot run is refused."""

import copy

import pytest

from engines.base import GameConfig, RuleViolation
from engines.political_divide_and_conquer import ENGINE
from engines.political_divide_and_conquer.catalog_schema import CATALOG

from .builders import catalog_dict


def errors(mutate):
    data = copy.deepcopy(catalog_dict())
    mutate(data)
    return CATALOG().validate(data)


def test_the_default_catalog_is_valid_and_marked_as_a_reconstruction():
    data = catalog_dict()
    assert CATALOG().validate(data) == {}
    assert data["reconstruction"] is True and "reconstruction" in data["note"]
    assert sum(len(data[k]) for k in ("groups", "assets", "deficits", "events")) == 108


def test_the_default_catalog_keeps_the_cards_the_rulebook_names():
    names = {c["name"]: c for k in ("groups", "assets", "deficits") for c in catalog_dict()[k]}
    assert names["Sandal-Wearing, Patchouli-Scented Pacifists"]["influence"] == 1
    assert names["Hackneyed Hollywood Hypocrites"]["influence"] == 4
    assert names["Gerrymandering"]["influence"] == 3
    assert names["Smeared"]["influence"] == names["Tax Evasion"]["influence"] == -2
    assert (
        names["Flip-Flop"]["power"] == "flip-flop"
        and names["Conspiracy Theorist"]["power"] == "conspiracy-theorist"
    )


def test_reading_10_two_groups_of_each_of_4_5_and_6_in_the_whole_deck():
    def third_six(data):
        data["groups"][2]["influence"] = 6

    assert "groups" in errors(third_six)


def test_an_operation_or_power_the_engine_cannot_run_is_refused():
    def op(data):
        data["events"][0]["effect"] = [{"op": "swap-bases"}]

    def power(data):
        data["assets"][-1]["power"] = "immunity"

    assert "events" in errors(op) and "assets" in errors(power)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["assets"][-1].update(influence=2),  # a power asset adds no influence
        lambda d: d["deficits"][0].update(influence=1),  # a deficit subtracts
        lambda d: d["events"][0]["effect"][0].pop("n"),  # draw takes n
        lambda d: d["events"][8].update(when="any"),  # an attack bonus needs an attack
        lambda d: d["events"][5].update(affects="self"),  # taking cards names an opponent
        lambda d: d["groups"][1].update(id=d["groups"][0]["id"]),  # ids are unique
        lambda d: d.update(
            events=[], deficits=[], assets=d["assets"][:1], groups=d["groups"][:58]
        ),  # too small
    ],
)
def test_a_catalog_that_breaks_the_shape_is_refused(mutate):
    assert errors(mutate)


def test_a_game_refuses_an_invalid_catalog_as_a_rule():
    data = copy.deepcopy(catalog_dict())
    data["assets"][-1]["power"] = "immunity"
    with pytest.raises(RuleViolation) as info:
        ENGINE.initial_state(GameConfig(seats=4, catalog=data))
    assert info.value.code == "invalid-catalog"
