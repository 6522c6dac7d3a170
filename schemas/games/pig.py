from marshmallow import Schema, fields, validate

from schemas.numbers import INT32_MAX, INT32_MIN


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


OPTIONS = PigOptions
COMMANDS = {"Roll": Empty, "Hold": Empty, "ResolveRoll": ResolveRoll}
