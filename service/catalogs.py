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


def shipped() -> list[dict[str, Any]]:
    """The catalogs the service ships, one per engine that uses one."""
    from engines import registry

    return [default_catalog(e) for e in registry.available() if registry.get(e).catalog_kind]


def readable(conn: psycopg.Connection, club_id) -> list[dict[str, Any]]:
    """Every catalog a club may use: the shipped ones and its own, in (kind, id, version) order."""
    rows = conn.execute(
        "SELECT kind, id, version, club_id IS NULL AS shipped FROM catalogs"
        " WHERE club_id IS NULL OR club_id = %s",
        (club_id,),
    ).fetchall()
    found = {(r["kind"], r["id"], r["version"]): r["shipped"] for r in rows}
    for catalog in shipped():
        found.setdefault((catalog["kind"], catalog["id"], catalog["version"]), True)
    return [{"kind": k, "id": i, "version": v, "shipped": s} for (k, i, v), s in sorted(found.items())]


def read(conn: psycopg.Connection, club_id, kind: str, catalog_id: str, version: int) -> dict[str, Any]:
    """One catalog's content, if the club may use it (shipped, or its own)."""
    for catalog in shipped():
        if (catalog["kind"], catalog["id"], catalog["version"]) == (kind, catalog_id, version):
            return {"kind": kind, "id": catalog_id, "version": version, "shipped": True, "content": catalog}
    row = conn.execute(
        "SELECT content, club_id IS NULL AS shipped FROM catalogs"
        " WHERE kind = %s AND id = %s AND version = %s AND (club_id IS NULL OR club_id = %s)",
        (kind, catalog_id, version, club_id),
    ).fetchone()
    if row is None:
        raise Problem(404, "not-found", f"No catalog {kind}/{catalog_id} v{version} for this club.")
    return {
        "kind": kind,
        "id": catalog_id,
        "version": version,
        "shipped": row["shipped"],
        "content": row["content"],
    }
