"""Card catalogs: the shipped reconstructions and those clubs register.

A catalog version never changes once stored; a game names the version it was
created with and always replays with exactly that content.
"""

from __future__ import annotations

import importlib
import json
from importlib import resources
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from engines.registry import ENGINE_MODULES
from service.errors import Problem

_CACHE: dict[tuple, dict[str, Any]] = {}


def default_catalog(engine_id: str) -> dict[str, Any]:
    package = ENGINE_MODULES[engine_id]
    return json.loads(resources.files(package).joinpath("default_catalog.json").read_text())


def catalog_schema(kind: str):
    module = kind.replace("-", "_")
    try:
        return importlib.import_module(f"schemas.catalogs.{module}").CATALOG
    except ModuleNotFoundError as exc:
        raise Problem(422, "unknown-catalog-kind", f"No catalog kind {kind!r}.") from exc


def ensure_stored(conn: psycopg.Connection, catalog: dict[str, Any], club_id=None) -> None:
    conn.execute(
        "INSERT INTO catalogs (kind, id, version, club_id, content) VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT (kind, id, version) DO NOTHING",
        (catalog["kind"], catalog["id"], catalog["version"], club_id, Jsonb(catalog)),
    )


def register(conn: psycopg.Connection, catalog: dict[str, Any], club_id) -> None:
    exists = conn.execute(
        "SELECT 1 FROM catalogs WHERE kind = %s AND id = %s AND version = %s",
        (catalog["kind"], catalog["id"], catalog["version"]),
    ).fetchone()
    if exists:
        raise Problem(409, "catalog-version-exists", "That catalog version exists; register a new version.")
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
        raise Problem(422, "unknown-catalog", f"No catalog {kind}/{catalog_id} v{version}.")
    content = row["content"] if isinstance(row, dict) else row[0]
    _CACHE[key] = content
    return content
