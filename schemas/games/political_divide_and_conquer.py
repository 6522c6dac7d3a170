"""Political Divide & Conquer: game options and command fields (``type`` and ``seat`` excluded)."""

from marshmallow import Schema, fields, validate

from schemas.numbers import INT32_MAX, INT32_MIN

SEAT = validate.Range(min=0, max=7)


class PoliticalDivideAndConquerOptions(Schema):
    # None: every player rolls a die and the highest goes first (PDC-8)
    first_player = fields.Integer(load_default=None, allow_none=True, strict=True, validate=SEAT)


class Empty(Schema):
    pass


class StackOnto(Schema):
    card = fields.String(required=True)
    group = fields.String(required=True)


def _groups(**kwargs):
    return fields.List(fields.String(), validate=validate.Length(max=60), **kwargs)


def _stacks():
    return fields.List(fields.Nested(StackOnto), load_default=list, validate=validate.Length(max=60))


class DrawCards(Schema):
    to = fields.Integer(required=True, strict=True, validate=SEAT)
    cards = fields.List(fields.String(), required=True)


class TurnUpCard(Schema):
    cards = fields.List(fields.String(), required=True)


class RollForFirst(Schema):
    seats = fields.List(fields.Integer(strict=True, validate=SEAT), required=True)
    dice = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=INT32_MIN, max=INT32_MAX)), required=True
    )


class RollAttack(Schema):
    target = fields.String(required=True)
    dice = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=INT32_MIN, max=INT32_MAX)), required=True
    )


class TakeRandomCards(Schema):
    source = fields.Integer(required=True, strict=True, validate=SEAT)
    cards = fields.List(fields.String(), required=True)


class KeepCard(Schema):
    card = fields.String(required=True)
    return_to = fields.String(required=True, validate=validate.OneOf(["top", "bottom"]))


class OneCard(Schema):
    card = fields.String(required=True)


class StackCard(Schema):
    card = fields.String(required=True)
    group = fields.String(required=True)


class DeclareAttack(Schema):
    target = fields.String(required=True)
    intent = fields.String(required=True, validate=validate.OneOf(["take-over", "destroy"]))
    team = _groups(required=True)
    stacks = _stacks()


class AddToFight(Schema):
    groups = _groups(load_default=list)
    stacks = _stacks()


class PlayEvent(Schema):
    card = fields.String(required=True)
    target = fields.Integer(load_default=None, allow_none=True, strict=True, validate=SEAT)


OPTIONS = PoliticalDivideAndConquerOptions
COMMANDS = {
    "DrawCards": DrawCards,
    "TurnUpCard": TurnUpCard,
    "RollForFirst": RollForFirst,
    "RollAttack": RollAttack,
    "TakeRandomCards": TakeRandomCards,
    "KeepCard": KeepCard,
    "KeepBoth": Empty,
    "RejectGroup": OneCard,
    "AddToBase": OneCard,
    "StackCard": StackCard,
    "DeclareAttack": DeclareAttack,
    "RaiseDefence": AddToFight,
    "CallAttack": Empty,
    "UpTheAnte": AddToFight,
    "Stand": Empty,
    "PlayEvent": PlayEvent,
    "PassWindow": Empty,
    "EndTurn": Empty,
}
