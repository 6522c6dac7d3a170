"""MacCreedy's Mansion: game options and command fields (``type`` and ``seat`` excluded)."""

from marshmallow import Schema, fields, validate

WORKERS = ["carpenter", "mason", "electrician", "plumber", "gasman"]
RESOURCES = ["stone", "lumber", "wiring", "pipes"]
Money = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=10**9))


class MacCreedysMansionOptions(Schema):
    first_player = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=4))
    # A house rule: the rulebook sets no limit on the number of rounds.
    max_rounds = fields.Integer(load_default=20, strict=True, validate=validate.Range(min=1, max=200))
    covered_rooms = fields.List(fields.String(), load_default=list, validate=validate.Length(max=40))


class Empty(Schema):
    pass


class DrawCard(Schema):
    deck = fields.String(required=True, validate=validate.OneOf(["job", "event", "haunt"]))
    cards = fields.List(fields.String(), required=True, validate=validate.Length(equal=1))


class HireWorker(Schema):
    worker = fields.String(required=True, validate=validate.OneOf(WORKERS))


class BuyResources(Schema):
    resource = fields.String(required=True, validate=validate.OneOf(RESOURCES))
    count = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=1000))


class PlaceWorker(Schema):
    worker = fields.String(required=True, validate=validate.OneOf(WORKERS))
    space = fields.String(required=True, validate=validate.Length(min=1, max=64))


class DedicateResource(Schema):
    space = fields.String(required=True, validate=validate.Length(min=1, max=64))


class Haunt(Schema):
    target = fields.String(
        required=True, validate=validate.OneOf(["worker", "room", "location", "inspector"])
    )
    worker = fields.String(validate=validate.OneOf(WORKERS))
    room = fields.String(validate=validate.Length(min=1, max=64))
    location = fields.String(validate=validate.Length(min=1, max=64))


class Invest(Schema):
    amount = Money


class PayDebt(Schema):
    item = fields.String(required=True, validate=validate.OneOf(WORKERS + RESOURCES))


class PlaceBid(Schema):
    amount = Money


OPTIONS = MacCreedysMansionOptions
COMMANDS = {
    "DrawCard": DrawCard,
    "HireWorker": HireWorker,
    "BuyResources": BuyResources,
    "PassHiring": Empty,
    "PlaceWorker": PlaceWorker,
    "DedicateResource": DedicateResource,
    "FinishDay": Empty,
    "Haunt": Haunt,
    "PassHaunt": Empty,
    "CollectDividends": Empty,
    "LiquidateInvestment": Empty,
    "Invest": Invest,
    "PassInvestments": Empty,
    "PayDebt": PayDebt,
    "FinishSettling": Empty,
    "Reopen": Empty,
    "StayClosed": Empty,
    "PlaceBid": PlaceBid,
    "PassBid": Empty,
}


class Todomaccreedys_mansion(Schema):
    pass


STATE = Todomaccreedys_mansion
VIEWS = (Todomaccreedys_mansion,)
