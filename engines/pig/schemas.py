"""Pig: the game options, the fields of each command (``type`` and ``seat``
excluded) and its state, which every viewer sees whole (Pig hides nothing)."""

from marshmallow import Schema, fields, validate

from engines.kit.numbers import INT32_MAX, INT32_MIN
from engines.kit.state_schema import state_schema
from engines.pig import state


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


PigState = state_schema(state.PigState)  # derived: the state is written once, in ``state.py``


OPTIONS = PigOptions
COMMANDS = {"Roll": Empty, "Hold": Empty, "ResolveRoll": ResolveRoll}
STATE = PigState
VIEWS = (PigState,)
