"""The games the service records: seat counts, options and command shapes."""

from __future__ import annotations

import functools

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask_smorest import Blueprint

from engines import registry
from schemas.api import DefaultCatalog, EngineInfo
from schemas.games import for_engine
from service.api.common import problems
from service.records import catalogs
from service.records.errors import NotFound

blp = Blueprint("engines", __name__, url_prefix="/engines", description="Game engines")


def _json_schema(schema_class) -> dict:
    plugin = MarshmallowPlugin()
    APISpec("x", "1", "3.0.3", plugins=[plugin])
    return plugin.converter.schema2jsonschema(schema_class)


@functools.cache
def describe(engine_id: str) -> dict:
    """An engine's public description (static for the life of the process)."""
    engine = registry.get(engine_id)
    shapes = for_engine(engine_id)
    return {
        "id": engine.id,
        "title": engine.title,
        "version": engine.version,
        "min_seats": engine.min_seats,
        "max_seats": engine.max_seats,
        "catalog_kind": engine.catalog_kind,
        "options": _json_schema(shapes.OPTIONS),
        "commands": {name: _json_schema(schema) for name, schema in shapes.COMMANDS.items()},
    }


@blp.get("")
@blp.response(200, EngineInfo(many=True))
def list_engines():
    """Every engine with its seat counts, options and command shapes."""
    return [describe(engine_id) for engine_id in registry.available()]


@blp.get("/<engine_id>")
@blp.response(200, EngineInfo)
@problems(blp, 404)
def get_engine(engine_id):
    """One engine."""
    if engine_id not in registry.available():
        raise NotFound("engine")
    return describe(engine_id)


@blp.get("/<engine_id>/catalog")
@blp.response(200, DefaultCatalog)
@problems(blp, 404)
def get_default_catalog(engine_id):
    """The catalog an engine's games use unless a club names its own; marked when it is a reconstruction."""
    if engine_id not in registry.available() or not registry.get(engine_id).catalog_kind:
        raise NotFound("catalog")
    content = catalogs.default_catalog(engine_id)
    header = ("kind", "id", "version", "reconstruction", "note")
    return {**{name: content.get(name) for name in header}, "content": content}
