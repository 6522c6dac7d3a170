"""Card catalogs a club registers for games whose printed cards it owns."""

from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import ValidationError

from schemas.api import Catalog, CatalogContent, CatalogCreate, CatalogSummary
from service import catalogs, database
from service.api.common import problems
from service.auth import require_admin, require_principal
from service.errors import Problem, not_found

blp = Blueprint("catalogs", __name__, url_prefix="/clubs/<uuid:club>/catalogs", description="Card catalogs")


@blp.post("")
@blp.arguments(CatalogCreate)
@blp.response(201, Catalog)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def register_catalog(body, club):
    """Register a catalog version (admin token); versions are immutable."""
    require_admin(club)
    content = {**body["content"], "kind": body["kind"]}
    try:
        catalogs.catalog_schema(body["kind"])().load(content)
    except ValidationError as err:
        raise Problem(
            422, "invalid-catalog", "The catalog does not match its schema.", errors=err.messages
        ) from err
    with database.pool().connection() as conn, conn.transaction():
        catalogs.register(conn, content, club)
    return {"kind": content["kind"], "id": content["id"], "version": content["version"]}


def _club_member(club) -> None:
    """Any token of the club (its admin or a seat of one of its games)."""
    if require_principal().club_id != club:
        raise not_found("club")


@blp.get("")
@blp.response(200, CatalogSummary(many=True))
@problems(blp, 401, 404)
def list_catalogs(club):
    """The catalogs the club may use: the shipped ones and its own."""
    _club_member(club)
    with database.pool().connection() as conn:
        return catalogs.readable(conn, club)


@blp.get("/<kind>/<catalog_id>/<int:version>")
@blp.response(200, CatalogContent)
@problems(blp, 401, 404)
def get_catalog(club, kind, catalog_id, version):
    """One catalog version's content (a shipped one, or the club's own)."""
    _club_member(club)
    with database.pool().connection() as conn:
        return catalogs.read(conn, club, kind, catalog_id, version)
