"""Final Decrees: the game options and the fields of each command (``type`` and ``seat`` excluded)."""

from marshmallow import Schema, fields, validate

from engines.final_decrees.departments import ALL_DEPARTMENTS
from schemas.numbers import INT32_MAX

CardId = fields.String


class FinalDecreesOptions(Schema):
    # FD-42: "Altering the number of cards discarded can easily control the length of the game."
    decline_discards = fields.Integer(strict=True, load_default=5, validate=validate.Range(min=1, max=20))


class Empty(Schema):
    pass


class PlaceBid(Schema):
    amount = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=6))


class Posts(Schema):
    posts = fields.List(fields.String(validate=validate.OneOf(ALL_DEPARTMENTS)), required=True)


class PlayCard(Schema):
    card = CardId(required=True)
    target_seat = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=0, max=INT32_MAX)
    )
    target_department = fields.String(
        load_default=None, allow_none=True, validate=validate.OneOf(ALL_DEPARTMENTS)
    )


# "from" is a Python keyword, so this shape is built from a dict to keep the JSON name.
Move = Schema.from_dict(
    {
        "from": fields.String(required=True, validate=validate.OneOf(ALL_DEPARTMENTS)),
        "to": fields.String(required=True, validate=validate.OneOf(ALL_DEPARTMENTS)),
        "amount": fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=10_000)),
    },
    name="Move",
)


class SpreadBlame(Schema):
    moves = fields.List(fields.Nested(Move), required=True, validate=validate.Length(min=1, max=30))


class ForwardDecree(Schema):
    decree = fields.String(required=True)
    to = fields.String(required=True, validate=validate.OneOf(ALL_DEPARTMENTS))


class MovePlayer(Schema):
    player = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=INT32_MAX))


class StampDecree(Schema):
    decree = fields.String(required=True)


class Investigate(Schema):
    department = fields.String(required=True, validate=validate.OneOf(ALL_DEPARTMENTS))


class Restructure(Schema):
    change = fields.String(required=True, validate=validate.OneOf(["add", "remove", "reverse", "move"]))
    arrow = fields.List(fields.String(validate=validate.OneOf(ALL_DEPARTMENTS)), required=True)
    to = fields.List(fields.String(validate=validate.OneOf(ALL_DEPARTMENTS)))


class RemoveBlame(Schema):
    players = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=INT32_MAX)), load_default=list
    )
    departments = fields.Dict(
        keys=fields.String(validate=validate.OneOf(ALL_DEPARTMENTS)),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=INT32_MAX)),
        load_default=dict,
    )


class OfferTrade(Schema):
    to = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=INT32_MAX))
    give_amount = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=1000))
    give_cards = fields.List(CardId(), load_default=list, validate=validate.Length(max=60))
    ask_amount = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=1000))
    ask_cards = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=60))


class AcceptTrade(Schema):
    offer = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=INT32_MAX))
    cards = fields.List(CardId(), load_default=list, validate=validate.Length(max=60))


class AnswerTrade(Schema):
    offer = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=INT32_MAX))


class Cards(Schema):
    cards = fields.List(CardId(), required=True, validate=validate.Length(min=1, max=60))


class DrawCard(Schema):
    player = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=INT32_MAX))
    cards = fields.List(CardId(), required=True, validate=validate.Length(equal=1))


OPTIONS = FinalDecreesOptions
COMMANDS = {
    "PlaceBid": PlaceBid,
    "AssignDepartments": Posts,
    "TakeDrawAction": Empty,
    "PlayCard": PlayCard,
    "SpreadBlame": SpreadBlame,
    "ForwardDecree": ForwardDecree,
    "MovePlayer": MovePlayer,
    "StampDecree": StampDecree,
    "GainActions": Empty,
    "Investigate": Investigate,
    "GoOnManeuvers": Empty,
    "ReassignPlayers": Posts,
    "Restructure": Restructure,
    "EndTurn": Empty,
    "RemoveBlame": RemoveBlame,
    "OfferTrade": OfferTrade,
    "AcceptTrade": AcceptTrade,
    "DeclineTrade": AnswerTrade,
    "WithdrawTrade": AnswerTrade,
    "DealHands": Cards,
    "DrawCard": DrawCard,
    "DiscardFromDeck": Cards,
}


class Todofinal_decrees(Schema):
    pass


STATE = Todofinal_decrees
VIEWS = (Todofinal_decrees,)
