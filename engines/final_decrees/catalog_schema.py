"""The Final Decrees catalog: the 60 cards and the 5 decrees the rulebook does not print.

Every card's ``effect`` is a list of operations from the engine's vocabulary
(``engines.final_decrees.effects.OPS``); a card asking for anything else is
refused here, at registration, so no game ever meets an effect it cannot run.
Exactly one card is Stagnation and Decline, whose rules are the engine's own
(FD-42), so it carries no effect.
"""

from collections import Counter

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from engines.final_decrees.departments import ALL_DEPARTMENTS, REFORM
from engines.final_decrees.effects import check_effect
from engines.kit.numbers import INT32_MAX

CARD_ID = validate.Regexp(
    r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", error="Card ids are 1-64 letters, digits, . _ -."
)


class Card(Schema):
    id = fields.String(required=True, validate=CARD_ID)
    name = fields.String(required=True, validate=validate.Length(min=1, max=100))
    text = fields.String(required=True, validate=validate.Length(max=1000))
    effect = fields.List(fields.Dict(), required=True, validate=validate.Length(max=6))
    stagnation = fields.Boolean(load_default=False)

    @validates_schema
    def _effect(self, data, **kwargs):
        problem = check_effect(data.get("effect", []))
        if problem:
            raise ValidationError(f"The engine cannot run this card: {problem}.", "effect")
        if data.get("stagnation") and data.get("effect"):
            raise ValidationError(
                "Stagnation and Decline follows the rulebook; it has no effect list.", "effect"
            )


class Decree(Schema):
    id = fields.String(required=True, validate=CARD_ID)
    name = fields.String(required=True, validate=validate.Length(min=1, max=100))
    flavour = fields.String(load_default="", validate=validate.Length(max=1000))
    steps = fields.List(
        fields.String(validate=validate.OneOf(ALL_DEPARTMENTS)),
        required=True,
        validate=validate.Length(min=1, max=12),
    )

    @validates_schema
    def _playable_at_four(self, data, **kwargs):
        if data.get("steps") and all(step == REFORM for step in data["steps"]):
            raise ValidationError(
                "A decree needs a step outside Reform: Reform's steps are skipped at four players.", "steps"
            )


class FinalDecreesCatalog(Schema):
    kind = fields.String(required=True, validate=validate.Equal("final-decrees"))
    id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=INT32_MAX))
    reconstruction = fields.Boolean(load_default=False)
    note = fields.String()
    attribution = fields.String(
        required=True,
        validate=validate.Length(min=1, max=500),
        metadata={"description": "CC BY 3.0 NZ asks for it."},
    )
    cards = fields.List(fields.Nested(Card), required=True, validate=validate.Length(equal=60))
    decrees = fields.List(fields.Nested(Decree), required=True, validate=validate.Length(equal=5))

    @validates_schema
    def _ids(self, data, **kwargs):
        for group in ("cards", "decrees"):
            ids = [item["id"] for item in data.get(group, ())]
            repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
            if repeated:
                raise ValidationError(f"Ids must be unique; repeated: {', '.join(repeated)}.", group)
        stagnation = sum(1 for c in data.get("cards", ()) if c.get("stagnation"))
        if data.get("cards") and stagnation != 1:
            raise ValidationError("Exactly one card is Stagnation and Decline.", "cards")


CATALOG = FinalDecreesCatalog
