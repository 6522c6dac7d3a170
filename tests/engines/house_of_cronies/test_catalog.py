"""The card catalog: the default reconstruction and the schema clubs' catalogs must pass."""

import copy

import pytest
from marshmallow import ValidationError

from engines.house_of_cronies.catalog import CatalogError, catalog_to_dict, parse_catalog
from engines.house_of_cronies.catalog_schema import CATALOG

from .builders import catalog_dict


def test_the_default_catalog_passes_the_catalog_schema():
    loaded = CATALOG().load(catalog_dict())
    assert loaded["kind"] == "house-of-cronies" and loaded["id"] and loaded["version"] == 1


def test_the_default_catalog_is_marked_as_the_projects_reconstruction():
    data = catalog_dict()
    assert data["reconstruction"] is True and "reconstruction" in data["note"]


def test_the_default_catalog_has_the_rulebooks_card_counts():
    catalog = parse_catalog(catalog_dict())
    counts = {
        kind: sum(1 for c in catalog.cards if c.type == kind)
        for kind in ("crony", "ally", "influence", "corruption", "tactic")
    }
    assert counts == {"crony": 28, "ally": 7, "influence": 24, "corruption": 13, "tactic": 28}
    kinds = {c.tactic for c in catalog.cards if c.type == "tactic"}
    assert len(kinds) == 7
    assert any(c.votes < 0 for c in catalog.cards if c.type == "crony")


def test_the_default_catalog_holds_the_values_of_the_rulebooks_examples():
    catalog = parse_catalog(catalog_dict())
    values = {(c.type, c.value) for c in catalog.cards if c.is_money}
    assert {
        ("influence", 3),
        ("influence", 4),
        ("influence", 5),
        ("corruption", 3),
        ("corruption", 4),
        ("corruption", 7),
    } <= values


def test_parsing_round_trips():
    catalog = parse_catalog(catalog_dict())
    assert parse_catalog(catalog_to_dict(catalog)) == catalog


def broken(change):
    data = copy.deepcopy(catalog_dict())
    change(data)
    return data


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda d: d["cronies"].pop(), "cronies"),
        (lambda d: d["influence"][1].update(id=d["influence"][0]["id"]), "cards"),
        (lambda d: d["cronies"][0].update(positions=["treasury"]), "cronies"),
        (
            lambda d: [
                t.update(kind="point-of-order") for t in d["tactics"] if t["kind"] == "hawks-investigation"
            ],
            "tactics",
        ),
        (lambda d: d["corruption"][0].update(value=0), "corruption"),
        (lambda d: d.update(kind="chancellors"), "kind"),
        (lambda d: d["cronies"][3].pop("votes"), "cronies"),
    ],
)
def test_the_catalog_schema_refuses_a_broken_catalog(change, field):
    with pytest.raises(ValidationError) as err:
        CATALOG().load(broken(change))
    assert field in err.value.messages


def test_the_rulebook_does_not_fix_how_many_tactics_of_each_kind():
    # The component list gives 28 tactic cards and describes seven tactics, no more.
    catalog = broken(lambda d: d["tactics"][0].update(kind="point-of-order"))
    loaded = CATALOG().load(catalog)
    kinds = [t["kind"] for t in loaded["tactics"]]
    assert len(kinds) == 28 and kinds.count("point-of-order") == 5
    assert sum(1 for c in parse_catalog(catalog).cards if c.tactic == "point-of-order") == 5


def test_a_crony_gives_at_most_two_free_tactics():
    # "Some Cronies also give their player 1 or 2 free tactics when they first come into play."
    CATALOG().load(broken(lambda d: d["cronies"][0].update(free_tactics=2)))
    for group in ("cronies", "foreign_allies"):
        with pytest.raises(ValidationError) as err:
            CATALOG().load(broken(lambda d, g=group: d[g][0].update(free_tactics=3)))
        assert group in err.value.messages


def test_the_engine_refuses_a_catalog_it_cannot_use():
    with pytest.raises(CatalogError):
        parse_catalog(broken(lambda d: d.update(kind="pig")))
    with pytest.raises(CatalogError):
        parse_catalog(broken(lambda d: d["influence"][1].update(id=d["influence"][0]["id"])))
    with pytest.raises(CatalogError):
        parse_catalog(broken(lambda d: d["tactics"][0].update(kind="filibuster")))
