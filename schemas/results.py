"""Request and response shapes of result-only games and of history imports."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from schemas.api import ENGINE_IDS, Positioned

MAX_PLAYERS = 8


class ResultPlayer(Schema):
    player = fields.UUID(required=True)
    score = fields.Float(
        load_default=None, allow_none=True, metadata={"description": "Final score, if kept."}
    )
    place = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1, max=MAX_PLAYERS),
        metadata={"description": "Finishing place (1 = won; players who tie share it)."},
    )


class ResultCreate(Schema):
    """A game recorded by its result alone: give every player's score, place, or both."""

    engine = fields.String(required=True, validate=validate.OneOf(ENGINE_IDS))
    players = fields.List(
        fields.Nested(ResultPlayer),
        required=True,
        validate=validate.Length(min=1, max=MAX_PLAYERS),
        metadata={"description": "In seat order (the first listed is taken as the first player)."},
    )
    played_on = fields.Date(
        load_default=None, metadata={"description": "The day it was played (default: today)."}
    )
    minutes = fields.Integer(
        load_default=None, allow_none=True, strict=True, validate=validate.Range(min=0, max=10_000)
    )
    note = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=1000))
    league = fields.UUID(load_default=None, allow_none=True)
    ended_by = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=60),
        metadata={
            "description": "How it ended (e.g. `catastrophe`); default: the first ending the result fits."
        },
    )
    options = fields.Dict(load_default=dict)


class ResultRetract(Schema):
    reason = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=1000))


class ResultPlayerView(Schema):
    player = fields.UUID()
    name = fields.String(allow_none=True)
    score = fields.Float(allow_none=True)
    place = fields.Integer(allow_none=True)


class ResultsQuery(Schema):
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))
    after = fields.UUID(
        load_default=None,
        metadata={"description": "The last result-only game of the page before (its `Link` gives it)."},
    )


class ResultView(Schema):
    id = fields.UUID()
    engine = fields.String()
    options = fields.Dict(metadata={"description": "The game's options (defaults filled in)."})
    league = fields.UUID(allow_none=True)
    result_only = fields.Boolean(
        metadata={"description": "Always true: the game was recorded by its result alone."}
    )
    status = fields.String(metadata={"description": "`recorded`, or `retracted` (it counts nowhere)."})
    played_on = fields.Date()
    minutes = fields.Integer(allow_none=True)
    note = fields.String(allow_none=True)
    ended_by = fields.String(allow_none=True)
    players = fields.List(fields.Nested(ResultPlayerView))


class ResultWrite(ResultView, Positioned):
    """A result logged or retracted, with where in the log."""


class HistoryForm(Schema):
    """How to read an uploaded history file (multipart form fields beside `file`)."""

    format = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(["bgstats", "bgg", "csv"]),
        metadata={
            "description": "`bgstats` (JSON backup), `bgg` (plays XML) or `csv`; default: from the file's name."
        },
    )
    mapping = fields.String(
        load_default=None,
        allow_none=True,
        metadata={
            "description": 'A JSON object: game names in the file -> engine ids, e.g. `{"Kanzler": "chancellors"}`.'
        },
    )
    skip_unknown_games = fields.Boolean(
        load_default=False, metadata={"description": "Report and skip plays of games not recorded here."}
    )
    league = fields.UUID(
        load_default=None, allow_none=True, metadata={"description": "Put every play in this league."}
    )


class HistoryFile(Schema):
    file = fields.Raw(required=True, metadata={"type": "string", "format": "binary"})


class HistoryUpload(HistoryForm, HistoryFile):
    """An uploaded history file with how to read it (one multipart body)."""


class HistoryLine(Schema):
    where = fields.String(
        metadata={"description": "The line(s) or play the reason is about: `line 12`, `play 3`."}
    )
    reason = fields.String()
    rule = fields.String(metadata={"description": "For a refused result: the rule it breaks."})
    game = fields.String()


class HistoryReport(Positioned):
    imported = fields.Integer(metadata={"description": "Plays recorded as result-only games."})
    already_imported = fields.Integer(
        metadata={"description": "Plays found from an earlier import (nothing added)."}
    )
    skipped = fields.List(fields.Nested(HistoryLine))
    players_added = fields.List(fields.String())


class PlaysQuery(Schema):
    league = fields.UUID(
        load_default=None, allow_none=True, metadata={"description": "This league's games only."}
    )


class BgStatsQuery(PlaysQuery):
    player = fields.UUID(
        load_default=None, allow_none=True, metadata={"description": "This player's games only."}
    )


class ClubRestored(Positioned):
    id = fields.UUID()
    name = fields.String()
    admin_token = fields.String(metadata={"description": "The new club's admin token (shown once)."})
    games = fields.Integer(metadata={"description": "Games restored."})


class Job(Schema):
    """A history import or a club restore asked for with `Prefer: respond-async`."""

    id = fields.UUID()
    kind = fields.String(metadata={"description": "`history-import` or `club-restore`."})
    club = fields.UUID(allow_none=True, metadata={"description": "The club imported into (a restore: none)."})
    status = fields.String(metadata={"description": "`queued`, `running`, `done` or `failed`."})
    done = fields.Integer(metadata={"description": "Plays judged (an import) or lines replayed (a restore)."})
    total = fields.Integer(metadata={"description": "Plays or lines in all, once the job has read its file."})
    result = fields.Dict(
        allow_none=True,
        metadata={
            "description": "When `done`: the answer the request would have had (a `HistoryReport` or a"
            " `ClubRestored`, whose `admin_token` is in the first read only)."
        },
    )
    problem = fields.Dict(
        allow_none=True,
        metadata={
            "description": "When `failed`: the problem's `code`, `detail` and fields. Nothing was stored."
        },
    )
    created_at = fields.DateTime()
    finished_at = fields.DateTime(allow_none=True)
