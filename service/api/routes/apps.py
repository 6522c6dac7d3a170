"""A club's apps: named tokens holding only the scopes the admin gave them."""

from __future__ import annotations

from schemas.api import App, AppCreate, AppCreated
from service.api.common import Blueprint, problems, records
from service.auth import current_principal
from service.records.club import apps

blp = Blueprint("apps", __name__, url_prefix="/clubs/<uuid:club>/apps", description="A club's app tokens")


@blp.post("")
@blp.arguments(AppCreate)
@blp.response(201, AppCreated)
@problems(blp, 400, 401, 403, 404, 413, 422)
def create_app_token(body, club):
    """Make a token for an app (admin token): its name and scopes. The answer
    holds the token, shown once; only its hash is kept."""
    return apps.make_app(records(), club, current_principal(), body["name"], body["scopes"])


@blp.get("")
@blp.response(200, App(many=True))
@problems(blp, 401, 403, 404)
def list_app_tokens(club):
    """The club's apps with their scopes and last use (admin token)."""
    return apps.apps(records(), club, current_principal())


@blp.delete("/<uuid:app>")
@blp.response(204)
@problems(blp, 401, 403, 404)
def revoke_app_token(club, app):
    """Revoke an app's token (admin token): it stops working at once in the
    process that revoked it, and within two seconds in every other."""
    apps.revoke_app(records(), club, app, current_principal())
