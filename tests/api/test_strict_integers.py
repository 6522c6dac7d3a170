"""Integer fields are strict everywhere: 0.5, 0.9, 1.0, "0" and true are not
integers, and the answer is a 422 naming the field, with nothing stored."""

import pytest
from marshmallow import Schema, fields, validate

from engines import registry
from engines.kit.numbers import INT32_MAX
from schemas import api as api_schemas
from schemas.interchange import GameImport
from service.records.club.catalogs import catalog_schema
from tests.helpers import event_count, new_pig_game

NOT_INTEGERS = [0.5, 0.9, 1.0, 1.7, "0", "1", True, False]
BODY_SCHEMAS = [
    api_schemas.ActionRequest,
    api_schemas.GameCreate,
    api_schemas.LeagueCreate,
    api_schemas.CatalogCreate,
    api_schemas.Retract,
    api_schemas.Abandon,
    GameImport,
]


def _engine_schemas():
    for game in registry.games():
        yield f"{game.id} options", game.options
        for name, schema in game.commands.items():
            yield f"{game.id} {name}", schema


def _integer_fields(schema: type[Schema], path: str = ""):
    pending = [(path, field) for path, field in ((n, f) for n, f in schema._declared_fields.items())]
    while pending:
        name, field = pending.pop()
        if isinstance(field, fields.Integer):
            yield name, field
        elif isinstance(field, fields.List):
            pending.append((f"{name}[]", field.inner))
        elif isinstance(field, fields.Nested):
            nested = field.nested if isinstance(field.nested, type) else type(field.nested)
            pending.extend((f"{name}.{n}", f) for n, f in nested._declared_fields.items())


def _bounded(field: fields.Integer) -> bool:
    ranges = [v for v in field.validators if isinstance(v, validate.Range)]
    return any(r.min is not None and r.max is not None and r.max < 2**63 for r in ranges)


@pytest.mark.parametrize(
    "label, schema",
    [(s.__name__, s) for s in BODY_SCHEMAS] + list(_engine_schemas()),
)
def test_every_integer_field_of_a_body_is_strict_and_bounded(label, schema):
    loose = [name for name, field in _integer_fields(schema) if not (field.strict and _bounded(field))]
    assert loose == [], f"{label}: {loose}"


def _catalog_schemas():
    for game in registry.games():
        if game.catalog_kind:
            yield game.catalog_kind, catalog_schema(game.catalog_kind)


@pytest.mark.parametrize("kind, schema", list(_catalog_schemas()))
def test_every_integer_of_a_catalog_is_strict_and_its_version_fits_the_column(kind, schema):
    loose = [name for name, field in _integer_fields(schema) if not field.strict]
    assert loose == [], f"{kind}: {loose}"
    version = schema._declared_fields["version"]
    assert any(isinstance(v, validate.Range) and v.max <= INT32_MAX for v in version.validators), kind


@pytest.fixture
def pig(client, pool):
    club, game, api = new_pig_game(client)
    return api, game, event_count(pool, game["id"]), club


@pytest.mark.parametrize("seat", NOT_INTEGERS)
def test_a_seat_that_is_not_an_integer_is_a_422_naming_seat(pig, pool, seat):
    api, game, count, _ = pig
    response = api.post(f"/games/{game['id']}/actions", {"seat": seat, "command": {"type": "Roll"}})
    assert response.status_code == 422, response.get_json()
    assert "seat" in response.get_json()["errors"]
    assert event_count(pool, game["id"]) == count


@pytest.mark.parametrize("version", [1.7, 0.5, "1", True])
def test_an_expected_version_that_is_not_an_integer_is_a_422_naming_it(pig, pool, version):
    api, game, count, _ = pig
    body = {"seat": 0, "command": {"type": "Roll"}, "expected_version": version}
    response = api.post(f"/games/{game['id']}/actions", body)
    assert response.status_code == 422, response.get_json()
    assert "expected_version" in response.get_json()["errors"]
    assert event_count(pool, game["id"]) == count


def test_a_game_option_that_is_not_an_integer_is_a_422_naming_it(pig):
    api, game, _, club = pig
    players = [s["player"] for s in game["seats"]]
    response = api.post(
        f"/clubs/{club['id']}/games", {"engine": "pig", "seats": players, "options": {"target": 20.5}}
    )
    assert response.status_code == 422 and "target" in response.get_json()["errors"]


def _string_fields(schema: type[Schema]):
    pending = list(schema._declared_fields.items())
    while pending:
        name, field = pending.pop()
        if isinstance(field, fields.String) and not isinstance(field, fields.UUID):
            yield name, field
        elif isinstance(field, fields.List):
            pending.append((f"{name}[]", field.inner))
        elif isinstance(field, fields.Nested):
            nested = field.nested if isinstance(field.nested, type) else type(field.nested)
            pending.extend((f"{name}.{n}", f) for n, f in nested._declared_fields.items())


@pytest.mark.parametrize("schema", BODY_SCHEMAS, ids=lambda s: s.__name__)
def test_every_text_field_of_a_body_has_a_length_limit(schema):
    unlimited = [
        name
        for name, field in _string_fields(schema)
        if not any(isinstance(v, (validate.Length, validate.OneOf)) for v in field.validators)
    ]
    assert unlimited == [], unlimited


@pytest.mark.parametrize("seat", [0.9, "1", True])
def test_an_imported_seat_that_is_not_an_integer_is_a_422(pig, pool, seat):
    api, game, before, club = pig
    document = {
        "engine": "pig",
        "seats": [{"name": "Ann"}, {"name": "Bob"}],
        "commands": [{"seat": seat, "command": {"type": "Roll"}}],
    }
    r = api.post(f"/clubs/{club['id']}/games/import", document)
    assert r.status_code == 422, r.get_json()
    assert "seat" in str(r.get_json()), r.get_json()


def test_an_abandon_reason_beyond_the_limit_is_a_422_on_import_as_on_abandon(pig, pool):
    api, game, before, club = pig
    reason = "x" * 200_000
    document = {"engine": "pig", "seats": [{"name": "Ann"}, {"name": "Bob"}], "status": "abandoned"}
    r = api.post(f"/clubs/{club['id']}/games/import", {**document, "abandon_reason": reason})
    assert r.status_code == 422, r.get_json()
    assert api.post(f"/games/{game['id']}/abandon", {"reason": reason}).status_code == 422
    assert event_count(pool, game["id"]) == before
