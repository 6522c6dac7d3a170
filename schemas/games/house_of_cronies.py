"""House of Cronies: game options and command fields (``type`` and ``seat`` excluded)."""

from marshmallow import Schema, ValidationError, fields, validate

from schemas.numbers import INT32_MAX

POSITIONS = [
    "president",
    "vice-president",
    "finance",
    "justice",
    "service-delivery",
    "social-services",  # the setup section's name for Service delivery
    "communications",
    "communication",
    "foreign-ally",
]


class HouseOfCroniesOptions(Schema):
    first_speaker = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=3))


class Empty(Schema):
    pass


def _card_list(**kwargs):
    return fields.List(fields.String(), required=True, validate=validate.Length(min=1), **kwargs)


def _draw_target(value):
    if value == "table" or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3):
        return
    raise ValidationError('"to" is a seat (0-3) or "table".')


class DrawCards(Schema):
    deck = fields.String(required=True, validate=validate.OneOf(["main", "tactics"]))
    to = fields.Raw(required=True, validate=_draw_target)
    cards = fields.List(fields.String(), required=True)


class PlaceCrony(Schema):
    card = fields.String(required=True)
    position = fields.String(required=True, validate=validate.OneOf(POSITIONS))


class PickUpCard(Schema):
    card = fields.String(required=True)


class PlaceBid(Schema):
    card = fields.String(required=True)
    cards = _card_list()


class BuyTactics(Schema):
    count = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=INT32_MAX))
    cards = _card_list()


class PlayTactic(Schema):
    card = fields.String(required=True)
    target = fields.Integer(allow_none=True, strict=True, validate=validate.Range(min=0, max=3))
    position = fields.String(allow_none=True, validate=validate.OneOf(POSITIONS))
    crony = fields.String(allow_none=True)
    cabinet = fields.Dict(
        keys=fields.String(validate=validate.OneOf(POSITIONS)),
        values=fields.String(allow_none=True),
        allow_none=True,
    )


OPTIONS = HouseOfCroniesOptions
COMMANDS = {
    "DrawCards": DrawCards,
    "PlaceCrony": PlaceCrony,
    "PickUpCard": PickUpCard,
    "PlaceBid": PlaceBid,
    "PassBid": Empty,
    "BuyTactics": BuyTactics,
    "PlayTactic": PlayTactic,
    "PassReaction": Empty,
    "EndTurn": Empty,
}
