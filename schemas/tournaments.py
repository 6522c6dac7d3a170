"""Request and response shapes of tournaments seated at tables."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from schemas.api import ENGINE_IDS, Positioned
from schemas.results import MAX_PLAYERS, ResultPlayer
from schemas.text import Name

#: As ``service.records.competitions.tournaments.MOST_ROUNDS``.
MOST_ROUNDS = 20


class TournamentCreate(Schema):
    name = Name(required=True)
    engine = fields.String(required=True, validate=validate.OneOf(ENGINE_IDS))
    league = fields.UUID(
        load_default=None,
        allow_none=True,
        metadata={"description": "The league its games count in (or none)."},
    )
    rounds = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MOST_ROUNDS))
    final_table = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=2, max=MAX_PLAYERS),
        metadata={
            "description": "After the rounds, the top N of the standings play one last game (none: no final)."
        },
    )


class TournamentPlayer(Schema):
    player = fields.UUID(required=True)


class TournamentSwap(Schema):
    players = fields.List(
        fields.UUID(),
        required=True,
        validate=validate.Length(equal=2),
        metadata={"description": "The two players of the round being played who change places."},
    )


class TableGameCreate(Schema):
    options = fields.Dict(
        load_default=dict, metadata={"description": "The game's options (defaults if none)."}
    )


class TableResultCreate(Schema):
    """A table's game logged by its result: every player of the table, with a score, a place or both."""

    players = fields.List(
        fields.Nested(ResultPlayer), required=True, validate=validate.Length(min=1, max=MAX_PLAYERS)
    )
    played_on = fields.Date(
        load_default=None, metadata={"description": "The day it was played (default: today)."}
    )


class TournamentSeat(Schema):
    player = fields.UUID()
    name = fields.String(allow_none=True)
    place = fields.Integer(allow_none=True, metadata={"description": "Once the table's game has ended."})
    points = fields.Float(allow_none=True, metadata={"description": "Tournament points this game gave."})


class TournamentTable(Schema):
    table = fields.Integer(metadata={"description": "Table 1, 2, ... of the round."})
    game = fields.UUID(allow_none=True, metadata={"description": "The table's game, once started or logged."})
    game_status = fields.String(validate=validate.OneOf(["none", "playing", "ended", "abandoned"]))
    players = fields.List(fields.Nested(TournamentSeat), metadata={"description": "In seat order."})


class TournamentPlayerName(Schema):
    player = fields.UUID()
    name = fields.String(allow_none=True)


class TournamentEntry(TournamentPlayerName):
    present = fields.Boolean(metadata={"description": "False once withdrawn."})


class TournamentRound(Schema):
    round = fields.Integer()
    final = fields.Boolean(metadata={"description": "The final table."})
    closed = fields.Boolean(metadata={"description": "Every table's game has ended."})
    tables = fields.List(fields.Nested(TournamentTable))
    sitting_out = fields.List(fields.Nested(TournamentPlayerName))


class TournamentStanding(Schema):
    rank = fields.Integer(metadata={"description": "Players still tied after both tie-breaks share a rank."})
    player = fields.UUID()
    name = fields.String(allow_none=True)
    points = fields.Float()
    points_exact = fields.String(metadata={"description": "The points as an exact fraction (`7/3`)."})
    opponents_points = fields.Float(metadata={"description": "First tie-break: the points of everyone met."})
    opponents_points_exact = fields.String()
    games = fields.Integer()
    present = fields.Boolean()


class TournamentSummary(Schema):
    id = fields.UUID()
    name = fields.String()
    engine = fields.String()
    league = fields.UUID(allow_none=True)
    rounds = fields.Integer()
    final_table = fields.Integer(allow_none=True)
    status = fields.String(validate=validate.OneOf(["entering", "playing", "between-rounds", "finished"]))
    rounds_seated = fields.Integer()
    version = fields.Integer(metadata={"description": "Events in the tournament's stream."})


class TournamentView(TournamentSummary):
    players = fields.List(fields.Nested(TournamentEntry), metadata={"description": "In the order entered."})
    played = fields.List(
        fields.Nested(TournamentRound), metadata={"description": "Every round seated, in order."}
    )
    standings = fields.List(
        fields.Nested(TournamentStanding),
        metadata={"description": "After the rounds' ended games (the final table apart)."},
    )
    ranking = fields.List(
        fields.Nested(TournamentPlayerName),
        allow_none=True,
        metadata={"description": "Once finished: the final table by its places, then the standings."},
    )


class TournamentWrite(TournamentView, Positioned):
    """The tournament after a game of one of its tables was started or logged, with where in the log."""
