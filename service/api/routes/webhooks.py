"""A club's webhooks: its apps told of its games, results, standings and players."""

from __future__ import annotations

from schemas.webhooks import (
    Deliveries,
    DeliveriesQuery,
    Redeliver,
    Redelivering,
    Webhook,
    WebhookCreate,
    WebhookCreated,
)
from service.api.common import Blueprint, problems, records
from service.auth import current_principal
from service.records.hooks import endpoints

blp = Blueprint(
    "webhooks",
    __name__,
    url_prefix="/clubs/<uuid:club>/webhooks",
    description="A club's webhooks, signed per the Standard Webhooks specification (docs/apps.md)",
)


@blp.post("")
@blp.arguments(WebhookCreate)
@blp.response(201, WebhookCreated)
@problems(blp, 400, 401, 403, 404, 413, 422)
def create_webhook(body, club):
    """Make a webhook (admin token): the events of the club committed from now
    on are posted to its URL, each signed with its secret (shown only once).
    A URL whose host is a private, loopback or reserved address is refused."""
    return endpoints.create(records(), club, current_principal(), body["url"], body["events"], body["format"])


@blp.get("")
@blp.response(200, Webhook(many=True))
@problems(blp, 401, 403, 404)
def list_webhooks(club):
    """The club's webhooks (admin token), without their secrets."""
    return endpoints.webhooks(records(), club, current_principal())


@blp.delete("/<uuid:webhook>")
@blp.response(204)
@problems(blp, 401, 403, 404)
def end_webhook(club, webhook):
    """End a webhook (admin token): nothing more is posted to it."""
    endpoints.end(records(), club, webhook, current_principal())


@blp.get("/<uuid:webhook>/deliveries")
@blp.arguments(DeliveriesQuery, location="query")
@blp.response(200, Deliveries)
@problems(blp, 401, 403, 404, 422)
def list_deliveries(query, club, webhook):
    """A webhook's deliveries in log order (admin token): each one's status,
    attempts, the receiver's last HTTP status and the last error."""
    return endpoints.deliveries(
        records(), club, webhook, current_principal(), query["after_position"], query["limit"]
    )


@blp.post("/<uuid:webhook>/redeliver")
@blp.arguments(Redeliver)
@blp.response(202, Redelivering)
@problems(blp, 400, 401, 403, 404, 413, 422)
def redeliver(body, club, webhook):
    """Send again every delivery after a log position (admin token), each under
    its own `webhook-id`; a webhook disabled after failures is enabled again."""
    return endpoints.redeliver(records(), club, webhook, current_principal(), body["after_position"])
