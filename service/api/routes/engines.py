"""The games the service records: seat counts, options, command and view shapes.

The same marshmallow schemas the service validates with are published in the
OpenAPI document (``register_contract``) and from ``GET /engines/{id}``: each
engine's options (``PigOptions``), each command with its ``type``
(``PigRoll``), the engine's commands as one union discriminated by ``type``
(``PigCommand``) and its game-creation body (``PigGameCreate``, discriminated
by ``engine``). What a game view shows of the engine's state is published the
same way: each view and the whole state (``ChancellorsView``,
``ChancellorsFinishedView``, ``ChancellorsState``), their union
(``ChancellorsGameState``) and the game view typed by it
(``ChancellorsGameView``, discriminated by ``engine``). Every engine in the
registry is covered.

``GET /engines/{id}`` serves these schemas as self-contained JSON Schema
(draft 2020-12, as OpenAPI 3.1 writes it: nested shapes inlined, nulls as a
``"null"`` type).
"""

from __future__ import annotations

import functools
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask_smorest import Api
from marshmallow import Schema, fields, validate

from engines import registry
from engines.kit.shapes import Either, Row
from schemas.api import (
    VIEW_STATE,
    CatalogContent,
    CatalogRef,
    EngineCommand,
    EngineInfo,
    EngineState,
    GameCreate,
    GameView,
)
from schemas.interchange import DocumentCommand, GameImport
from service.api.common import Blueprint, problems
from service.records.club import catalogs
from service.records.errors import NotFound

blp = Blueprint("engines", __name__, url_prefix="/engines", description="Game engines")

GAME_CREATE = "GameCreateRequest"
GAME_IMPORT = "GameImportRequest"
GAME_VIEW = "GameView"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


@functools.cache
def game_create(engine_id: str) -> type[Schema]:
    """The body that creates a game of this engine: its id, seat count and options."""
    engine = registry.get(engine_id)
    attrs: dict[str, Any] = {
        "engine": fields.String(required=True, validate=validate.OneOf([engine_id])),
        "seats": fields.List(
            fields.UUID(),
            required=True,
            validate=validate.Length(min=engine.min_seats, max=engine.max_seats),
            metadata={"description": "Player ids in seat order; seat 0 first.", "uniqueItems": True},
        ),
        "options": fields.Nested(registry.game(engine_id).options, load_default=dict),
    }
    if engine.catalog_kind:
        attrs["catalog"] = fields.Nested(
            CatalogRef, metadata={"description": "A catalog version (default: the shipped one)."}
        )
    else:
        attrs["Meta"] = type("Meta", (), {"exclude": ("catalog",)})
    return type(f"{registry.game(engine_id).schema_prefix}GameCreate", (GameCreate,), attrs)


@functools.cache
def game_import(engine_id: str) -> type[Schema]:
    """The import body of a game of this engine: its options and its commands typed."""
    prefix = registry.game(engine_id).schema_prefix
    command = type(
        f"{prefix}DocumentCommand",
        (DocumentCommand,),
        {"command": EngineCommand(required=True, engine_id=engine_id)},
    )
    attrs: dict[str, Any] = {
        "engine": fields.String(required=True, validate=validate.OneOf([engine_id])),
        "options": fields.Nested(registry.game(engine_id).options, load_default=dict),
        "commands": fields.List(fields.Nested(command), load_default=list),
    }
    return type(f"{prefix}GameImport", (GameImport,), attrs)


@functools.cache
def game_view(engine_id: str) -> type[Schema]:
    """A game view of this engine: its options and its state typed by the engine's schemas."""
    attrs: dict[str, Any] = {
        "engine": fields.String(required=True, validate=validate.OneOf([engine_id])),
        "options": fields.Nested(registry.game(engine_id).options),
        "state": EngineState(engine_id=engine_id, metadata=VIEW_STATE),
    }
    return type(f"{registry.game(engine_id).schema_prefix}GameView", (GameView,), attrs)


def _engine_unions(self, field, ret, **kwargs) -> dict:
    """A command or a view's state: one engine's union, or any engine's (apispec attribute function)."""
    kind = {EngineCommand: "Command", EngineState: "GameState"}.get(type(field))
    if kind is None:
        return {}
    ret.pop("type", None)
    ret.pop("additionalProperties", None)
    if field.engine_id:
        return {"allOf": [_ref(f"{registry.game(field.engine_id).schema_prefix}{kind}")]}
    return {"anyOf": [_ref(f"{registry.game(e).schema_prefix}{kind}") for e in registry.available()]}


def _places(self, field, ret, **kwargs) -> dict:
    """JSON Schema of the shapes marshmallow has no field for (apispec attribute
    function): a ``Row`` is an array of fixed length whose places are typed
    one by one in OpenAPI 3.1 (in 3.0, which cannot, each item is one of the
    places' types); an ``Either`` is any of its alternatives."""
    if isinstance(field, Either):
        alternatives = [self.field2property(f) for f in field.alternatives]
        if field.allow_none:
            ret.pop("nullable", None)
            alternatives.append({"type": "null"} if self.openapi_version.minor >= 1 else _NULL)
        return {"anyOf": alternatives}
    if not isinstance(field, Row):
        return {}
    places = [self.field2property(f) for f in field.tuple_fields]
    shape = {"type": "array", "minItems": len(places), "maxItems": len(places)}
    if self.openapi_version.minor >= 1:
        return {**shape, "prefixItems": places, "items": False}
    distinct = [p for i, p in enumerate(places) if p not in places[:i]]
    return {**shape, "items": distinct[0] if len(distinct) == 1 else {"anyOf": distinct}}


