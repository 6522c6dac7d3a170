"""Card catalogs a club registers for games whose printed cards it owns."""

from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import ValidationError

from schemas.api import Catalog, CatalogCreate
from service import catalogs, database
from service.api.common import problems
from service.auth import require_admin
from service.errors import Problem

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
