"""Request and response shapes of game nights."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from schemas.api import ENGINE_IDS, Positioned
from schemas.results import MAX_PLAYERS, ResultPlayer
from schemas.text import Name

#: As ``service.records.competitions.game_nights``.
ANSWERS = ("yes", "maybe", "no")
MOST_GAMES = 20
#: As ``service.records.competitions.seating.MOST_PLAYERS``.
MOST_PRESENT = 120


class NightCreate(Schema):
    day = fields.Date(required=True, metadata={"description": "Today or a day to come."})
    time = fields.String(
        required=True,
        validate=validate.Length(min=1, max=8),
        metadata={"description": "When it starts, as hours and minutes (`19:30`)."},
    )
    place = Name(required=True, metadata={"description": "Where the night is held."})
    games = fields.List(
        fields.String(validate=validate.OneOf(ENGINE_IDS)),
        required=True,
        validate=validate.Length(min=1, max=MOST_GAMES),
        metadata={"description": "The games on offer, each once."},
    )


class NightAnswer(Schema):
    """A member's own answer: the player is the sign-in's, never named here."""

    answer = fields.String(required=True, validate=validate.OneOf(ANSWERS))
    games = fields.List(
        fields.String(validate=validate.OneOf(ENGINE_IDS)),
        load_default=list,
        validate=validate.Length(max=MOST_GAMES),
        metadata={"description": "The games on offer they want to play (none when they say no)."},
    )


class NightGame(Schema):
    engine = fields.String()
    title = fields.String()
    min_seats = fields.Integer()
    max_seats = fields.Integer()


class NightPlayer(Schema):
    player = fields.UUID()
    name = fields.String(allow_none=True)


class NightAnswerView(Schema):
    player = fields.UUID()
    name = fields.String(allow_none=True)
    answer = fields.String(validate=validate.OneOf(ANSWERS))
    games = fields.List(fields.String())


class NightAnswered(Schema):
    yes = fields.Integer()
    maybe = fields.Integer()
    no = fields.Integer()


class NightTableView(NightGame):
    table = fields.Integer(metadata={"description": "Table 1, 2, ... in the order started."})
    game = fields.UUID()
    game_status = fields.String(validate=validate.OneOf(["none", "playing", "ended", "abandoned"]))
    players = fields.List(fields.Nested(NightPlayer), metadata={"description": "In seat order."})


class NightSummary(Schema):
    id = fields.UUID()
    day = fields.Date()
    time = fields.String()
    place = fields.String()
    games = fields.List(fields.Nested(NightGame), metadata={"description": "On offer."})
    past = fields.Boolean(metadata={"description": "The day has passed: answers are closed."})
    answered = fields.Nested(NightAnswered, metadata={"description": "How many answered each way."})
    played = fields.List(
        fields.String(), metadata={"description": "The games its tables started, by title, in order."}
    )
    version = fields.Integer(metadata={"description": "Events in the night's stream."})


class NightView(NightSummary):
    answers = fields.List(
        fields.Nested(NightAnswerView),
        metadata={"description": "Each member's latest answer, in the order first given."},
    )
    my_answer = fields.Nested(
        NightAnswerView,
        allow_none=True,
        metadata={"description": "A member sign-in's own answer (or none yet)."},
    )
    present = fields.List(
        fields.Nested(NightPlayer), metadata={"description": "Who came, as marked on the night."}
    )
    tables = fields.List(
        fields.Nested(NightTableView), metadata={"description": "The tables started, with the games played."}
    )


class NightWrite(NightView, Positioned):
    """The night after a game of one of its tables was started or logged, with where in the log."""


class NightPresent(Schema):
    players = fields.List(
        fields.UUID(),
        required=True,
        validate=validate.Length(max=MOST_PRESENT),
        metadata={"description": "Everyone who came (replaces the last list given)."},
    )


class NightTableCreate(Schema):
    engine = fields.String(required=True, validate=validate.OneOf(ENGINE_IDS))
    players = fields.List(
        fields.UUID(),
        required=True,
        validate=validate.Length(min=1, max=MAX_PLAYERS),
        metadata={"description": "The table's players in their seats, as proposed or changed."},
    )


class NightProposalQuery(Schema):
    mode = fields.String(
        load_default="balance",
        validate=validate.OneOf(["balance", "mix"]),
        metadata={
            "description": "`balance`: tables of even strength by rating; `mix`: newcomers spread over the tables."
        },
    )


class ProposedTable(Schema):
    engine = fields.String()
    players = fields.List(fields.Nested(NightPlayer))


class NightProposal(Schema):
    mode = fields.String()
    tables = fields.List(fields.Nested(ProposedTable))
    waiting = fields.List(
        fields.Nested(NightPlayer),
        metadata={"description": "Present, but no game they want could seat them."},
    )


class NightTableResult(Schema):
    """A table's game logged by its result: its players in their seats, each with a place, a score or both."""

    engine = fields.String(required=True, validate=validate.OneOf(ENGINE_IDS))
    players = fields.List(
        fields.Nested(ResultPlayer), required=True, validate=validate.Length(min=1, max=MAX_PLAYERS)
    )
    played_on = fields.Date(
        load_default=None, metadata={"description": "The day it was played (default: the night's)."}
    )
