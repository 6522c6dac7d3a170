"""Whole-game documents: what ``GET /games/{id}/export`` answers and
``POST /clubs/{club}/games/import`` takes (an export imports as it is)."""

from __future__ import annotations

import datetime as dt

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from schemas.api import MAX_SEAT, CatalogRef, EngineCommand, Outcome
from schemas.text import Name, Reason

FORMAT = "tablerecord.game/1"


class DocumentSeat(Schema):
    seat = fields.Integer(
        strict=True, validate=validate.Range(min=0, max=MAX_SEAT), metadata={"description": "Its number."}
    )
    player = fields.UUID(
        load_default=None,
        allow_none=True,
        metadata={"description": "Import: a player of the club; otherwise `name` picks or adds one."},
    )
    name = Name(load_default=None, allow_none=True)


class DocumentCatalog(CatalogRef):
    """A catalog as an export names it: a game imported into a club uses that
    club's catalog of this id and version, or the shipped one."""

    kind = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=60),
        metadata={"description": "Its kind."},
    )
    club = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=60),
        metadata={"description": "The club that owned it where it was exported (null: shipped); not read."},
    )


class DocumentCommand(Schema):
    seat = fields.Integer(
        required=True,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEAT),
        metadata={"description": "The acting seat; null for chance (dice and draws)."},
    )
    command = EngineCommand(required=True, metadata={"description": "One of the game's commands."})

    @validates_schema
    def _command_has_type(self, data, **kwargs):
        if not isinstance(data.get("command", {}).get("type"), str):
            raise ValidationError({"command": {"type": ["Missing command type."]}})


class GameDocument(Schema):
    """A whole game: its setup and every command in force, in order (retractions
    applied; chance included as the commands that brought it)."""

    format = fields.String(load_default=FORMAT, validate=validate.OneOf([FORMAT]))
    engine = fields.String(
        required=True, validate=validate.Length(max=60), metadata={"description": "An id from GET /engines."}
    )
    engine_version = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=60),
        metadata={"description": "The rules' version it was played by."},
    )
    catalog = fields.Nested(DocumentCatalog, load_default=None, allow_none=True)
    seats = fields.List(fields.Nested(DocumentSeat), required=True, validate=validate.Length(min=1, max=12))
    options = fields.Dict(load_default=dict)
    dealer = fields.String(load_default="table", validate=validate.OneOf(["server", "table"]))
    public = fields.Boolean(load_default=False)
    admin_spectator = fields.Boolean(
        load_default=False,
        metadata={
            "description": "The admin token sees only public information in this game (see GameCreate)."
        },
    )
    seed = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=200),
        metadata={"description": "A server-dealt game's seed, once it has ended."},
    )
    commands = fields.List(fields.Nested(DocumentCommand), load_default=list)
    status = fields.String(
        load_default=None, allow_none=True, validate=validate.OneOf(["active", "finished", "abandoned"])
    )
    abandon_reason = Reason()
    played_at = fields.AwareDateTime(
        default_timezone=dt.UTC,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "When a finished game was played (an export: the moment it ended). An import keeps it"
            " as the game's day in lists and its place in the league's rating order; a game it leaves live"
            " is played from the import on."
        },
    )
    outcome = fields.Nested(
        Outcome,
        load_default=None,
        allow_none=True,
        metadata={"description": "Import: when given, the commands must lead to it."},
    )


class GameImport(GameDocument):
    league = fields.UUID(load_default=None, allow_none=True)
