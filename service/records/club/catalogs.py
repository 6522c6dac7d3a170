"""Card catalogs: the shipped reconstructions and those clubs register.

A catalog version never changes once stored; a game names the version it was
created with and always replays with exactly that content.

A catalog belongs to the club that registered it; a game may name only its
own club's catalogs or a shipped default. The shipped defaults belong to no
club, their ids are reserved, and the stored copy of each must equal the file
shipped with its engine (``check_shipped``, at start-up).
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import psycopg
from marshmallow import ValidationError
from psycopg.types.json import Jsonb

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.club import names
from service.records.errors import Conflict, Invalid, NotFound
from service.records.log.context import Records

_CACHE: dict[tuple, dict[str, Any]] = {}

#: The owner a catalog reference recorded before catalogs had owners gives:
#: then (kind, id, version) named one stored row, the oldest of that name now.
RECORDED_BEFORE_OWNERS = object()


class ShippedCatalogAltered(RuntimeError):
    """A shipped default's stored copy differs from the file: the service must not start."""


def default_catalog(engine_id: str) -> dict[str, Any]:
    return json.loads(registry.game(engine_id).default_catalog.read_text())


def catalog_schema(kind: str):
    for game in registry.games():
        if game.catalog_kind == kind:
            return game.catalog
    raise Invalid("unknown-catalog-kind", f"No catalog kind {kind!r}.")


def shipped() -> list[dict[str, Any]]:
    """The default catalog of every engine that ships one."""
    return [default_catalog(game.id) for game in registry.games() if game.catalog_kind]


def ensure_stored(conn: psycopg.Connection, catalog: dict[str, Any], club_id=None) -> None:
    conn.execute(
        "INSERT INTO catalogs (kind, id, version, club_id, content) VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT (kind, id, version, club_id) DO NOTHING",
        (catalog["kind"], catalog["id"], catalog["version"], club_id, Jsonb(catalog)),
    )


def check_shipped(records: Records) -> None:
    """Store each shipped default if missing, and refuse to go on when a
    stored copy differs from its file (a default is changed by shipping a new
    version, never in place)."""
    with records.pool.connection() as conn, conn.transaction():
        for catalog in shipped():
            ensure_stored(conn, catalog)
            row = conn.execute(
                "SELECT content FROM catalogs WHERE kind = %s AND id = %s AND version = %s AND club_id IS NULL",
                (catalog["kind"], catalog["id"], catalog["version"]),
            ).fetchone()
            if row["content"] != catalog:
                raise ShippedCatalogAltered(
                    f"the stored {catalog['kind']}/{catalog['id']} v{catalog['version']} differs from "
                    "the shipped file; ship a new version instead of changing this one"
                )


def register(
    records: Records, principal: Principal | None, club_id: UUID, kind: str, content: dict[str, Any]
) -> dict[str, Any]:
    """Register a club's catalog version (its admin token) after checking it
    against its kind's schema; versions are immutable."""
    access.club_admin(principal, club_id)
    catalog = checked(kind, content)
    with records.pool.connection() as conn, conn.transaction():
        _store_new(conn, catalog, club_id)
    return {"kind": catalog["kind"], "id": catalog["id"], "version": catalog["version"]}


def checked(kind: str, content: dict[str, Any]) -> dict[str, Any]:
    """A club's catalog as it is stored: checked against its kind's schema,
    its cards' names by the rule for names, its id not a shipped one's."""
    try:
        catalog = _names_cleaned({**content, "kind": kind})
        catalog_schema(kind)().load(catalog)
    except ValidationError as err:
        raise Invalid(
            "invalid-catalog", "The catalog does not match its schema.", errors=err.messages
        ) from err
    except names.BadName as err:
        raise Invalid(
            "invalid-catalog", f"A card's name is refused: {err.detail}", errors=err.extra["errors"]
        ) from err
    if any(catalog["kind"] == s["kind"] and catalog["id"] == s["id"] for s in shipped()):
        raise Conflict(
            "catalog-id-reserved", f"{catalog['id']!r} is a shipped catalog's id; choose another id."
        )
    return catalog


def owned(conn: psycopg.Connection, club_id: UUID) -> list[dict[str, Any]]:
    """The club's own catalogs' contents, oldest first (a backup carries them)."""
    rows = conn.execute(
        "SELECT content FROM catalogs WHERE club_id = %s ORDER BY created_at, kind, id, version", (club_id,)
    ).fetchall()
    return [r["content"] for r in rows]


