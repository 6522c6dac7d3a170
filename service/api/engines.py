"""The games the service records: seat counts, options and command shapes.

The same marshmallow schemas the service validates with are published in the
OpenAPI document (``register_contract``) and from ``GET /engines/{id}``: each
engine's options (``PigOptions``), each command with its ``type``
(``PigRoll``), the engine's commands as one union discriminated by ``type``
(``PigCommand``) and its game-creation body (``PigGameCreate``, discriminated
by ``engine``). Every engine in the registry is covered.
"""

from __future__ import annotations

import functools
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask_smorest import Api
from marshmallow import Schema, fields, validate

from engines import registry
from schemas.api import CatalogContent, CatalogRef, EngineCommand, EngineInfo, GameCreate
from schemas.games import for_engine, schema_prefix, typed_commands
from schemas.interchange import DocumentCommand, GameImport
from service.api.common import Blueprint, problems
from service.records import catalogs
from service.records.errors import NotFound

blp = Blueprint("engines", __name__, url_prefix="/engines", description="Game engines")

GAME_CREATE = "GameCreateRequest"
GAME_IMPORT = "GameImportRequest"


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
        "options": fields.Nested(for_engine(engine_id).OPTIONS, load_default=dict),
    }
    if engine.catalog_kind:
        attrs["catalog"] = fields.Nested(
            CatalogRef, metadata={"description": "A catalog version (default: the shipped one)."}
        )
    else:
        attrs["Meta"] = type("Meta", (), {"exclude": ("catalog",)})
    return type(f"{schema_prefix(engine_id)}GameCreate", (GameCreate,), attrs)


@functools.cache
def game_import(engine_id: str) -> type[Schema]:
    """The import body of a game of this engine: its options and its commands typed."""
    prefix = schema_prefix(engine_id)
    command = type(
        f"{prefix}DocumentCommand",
        (DocumentCommand,),
        {"command": EngineCommand(required=True, engine_id=engine_id)},
    )
    attrs: dict[str, Any] = {
        "engine": fields.String(required=True, validate=validate.OneOf([engine_id])),
        "options": fields.Nested(for_engine(engine_id).OPTIONS, load_default=dict),
        "commands": fields.List(fields.Nested(command), load_default=list),
    }
    return type(f"{prefix}GameImport", (GameImport,), attrs)


def _engine_unions(self, field, ret, **kwargs) -> dict:
    """A command: one engine's command union, or any engine's (apispec attribute function)."""
    if not isinstance(field, EngineCommand):
        return {}
    ret.pop("type", None)
    ret.pop("additionalProperties", None)
    if field.engine_id:
        return {"allOf": [_ref(f"{schema_prefix(field.engine_id)}Command")]}
    return {"anyOf": [_ref(f"{schema_prefix(e)}Command") for e in registry.available()]}


def _null_or_nested(self, field, ret, **kwargs) -> dict:
    """apispec writes a nullable nested schema as "the schema, or any object
    or null", which lets any object through; say "the schema, or null"."""
    if not isinstance(field, fields.Nested) or "anyOf" not in ret:
        return {}
    return {"anyOf": [a if "$ref" in a else {"nullable": True, "enum": [None]} for a in ret["anyOf"]]}


def register_contract(api: Api) -> None:
    """Publish every engine's schemas in the app's OpenAPI document (before the
    blueprints are registered, so that their bodies can refer to them)."""
    spec = api.spec
    api.ma_plugin.converter.add_attribute_function(_engine_unions)
    api.ma_plugin.converter.add_attribute_function(_null_or_nested)
    variants = {}
    for engine_id in registry.available():
        prefix = schema_prefix(engine_id)
        spec.components.schema(f"{prefix}Options", schema=for_engine(engine_id).OPTIONS)
        commands = typed_commands(engine_id)
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
        for kind, make in (("create", game_create), ("import", game_import)):
            variant = make(engine_id)
            spec.components.schema(variant.__name__, schema=variant)
            variants.setdefault(kind, {})[engine_id] = variant.__name__
    for name, kind in ((GAME_CREATE, "create"), (GAME_IMPORT, "import")):
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


def _json_schema(schema_class) -> dict:
    plugin = MarshmallowPlugin()
    APISpec("x", "1", "3.0.3", plugins=[plugin])
    return plugin.converter.schema2jsonschema(schema_class)


@functools.cache
def describe(engine_id: str) -> dict:
    """An engine's public description (static for the life of the process)."""
    engine = registry.get(engine_id)
    return {
        "id": engine.id,
        "title": engine.title,
        "version": engine.version,
        "min_seats": engine.min_seats,
        "max_seats": engine.max_seats,
        "catalog_kind": engine.catalog_kind,
        "options": _json_schema(for_engine(engine_id).OPTIONS),
        "commands": {name: _json_schema(schema) for name, schema in typed_commands(engine_id).items()},
    }


@blp.get("")
@blp.response(200, EngineInfo(many=True))
@problems(blp)
def list_engines():
    """Every engine with its seat counts, options and command shapes."""
    return [describe(engine_id) for engine_id in registry.available()]


@blp.get("/<engine_id>")
@blp.response(200, EngineInfo)
@problems(blp, 404)
def get_engine(engine_id):
    """One engine: its options and each command as JSON Schema (the same as in the OpenAPI document)."""
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
