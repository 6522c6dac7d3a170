"""Card catalogs: the shipped reconstructions and those clubs register.

A catalog version never changes once stored; a game names the version it was
created with and always replays with exactly that content.
"""

from __future__ import annotations

import importlib
import json
from importlib import resources
from typing import Any
from uuid import UUID

import psycopg
from marshmallow import ValidationError
from psycopg.types.json import Jsonb

from engines.registry import ENGINE_MODULES
from service.records import access
from service.records.access import Principal
from service.records.context import Records
from service.records.errors import Conflict, Invalid

_CACHE: dict[tuple, dict[str, Any]] = {}


def default_catalog(engine_id: str) -> dict[str, Any]:
    package = ENGINE_MODULES[engine_id]
    return json.loads(resources.files(package).joinpath("default_catalog.json").read_text())


def catalog_schema(kind: str):
    module = kind.replace("-", "_")
    try:
        return importlib.import_module(f"schemas.catalogs.{module}").CATALOG
    except ModuleNotFoundError as exc:
        raise Invalid("unknown-catalog-kind", f"No catalog kind {kind!r}.") from exc


def ensure_stored(conn: psycopg.Connection, catalog: dict[str, Any], club_id=None) -> None:
    conn.execute(
        "INSERT INTO catalogs (kind, id, version, club_id, content) VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT (kind, id, version) DO NOTHING",
        (catalog["kind"], catalog["id"], catalog["version"], club_id, Jsonb(catalog)),
    )


def register(
    records: Records, principal: Principal | None, club_id: UUID, kind: str, content: dict[str, Any]
) -> dict[str, Any]:
    """Register a club's catalog version (its admin token) after checking it
    against its kind's schema; versions are immutable."""
    access.club_admin(principal, club_id)
    catalog = {**content, "kind": kind}
    try:
        catalog_schema(kind)().load(catalog)
    except ValidationError as err:
        raise Invalid(
            "invalid-catalog", "The catalog does not match its schema.", errors=err.messages
        ) from err
    with records.pool.connection() as conn, conn.transaction():
        _store_new(conn, catalog, club_id)
    return {"kind": catalog["kind"], "id": catalog["id"], "version": catalog["version"]}


def _store_new(conn: psycopg.Connection, catalog: dict[str, Any], club_id: UUID) -> None:
    exists = conn.execute(
        "SELECT 1 FROM catalogs WHERE kind = %s AND id = %s AND version = %s",
        (catalog["kind"], catalog["id"], catalog["version"]),
    ).fetchone()
    if exists:
        raise Conflict("catalog-version-exists", "That catalog version exists; register a new version.")
    ensure_stored(conn, catalog, club_id)


def load(conn: psycopg.Connection, kind: str, catalog_id: str, version: int) -> dict[str, Any]:
    """A stored catalog; cached per database since a version never changes."""
    key = (conn.info.dsn, kind, catalog_id, version)
    if key in _CACHE:
        return _CACHE[key]
    row = conn.execute(
        "SELECT content FROM catalogs WHERE kind = %s AND id = %s AND version = %s",
        (kind, catalog_id, version),
    ).fetchone()
    if row is None:
        raise Invalid("unknown-catalog", f"No catalog {kind}/{catalog_id} v{version}.")
    content = row["content"]
    _CACHE[key] = content
    return content
