"""Shapes of the projection endpoints: standings, rating history, replays,
statistics and projection freshness."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from engines.kit.numbers import INT32_MAX, INT64_MAX
from schemas.api import TABLE_QUERY, EngineState
from schemas.table import TableView

MIN_POSITION = fields.Integer(
    load_default=None,
    allow_none=True,
    validate=validate.Range(min=0, max=INT64_MAX),
    metadata={
        "description": "Answer only once the projection has applied the log up to this position (the `position` "
        "of your own write's last event); until then 503 `projection-behind` with Retry-After. A position "
        "past the end of the log is a 422 `position-not-reached`. Only the club's tokens (and the operator) "
        "see positions, so only they may wait for one: anyone else gets 403 `positions-are-the-clubs`."
    },
)


class FreshQuery(Schema):
    min_position = MIN_POSITION


class LeagueInfo(Schema):
    id = fields.UUID()
    name = fields.String()
    season = fields.String()
    engine = fields.String(allow_none=True)
    points_table = fields.List(fields.Float())
    min_games = fields.Integer()
    public = fields.Boolean()


class StandingRow(Schema):
    rank = fields.Integer(
        allow_none=True, metadata={"description": "Null while below the league's min_games."}
    )
    ranked = fields.Boolean()
    player = fields.UUID()
    name = fields.String(allow_none=True)
    games = fields.Integer()
    wins = fields.Integer(metadata={"description": "First places, shared ones included."})
    placements = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "place -> times"}
    )
    points = fields.Float(metadata={"description": "From the league's points table by place."})
    average_score = fields.Float(
        allow_none=True,
        metadata={"description": "Over the games with scores; null when no game of the player's has one."},
    )
    rating = fields.Integer(
        metadata={
            "description": "The rating the pages show: 1500 + 42 × (mu − 3 sigma), rounded (docs/ratings.md)."
        }
    )
    rating_uncertainty = fields.Integer(
        metadata={"description": "The ± the pages show beside it: 42 × sigma."}
    )
    rating_change = fields.Integer(
        allow_none=True,
        metadata={"description": "The rating's change in the player's last rated game; null before any."},
    )
    mu = fields.Float(metadata={"description": "openskill's skill estimate (Bradley-Terry, full pairing)."})
    sigma = fields.Float(metadata={"description": "openskill's uncertainty of mu."})


class Standings(Schema):
    league = fields.Nested(LeagueInfo)
    position = fields.Integer(metadata={"description": "The last log position the standings include."})
    tie_breaks = fields.List(fields.String(), metadata={"description": "Applied in this order after points."})
    standings = fields.List(fields.Nested(StandingRow))


class HistoryQuery(Schema):
    min_position = MIN_POSITION
    player = fields.UUID(
        load_default=None, allow_none=True, metadata={"description": "Only this player's games."}
    )


class RatingChange(Schema):
    player = fields.UUID()
    name = fields.String(allow_none=True)
    seat = fields.Integer()
    place = fields.Integer()
    mu_before = fields.Float()
    sigma_before = fields.Float()
    rating_before = fields.Integer(metadata={"description": "1500 + 42 × (mu − 3 sigma) before the game."})
    mu_after = fields.Float()
    sigma_after = fields.Float()
    rating_after = fields.Integer(metadata={"description": "The same after it."})
    change = fields.Integer(metadata={"description": "rating_after - rating_before"})


class RatedGame(Schema):
    seq = fields.Integer(metadata={"description": "The game's place in the league's rating order."})
    game = fields.UUID()
    ended_at = fields.DateTime(allow_none=True)
    played_on = fields.Date(
        metadata={"description": "The day the game was played: the rating order's first key."}
    )
    changes = fields.List(fields.Nested(RatingChange))


class RatingHistory(Schema):
    league = fields.UUID()
    position = fields.Integer()
    games = fields.List(fields.Nested(RatedGame))


class ReplayQuery(Schema):
    min_position = MIN_POSITION
    seat = fields.Integer(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=INT32_MAX),
        metadata={"description": "Seat's-eye replay: each step exactly as this seat saw it then."},
    )
    from_step = fields.Integer(load_default=1, validate=validate.Range(min=1, max=INT32_MAX))
    to_step = fields.Integer(
        load_default=None, allow_none=True, validate=validate.Range(min=1, max=INT32_MAX)
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
    view = TABLE_QUERY


class StepQuery(Schema):
    min_position = MIN_POSITION
    seat = ReplayQuery._declared_fields["seat"]
    view = TABLE_QUERY


class ExportQuery(StepQuery):
    format = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(["json", "ndjson"]),
        metadata={"description": "Or send `Accept: application/x-ndjson`."},
    )


class ReplayStep(Schema):
    step = fields.Integer(metadata={"description": "The event's version in the game's stream."})
    position = fields.Integer()
    type = fields.String()
    data = fields.Dict()
    description = fields.String()
    state = EngineState(
        metadata={
            "description": "The state after this step, as the viewer may see it: one of the shapes of the"
            " replay's engine (`game.engine`), as `GET /engines/{engine_id}` publishes them under `view`."
        }
    )
    recorded_at = fields.DateTime()
    retracted_by = fields.Integer(
        allow_none=True, metadata={"description": "The step that took this one back."}
    )
    table = fields.Nested(
        TableView,
        metadata={"description": "With `view=table`: the table after this step, as the viewer saw it."},
    )


class SeatInfo(Schema):
    seat = fields.Integer()
    player = fields.UUID()
    name = fields.String(allow_none=True)


class ReplayHeader(Schema):
    game = fields.UUID()
    engine = fields.String()
    seats = fields.List(fields.Nested(SeatInfo))
    dealer = fields.String()
    status = fields.String()
    viewer = fields.Raw(metadata={"description": 'A seat number, null (spectator) or "all".'})
    seed = fields.String(
        allow_none=True, metadata={"description": "Once the game has ended (server dealer)."}
    )
    step_count = fields.Integer(metadata={"description": "Steps the replay holds."})
    game_version = fields.Integer(
        metadata={"description": "The game's version now: steps < game_version while catching up."}
    )
    error = fields.String(
        allow_none=True, metadata={"description": "Why the replay stops early (an engine error)."}
    )


class ReplayExport(Schema):
    game = fields.Nested(ReplayHeader)
    steps = fields.List(fields.Nested(ReplayStep))


class Replay(ReplayExport):
    next_step = fields.Integer(
        allow_none=True, metadata={"description": "from_step of the next page, if any."}
    )


class ReplayStepView(Schema):
    game = fields.Nested(ReplayHeader)
    step = fields.Nested(ReplayStep)


class LeagueStatistics(Schema):
    league = fields.Nested(LeagueInfo)
    position = fields.Integer()
    statistics = fields.Dict(
        metadata={
            "description": "games, result_only_games (those of them logged by their result alone: in the "
            "players' figures and the scores, not in the figures of play: average_length, win_rate_by_seat, "
            "first_player, ended_by, engine), average_length (events, turns, minutes), win_rate_by_seat, "
            "first_player, scores (all and winners: count, min, p25, median, p75, max, mean; a result logged "
            "without scores has none), ended_by, engine (the game's own figures merged, when the league's games are all of one game; empty in a "
            "league of several, whose figures do not mix), by_engine (the same per game), players (win rate, average place, streaks, "
            "H-index, luck: average percentile of the chance that fell to them, 0.5 expected), head_to_head, "
            "longest_winning_streaks."
        }
    )


class ProjectionsQuery(Schema):
    min_position = MIN_POSITION
    projection = fields.String(
        load_default=None, allow_none=True, metadata={"description": "Only this projection."}
    )


class ProjectionState(Schema):
    name = fields.String()
    position = fields.Integer(metadata={"description": "The last global log position applied."})
    behind = fields.Integer(metadata={"description": "Events after its position, up to the head."})
    updated_at = fields.DateTime()
    errors = fields.Integer(metadata={"description": "Games this projection skips after an engine error."})


class SetAsideTask(Schema):
    task_id = fields.String()
    task_name = fields.String()
    args = fields.Dict()
    deliveries = fields.Integer()
    set_aside_at = fields.DateTime()
    reason = fields.String()


class Freshness(Schema):
    head = fields.Integer(metadata={"description": "The log's last position."})
    projections = fields.List(fields.Nested(ProjectionState))
    set_aside_tasks = fields.List(fields.Nested(SetAsideTask))
