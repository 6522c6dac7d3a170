"""The House of Cronies card catalog: the cards the rulebook does not print.

Counts follow the rulebook's component list: 28 cronies, 7 foreign allies,
24 influence and 13 corruption cards, 28 tactics of the seven kinds. The
rulebook does not say how many of each kind the tactic deck holds, so the
schema only asks that every kind is there (the default catalog has four of
each). Card ids are stable strings, unique across the catalog.
"""

from collections import Counter

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from engines.kit.numbers import INT32_MAX

SPECIALIST_POSITIONS = [
    "finance",
    "justice",
    "service-delivery",
    "social-services",
    "communications",
    "communication",
]
TACTIC_KINDS = [
    "cabinet-reshuffle",
    "floor-crossing",
    "diplomatic-incident",
    "saxonwold-shebeen",
    "motion-of-no-confidence",
    "hawks-investigation",
    "point-of-order",
]
CARD_ID = validate.Regexp(
    r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", error="Card ids are 1-64 letters, digits, . _ -."
)


class Crony(Schema):
    id = fields.String(required=True, validate=CARD_ID)
    name = fields.String(required=True, validate=validate.Length(min=1, max=100))
    min_bid = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=100))
    positions = fields.List(fields.String(validate=validate.OneOf(SPECIALIST_POSITIONS)), load_default=list)
    free_tactics = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=2))
    votes = fields.Integer(required=True, strict=True, validate=validate.Range(min=-20, max=20))


class ForeignAlly(Schema):
    id = fields.String(required=True, validate=CARD_ID)
    name = fields.String(required=True, validate=validate.Length(min=1, max=100))
    min_bid = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=100))
    free_tactics = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=2))
    votes = fields.Integer(required=True, strict=True, validate=validate.Range(min=-20, max=20))


class Money(Schema):
    id = fields.String(required=True, validate=CARD_ID)
    value = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=100))


class Tactic(Schema):
    id = fields.String(required=True, validate=CARD_ID)
    kind = fields.String(required=True, validate=validate.OneOf(TACTIC_KINDS))
    name = fields.String(validate=validate.Length(max=100))


def _exactly(n):
    return validate.Length(equal=n, error=f"The game has exactly {n} of these cards.")


class HouseOfCroniesCatalog(Schema):
    kind = fields.String(required=True, validate=validate.Equal("house-of-cronies"))
    id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=INT32_MAX))
    reconstruction = fields.Boolean(load_default=False)
    note = fields.String()
    cronies = fields.List(fields.Nested(Crony), required=True, validate=_exactly(28))
    foreign_allies = fields.List(fields.Nested(ForeignAlly), required=True, validate=_exactly(7))
    influence = fields.List(fields.Nested(Money), required=True, validate=_exactly(24))
    corruption = fields.List(fields.Nested(Money), required=True, validate=_exactly(13))
    tactics = fields.List(fields.Nested(Tactic), required=True, validate=_exactly(28))

    @validates_schema
    def _ids_and_kinds(self, data, **kwargs):
        ids = [
            card["id"]
            for group in ("cronies", "foreign_allies", "influence", "corruption", "tactics")
            for card in data.get(group, ())
        ]
        repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
        if repeated:
            raise ValidationError(f"Card ids must be unique; repeated: {', '.join(repeated)}.", "cards")
        kinds = Counter(t["kind"] for t in data.get("tactics", ()))
        missing = [k for k in TACTIC_KINDS if not kinds[k]]
        if data.get("tactics") and missing:
            raise ValidationError(
                f"The tactic deck holds all seven kinds; missing: {', '.join(missing)}.", "tactics"
            )


CATALOG = HouseOfCroniesCatalog