_NULL = {"nullable": True, "enum": [None]}  # null, as OpenAPI 3.0 can say it


def _null_or_nested(self, field, ret, **kwargs) -> dict:
    """apispec writes a nullable nested schema as "the schema, or any object
    or null", which lets any object through; say "the schema, or null"."""
    if not isinstance(field, fields.Nested) or "anyOf" not in ret:
        return {}
    return {"anyOf": [a if "$ref" in a else _NULL for a in ret["anyOf"]]}


def register_contract(api: Api) -> None:
    """Publish every engine's schemas in the app's OpenAPI document (before the
    blueprints are registered, so that their bodies can refer to them)."""
    spec = api.spec
    api.ma_plugin.converter.add_attribute_function(_engine_unions)
    api.ma_plugin.converter.add_attribute_function(_null_or_nested)
    api.ma_plugin.converter.add_attribute_function(_places)
    variants = {}
    for game in registry.games():
        engine_id, prefix = game.id, game.schema_prefix
        spec.components.schema(f"{prefix}Options", schema=game.options)
        shapes = game.view_schemas
        for schema in shapes:
            if schema.__name__ not in spec.components.schemas:  # engines may share a shape: published once
                spec.components.schema(schema.__name__, schema=schema)
        spec.components.schema(f"{prefix}GameState", {"oneOf": [_ref(s.__name__) for s in shapes]})
        commands = game.typed_commands
        for schema in commands.values():
            spec.components.schema(schema.__name__, schema=schema)
        spec.components.schema(
            f"{prefix}Command",
            {
                "oneOf": [_ref(s.__name__) for s in commands.values()],
                "discriminator": {
                    "propertyName": "type",
                    "mapping": {name: _ref(s.__name__)["$ref"] for name, s in commands.items()},
                },
            },
        )
        for kind, make in (("create", game_create), ("import", game_import), ("view", game_view)):
            variant = make(engine_id)
            spec.components.schema(variant.__name__, schema=variant)
            variants.setdefault(kind, {})[engine_id] = variant.__name__
    for name, kind in ((GAME_CREATE, "create"), (GAME_IMPORT, "import"), (GAME_VIEW, "view")):
        spec.components.schema(
            name,
            {
                "oneOf": [_ref(n) for n in variants[kind].values()],
                "discriminator": {
                    "propertyName": "engine",
                    "mapping": {e: _ref(n)["$ref"] for e, n in variants[kind].items()},
                },
            },
        )


def json_schema(schema_class) -> dict:
    """The schema as self-contained JSON Schema (nested schemas inlined)."""
    plugin = MarshmallowPlugin(schema_name_resolver=lambda schema: None)
    APISpec("x", "1", "3.1.0", plugins=[plugin])
    plugin.converter.add_attribute_function(_places)
    return plugin.converter.schema2jsonschema(schema_class)


def view_json_schema(engine_id: str) -> dict:
    """JSON Schema of a game view's ``state`` for this engine: one of its shapes."""
    shapes = [{"title": s.__name__, **json_schema(s)} for s in registry.game(engine_id).view_schemas]
    return shapes[0] if len(shapes) == 1 else {"oneOf": shapes}


@functools.cache
def describe(engine_id: str) -> dict:
    """An engine's public description (static for the life of the process)."""
    game = registry.game(engine_id)
    engine = game.engine
    return {
        "id": engine.id,
        "title": engine.title,
        "version": engine.version,
        "min_seats": engine.min_seats,
        "max_seats": engine.max_seats,
        "catalog_kind": engine.catalog_kind,
        "options": json_schema(game.options),
        "commands": {name: json_schema(schema) for name, schema in game.typed_commands.items()},
        "view": view_json_schema(engine_id),
    }


@blp.get("")
@blp.response(200, EngineInfo(many=True))
@problems(blp)
def list_engines():
    """Every engine with its seat counts, options, command and view shapes."""
    return [describe(engine_id) for engine_id in registry.available()]


@blp.get("/<engine_id>")
@blp.response(200, EngineInfo)
@problems(blp, 404)
def get_engine(engine_id):
    """One engine: its options, each command and its view as JSON Schema (the same as in the OpenAPI document)."""
    if engine_id not in registry.available():
        raise NotFound("engine")
    return describe(engine_id)


@blp.get("/<engine_id>/catalog")
@blp.response(200, CatalogContent)
@problems(blp, 404)
def get_default_catalog(engine_id):
    """The catalog an engine's games use unless a club names its own; marked when it is a reconstruction.

    The same answer as `GET /clubs/{club}/catalogs/{kind}/{id}/{version}` gives for it."""
    return catalogs.default_for(engine_id)
