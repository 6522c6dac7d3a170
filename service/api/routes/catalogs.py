"""Card catalogs a club registers for games whose printed cards it owns."""

from __future__ import annotations

from schemas.api import Catalog, CatalogContent, CatalogCreate, CatalogSummary
from service.api.common import Blueprint, problems, records
from service.auth import current_principal
from service.records.club import catalogs

blp = Blueprint("catalogs", __name__, url_prefix="/clubs/<uuid:club>/catalogs", description="Card catalogs")


@blp.post("")
@blp.arguments(CatalogCreate)
@blp.response(201, Catalog)
@problems(blp, 400, 401, 403, 404, 409, 413, 422)
def register_catalog(body, club):
    """Register a catalog version (admin token); versions are immutable."""
    return catalogs.register(records(), current_principal(), club, body["kind"], body["content"])


@blp.get("")
@blp.response(200, CatalogSummary(many=True))
@problems(blp, 401, 404)
def list_catalogs(club):
    """The catalogs the club may use (any token of the club): the shipped ones and its own."""
    return catalogs.readable(records(), current_principal(), club)


@blp.get("/<kind>/<catalog_id>/<int:version>")
@blp.response(200, CatalogContent)
@problems(blp, 401, 404)
def get_catalog(club, kind, catalog_id, version):
    """One catalog version's content (a shipped one, or the club's own)."""
    return catalogs.read(records(), current_principal(), club, kind, catalog_id, version)