def _names_cleaned(value: Any) -> Any:
    """``value`` with every card's ``name`` as names are stored everywhere
    (``names.name``): a card's name is shown on pages like a player's, so it
    may not hold bidirectional or invisible characters either."""
    if isinstance(value, dict):
        return {
            k: names.name(v) if k == "name" and isinstance(v, str) else _names_cleaned(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_names_cleaned(v) for v in value]
    return value


def _store_new(conn: psycopg.Connection, catalog: dict[str, Any], club_id: UUID) -> None:
    exists = conn.execute(
        "SELECT 1 FROM catalogs WHERE kind = %s AND id = %s AND version = %s AND club_id = %s",
        (catalog["kind"], catalog["id"], catalog["version"], club_id),
    ).fetchone()
    if exists:
        raise Conflict("catalog-version-exists", "That catalog version exists; register a new version.")
    ensure_stored(conn, catalog, club_id)


def owned_or_shipped(
    conn: psycopg.Connection, club_id: UUID, kind: str, catalog_id: str, version: int
) -> str | None:
    """The owner of the catalog a club's new game may name: a shipped default
    (None) or the club's own (its id as text); any other is unknown."""
    found = _usable(conn, club_id, kind, catalog_id, version)
    if found is None:
        raise Invalid("unknown-catalog", f"This club has no catalog {kind}/{catalog_id} v{version}.")
    return found[0]


def _usable(
    conn: psycopg.Connection, club_id: UUID, kind: str, catalog_id: str, version: int
) -> tuple[str | None] | None:
    """The owner of a stored catalog the club may use, as a 1-tuple (None
    inside: a shipped default, which wins over a club's copy); None: none."""
    row = conn.execute(
        "SELECT club_id FROM catalogs WHERE kind = %s AND id = %s AND version = %s"
        " AND (club_id IS NULL OR club_id = %s) ORDER BY club_id NULLS FIRST LIMIT 1",
        (kind, catalog_id, version, club_id),
    ).fetchone()
    if row is None:
        return None
    return (str(row["club_id"]) if row["club_id"] else None,)


def load(
    conn: psycopg.Connection, kind: str, catalog_id: str, version: int, club: Any = RECORDED_BEFORE_OWNERS
) -> dict[str, Any]:
    """A stored catalog: ``club`` owns it (None: a shipped default). Cached per
    database, since a version never changes."""
    key = (
        conn.info.dsn,
        kind,
        catalog_id,
        version,
        "before-owners" if club is RECORDED_BEFORE_OWNERS else club,
    )
    if key in _CACHE:
        return _CACHE[key]
    if club is RECORDED_BEFORE_OWNERS:
        row = conn.execute(
            "SELECT content FROM catalogs WHERE kind = %s AND id = %s AND version = %s"
            " ORDER BY created_at LIMIT 1",
            (kind, catalog_id, version),
        ).fetchone()
    else:
        row = conn.execute(
            "SELECT content FROM catalogs WHERE kind = %s AND id = %s AND version = %s"
            " AND club_id IS NOT DISTINCT FROM %s",
            (kind, catalog_id, version, club),
        ).fetchone()
    if row is None:
        raise Invalid("unknown-catalog", f"No catalog {kind}/{catalog_id} v{version}.")
    content = row["content"]
    _CACHE[key] = content
    return content


def _club_member(principal: Principal | None, club_id: UUID) -> None:
    """Any token of the club: its admin's, or a seat's of one of its games."""
    if access.required(principal).club_id != club_id:
        raise NotFound("club")


def readable(records: Records, principal: Principal | None, club_id: UUID) -> list[dict[str, Any]]:
    """Every catalog a club may use (any token of the club): the shipped ones
    and its own, in (kind, id, version) order."""
    _club_member(principal, club_id)
    with records.pool.connection() as conn:
        rows = conn.execute(
            "SELECT kind, id, version, club_id IS NULL AS shipped FROM catalogs"
            " WHERE club_id IS NULL OR club_id = %s",
            (club_id,),
        ).fetchall()
    found = {(r["kind"], r["id"], r["version"]): r["shipped"] for r in rows}
    for catalog in shipped():
        found.setdefault((catalog["kind"], catalog["id"], catalog["version"]), True)
    return [{"kind": k, "id": i, "version": v, "shipped": s} for (k, i, v), s in sorted(found.items())]


def read(
    records: Records, principal: Principal | None, club_id: UUID, kind: str, catalog_id: str, version: int
) -> dict[str, Any]:
    """One catalog's content, if the club may use it (shipped, or its own)."""
    _club_member(principal, club_id)
    for catalog in shipped():
        if (catalog["kind"], catalog["id"], catalog["version"]) == (kind, catalog_id, version):
            return _described(catalog, None)
    with records.pool.connection() as conn:
        found = _usable(conn, club_id, kind, catalog_id, version)
        if found is None:
            raise NotFound("catalog", f"No catalog {kind}/{catalog_id} v{version} for this club.")
        return _described(load(conn, kind, catalog_id, version, found[0]), found[0])


def default_for(engine_id: str) -> dict[str, Any]:
    """The catalog an engine's games use unless a club names its own (anyone may read it)."""
    if engine_id not in registry.available() or not registry.get(engine_id).catalog_kind:
        raise NotFound("catalog")
    return _described(default_catalog(engine_id), None)


def _described(catalog: dict[str, Any], owner: str | None) -> dict[str, Any]:
    """A catalog as it is served: its name, whether it is shipped (``owner``
    None) and marked as a reconstruction, and its content."""
    return {
        "kind": catalog["kind"],
        "id": catalog["id"],
        "version": catalog["version"],
        "shipped": owner is None,
        "reconstruction": bool(catalog.get("reconstruction", False)),
        "note": catalog.get("note"),
        "content": catalog,
    }
