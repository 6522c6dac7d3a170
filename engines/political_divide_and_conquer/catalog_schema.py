"""The Political Divide & Conquer card catalog: the deck the rulebook does not list.

The rulebook gives the four card types and one count: group influence "most
range from 1 to 3, though there are two of each of the 4, 5 and 6 value
cards" (read as two of each value in the whole deck). Assets add influence
or carry a *power* (Flip-Flop, Conspiracy Theorist) and then no influence;
deficits subtract influence; events carry an effect built from the
operations the engine runs. The powers and operations are the engine's own
lists (``engines.political_divide_and_conquer.catalog``): a catalog naming any
other is refused here, at registration, never in the middle of a game.
"""

from collections import Counter

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from engines.kit.numbers import INT32_MAX
from engines.political_divide_and_conquer.catalog import (
    AFFECTS,
    ATTACK_OPS,
    EVENT_OPS,
    POWERS,
    TARGETED_OPS,
    WHEN,
    WINGS,
)

CARD_ID = validate.Regexp(
    r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", error="Card ids are 1-64 letters, digits, . _ -."
)
NAME = validate.Length(min=1, max=100)


class Group(Schema):
    id = fields.String(required=True, validate=CARD_ID)
    name = fields.String(required=True, validate=NAME)
    wing = fields.String(required=True, validate=validate.OneOf(list(WINGS)))
    influence = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=6))


class Asset(Schema):
    id = fields.String(required=True, validate=CARD_ID)
    name = fields.String(required=True, validate=NAME)
    influence = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=6))
    power = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(list(POWERS)))

    @validates_schema
    def _power_or_influence(self, data, **kwargs):
        if data.get("power") and data.get("influence"):
            raise ValidationError("A power asset adds no influence.", "influence")
        if not data.get("power") and not data.get("influence"):
            raise ValidationError("An asset either adds influence or has a power.", "influence")


class Deficit(Schema):
    id = fields.String(required=True, validate=CARD_ID)
    name = fields.String(required=True, validate=NAME)
    influence = fields.Integer(required=True, strict=True, validate=validate.Range(min=-6, max=-1))


class Effect(Schema):
    op = fields.String(required=True, validate=validate.OneOf(list(EVENT_OPS)))
    n = fields.Integer(strict=True, validate=validate.Range(min=1, max=10))
    to = fields.Integer(strict=True, validate=validate.Range(min=1, max=12))

    @validates_schema
    def _parameter(self, data, **kwargs):
        wanted = EVENT_OPS.get(data.get("op"))
        given = {k for k in ("n", "to") if k in data}
        if given != ({wanted} if wanted else set()):
            expected = f"the parameter {wanted!r}" if wanted else "no parameter"
            raise ValidationError(f"The operation {data.get('op')!r} takes {expected}.", "op")


class EventCard(Schema):
    id = fields.String(required=True, validate=CARD_ID)
    name = fields.String(required=True, validate=NAME)
    text = fields.String(required=True, validate=validate.Length(min=1, max=300))
    affects = fields.String(required=True, validate=validate.OneOf(list(AFFECTS)))
    when = fields.String(load_default="any", validate=validate.OneOf(list(WHEN)))
    effect = fields.List(fields.Nested(Effect), required=True, validate=validate.Length(min=1, max=4))

    @validates_schema
    def _consistent(self, data, **kwargs):
        ops = {e["op"] for e in data.get("effect", ())}
        if ops & ATTACK_OPS and data.get("when") != "attack":
            raise ValidationError(
                "An event that changes an attack is played during one (when: attack).", "when"
            )
        if bool(ops & TARGETED_OPS) != (data.get("affects") == "opponent"):
            raise ValidationError(
                "An event affects an opponent exactly when it takes cards from one.", "affects"
            )


class PoliticalDivideAndConquerCatalog(Schema):
    kind = fields.String(required=True, validate=validate.Equal("political-divide-and-conquer"))
    id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=INT32_MAX))
    reconstruction = fields.Boolean(load_default=False)
    note = fields.String()
    groups = fields.List(fields.Nested(Group), required=True, validate=validate.Length(min=20, max=200))
    assets = fields.List(fields.Nested(Asset), required=True, validate=validate.Length(max=100))
    deficits = fields.List(fields.Nested(Deficit), required=True, validate=validate.Length(max=100))
    events = fields.List(fields.Nested(EventCard), required=True, validate=validate.Length(max=100))

    @validates_schema
    def _deck(self, data, **kwargs):
        ids = [c["id"] for part in ("groups", "assets", "deficits", "events") for c in data.get(part, ())]
        repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
        if repeated:
            raise ValidationError(f"Card ids must be unique; repeated: {', '.join(repeated)}.", "cards")
        # 8 players are dealt 6 cards each, one group is turned up, and every turn draws.
        if len(ids) < 60:
            raise ValidationError("The deck needs at least 60 cards for 8 players.", "cards")
        values = Counter(g["influence"] for g in data.get("groups", ()))
        wrong = [v for v in (4, 5, 6) if values[v] != 2]
        if wrong:
            raise ValidationError(
                "The deck has exactly two groups of each of the values 4, 5 and 6 (the rest 1 to 3).",
                "groups",
            )


CATALOG = PoliticalDivideAndConquerCatalog
