"""Chancellors: the game options and the fields of each command (``type`` and ``seat`` excluded)."""

from marshmallow import Schema, fields, validate

from schemas.numbers import INT32_MAX, INT32_MIN


class ChancellorsOptions(Schema):
    target = fields.Integer(load_default=100, strict=True, validate=validate.Range(min=10, max=500))
    # The extended deck adds the Pawns, Courts and the Excuse; each can also be
    # chosen on its own (None: follow ``extended_deck``).
    extended_deck = fields.Boolean(load_default=False)
    pawns = fields.Boolean(load_default=None, allow_none=True)
    courts = fields.Boolean(load_default=None, allow_none=True)
    excuse = fields.Boolean(load_default=None, allow_none=True)


CardId = fields.String


class ChooseCard(Schema):
    card = CardId(required=True)


class SolveProblem(Schema):
    problem = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=INT32_MAX))
    cards = fields.List(CardId(), required=True, validate=validate.Length(min=1))
    excuse = fields.Boolean(load_default=False)


class SolvePart(Schema):
    problem = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=INT32_MAX))
    card = CardId(required=True)
    set_aside = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=6))
    excuse = fields.Boolean(load_default=False)


class Pass(Schema):
    abdicate = fields.Boolean(load_default=False)


class DiscardDown(Schema):
    cards = fields.List(CardId(), required=True, validate=validate.Length(min=1))


class RollDice(Schema):
    problem = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=INT32_MAX))
    dice = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=INT32_MIN, max=INT32_MAX)),
        required=True,
        validate=validate.Length(min=1, max=2),
    )


class DrawCards(Schema):
    player = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=INT32_MAX))
    cards = fields.List(CardId(), required=True, validate=validate.Length(min=1, max=3))


OPTIONS = ChancellorsOptions
COMMANDS = {
    "ChooseCard": ChooseCard,
    "SolveProblem": SolveProblem,
    "SolvePart": SolvePart,
    "Pass": Pass,
    "DiscardDown": DiscardDown,
    "RollDice": RollDice,
    "DrawCards": DrawCards,
}
