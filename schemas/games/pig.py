from marshmallow import Schema, fields, validate


class PigOptions(Schema):
    target = fields.Integer(load_default=30, validate=validate.Range(min=5, max=10_000))


class Empty(Schema):
    pass


class ResolveRoll(Schema):
    dice = fields.List(fields.Integer(), required=True, validate=validate.Length(equal=1))


OPTIONS = PigOptions
COMMANDS = {"Roll": Empty, "Hold": Empty, "ResolveRoll": ResolveRoll}
