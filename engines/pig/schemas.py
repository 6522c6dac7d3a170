"""Pig: the game options, the fields of each command (``type`` and ``seat``
excluded) and its state, which every viewer sees whole (Pig hides nothing)."""

from marshmallow import Schema, fields, validate

from engines.kit import shapes as v
from engines.kit.numbers import INT32_MAX, INT32_MIN


class PigOptions(Schema):
    target = fields.Integer(load_default=30, strict=True, validate=validate.Range(min=5, max=10_000))


class Empty(Schema):
    pass


class ResolveRoll(Schema):
    dice = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=INT32_MIN, max=INT32_MAX)),
        required=True,
        validate=validate.Length(equal=1),
    )


class PigState(Schema):
    seats = v.count()
    target = v.count()
    scores = fields.List(v.count(), required=True)
    turn = v.seat(description="The seat to act.")
    turn_total = v.count(description="Points of the turn so far, lost on a 1.")
    rolling = v.boolean(description="A roll was called for and waits for its die.")
    winner = v.seat(null=True)


OPTIONS = PigOptions
COMMANDS = {"Roll": Empty, "Hold": Empty, "ResolveRoll": ResolveRoll}
STATE = PigState
VIEWS = (PigState,)
