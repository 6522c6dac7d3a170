"""Card catalogs a club registers for games whose printed cards it owns."""

from __future__ import annotations

from flask_smorest import Blueprint

from schemas.api import Catalog, CatalogCreate
from service.api.common import problems, records
from service.auth import current_principal
from service.records import catalogs

blp = Blueprint("catalogs", __name__, url_prefix="/clubs/<uuid:club>/catalogs", description="Card catalogs")


@blp.post("")
@blp.arguments(CatalogCreate)
@blp.response(201, Catalog)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def register_catalog(body, club):
    """Register a catalog version (admin token); versions are immutable."""
    return catalogs.register(records(), current_principal(), club, body["kind"], body["content"])
