"""The shapes of a club's webhooks and their deliveries (``/clubs/{club}/webhooks``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from engines.kit.numbers import INT64_MAX

#: What a webhook may be told of.
EVENTS = ("game.started", "game.ended", "result.recorded", "standings.changed", "player.added")
#: How a delivery's body is written.
FORMATS = ("standard", "discord")


class WebhookCreate(Schema):
    url = fields.String(
        required=True,
        validate=validate.Length(min=1, max=2000),
        metadata={
            "description": "An http:// or https:// address on the public internet; redirects are not followed."
        },
    )
    events = fields.List(
        fields.String(validate=validate.OneOf(EVENTS)),
        required=True,
        validate=validate.Length(min=1, max=len(EVENTS)),
        metadata={"description": "The events it is told of."},
    )
    format = fields.String(
        load_default="standard",
        validate=validate.OneOf(FORMATS),
        metadata={
            "description": "`standard`: a Standard Webhooks JSON payload `{type, timestamp, data}`;"
            " `discord`: a message a Discord channel webhook posts."
        },
    )


class Webhook(Schema):
    id = fields.UUID()
    url = fields.String()
    events = fields.List(fields.String())
    format = fields.String()
    created_at = fields.DateTime()
    after_position = fields.Integer(metadata={"description": "It is told of events after this log position."})
    disabled = fields.Boolean(
        metadata={"description": "Disabled after repeated failed deliveries; a redelivery enables it again."}
    )
    disabled_at = fields.DateTime(allow_none=True)
    disabled_reason = fields.String(allow_none=True)
    failures = fields.Integer(
        metadata={"description": "Failed attempts since the last delivery that succeeded."}
    )


class WebhookCreated(Webhook):
    secret = fields.String(
        metadata={
            "description": "The signing secret (`whsec_…`), shown only once: verify every delivery with it."
        }
    )


class Delivery(Schema):
    id = fields.UUID()
    webhook_id = fields.String(
        metadata={"description": "The `webhook-id` header it is sent under, on every attempt."}
    )
    position = fields.Integer()
    event = fields.String()
    status = fields.String(metadata={"description": "`pending`, `delivered` or `failed` (given up)."})
    attempts = fields.Integer()
    last_status = fields.Integer(
        allow_none=True, metadata={"description": "The receiver's last HTTP status."}
    )
    last_error = fields.String(allow_none=True)
    next_attempt_at = fields.DateTime()
    delivered_at = fields.DateTime(allow_none=True)
    created_at = fields.DateTime()


class DeliveriesQuery(Schema):
    after_position = fields.Integer(load_default=0, validate=validate.Range(min=0, max=INT64_MAX))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class Deliveries(Schema):
    webhook = fields.Nested(Webhook)
    deliveries = fields.List(fields.Nested(Delivery))


class Redeliver(Schema):
    after_position = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=INT64_MAX),
        metadata={"description": "Every delivery after this log position is sent again."},
    )


class Redelivering(Schema):
    redelivering = fields.Integer(metadata={"description": "How many deliveries are sent again."})
