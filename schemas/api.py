"""Request and response shapes of the REST API.

Requests refuse unknown fields (marshmallow's default), so a typo is a 422
naming the field instead of a silently ignored value.
"""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from engines import registry
from engines.kit.numbers import INT32_MAX, INT64_MAX
from schemas.table import TableView
from schemas.text import SEASON_MAX, Name, Reason

ENGINE_IDS = registry.available()
CATALOG_KINDS = sorted({k for e in ENGINE_IDS if (k := registry.get(e).catalog_kind)})
MAX_SEAT = max(registry.get(e).max_seats for e in ENGINE_IDS) - 1
#: How a game ends: every game's ``Termination``, the words of its ``GameDecided`` and ``GameEnded`` events.
ENDINGS = sorted({t.value for game in registry.games() for t in game.terminations})


class Problem(Schema):
    """RFC 9457 problem details. The members below are the ones the service
    sends; a client should keep any other member it does not know."""

    class Meta:
        unknown = INCLUDE

    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    code = fields.String(
        metadata={"description": "Stable machine-readable error code (for rule violations: the rule)."}
    )
    detail = fields.String()
    errors = fields.Raw(
        metadata={"description": "Field errors, for requests of the wrong shape (field -> messages)."}
    )
    current_version = fields.Integer(
        metadata={"description": "For version conflicts: the game's version now."}
    )
    rule = fields.String(metadata={"description": "For rule violations: the rule broken (as `code`)."})
    details = fields.Dict(metadata={"description": "For rule violations: what the rule looked at."})
    players = fields.List(
        fields.String(), metadata={"description": "`unknown-player`: the seats' ids that are not the club's."}
    )
    projection = fields.String(metadata={"description": "`projection-behind`: the projection waited for."})
    position = fields.Integer(metadata={"description": "`projection-behind`: the position it has applied."})
    min_position = fields.Integer(metadata={"description": "`projection-behind`: the position asked for."})
    retry_after = fields.Integer(metadata={"description": "`projection-behind`: seconds to wait."})
    head = fields.Integer(
        metadata={"description": "`position-not-reached`: the last position of the log now."}
    )
    index = fields.Integer(
        metadata={"description": "`command-refused` (import): the index of the first refused command."}
    )


class ClubCreate(Schema):
    name = Name(required=True)


class Club(Schema):
    id = fields.UUID()
    name = fields.String()
    created_at = fields.DateTime()


class ClubCreated(Club):
    admin_token = fields.String(
        metadata={"description": "Shown once; store it. It manages the club and records its games."}
    )


class PlayerCreate(Schema):
    name = Name(required=True)


class Player(Schema):
    id = fields.UUID()
    name = fields.String()
    created_at = fields.DateTime()
    retired = fields.Boolean(
        metadata={"description": "A retired player keeps every past game but takes no seat in new ones."}
    )


class PlayerUpdate(Schema):
    name = fields.String(validate=validate.Length(min=1, max=120))
    retired = fields.Boolean(metadata={"description": "true retires the player; false brings them back."})


class PlayerMerge(Schema):
    into = fields.UUID(
        required=True,
        metadata={
            "description": "The player kept: every game, figure and sign-in of the merged-in player follows them."
        },
    )


class PlayerMerged(Schema):
    merged = fields.UUID(
        metadata={"description": "The player merged in (no longer listed among the players)."}
    )
    kept = fields.UUID(metadata={"description": "The player kept."})
    version = fields.Integer(
        metadata={"description": "The club's merge event this write appended (1, 2, 3 …)."}
    )
    merged_at = fields.DateTime()
    unmerged_at = fields.DateTime()


class AdminToken(Schema):
    admin_token = fields.String(
        metadata={"description": "The club's new admin token, shown once; the previous one no longer works."}
    )


#: The scopes an app token may hold (``service.records.access.SCOPES``, which the domain checks).
APP_SCOPES = ("read", "results", "games", "players")


class AppCreate(Schema):
    name = Name(required=True)
    scopes = fields.List(
        fields.String(validate=validate.OneOf(APP_SCOPES)),
        required=True,
        validate=validate.Length(min=1, max=len(APP_SCOPES)),
        metadata={
            "description": "What the app may do: `read` (the club, its leagues, its games as a spectator,"
            " the feed), `results` (log and retract results, import history), `games` (create, import and"
            " record games as the recorder), `players` (add, rename and retire players; create and edit"
            " leagues)."
        },
    )


class App(Schema):
    id = fields.UUID()
    name = fields.String()
    scopes = fields.List(fields.String(validate=validate.OneOf(APP_SCOPES)))
    created_at = fields.DateTime()
    last_used_at = fields.DateTime(
        allow_none=True,
        metadata={"description": "When its token was last used, to the minute (null: never)."},
    )


class AppCreated(App):
    token = fields.String(
        metadata={"description": "The app's bearer token, shown once: only its hash is kept."}
    )


class MemberSignIn(Schema):
    player = fields.UUID()
    name = fields.String()
    token = fields.String(
        metadata={
            "description": "The member's sign-in token, shown once (it replaces any the player had). It sees"
            " the club and acts for the player's own seat in every game of the club."
        }
    )
    link = fields.String(
        metadata={"description": "The web sign-in link to send the member (the token is in its fragment)."}
    )


class LeagueCreate(Schema):
    name = Name(required=True)
    engine = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(ENGINE_IDS))
    season = Name(load_default="", max_length=SEASON_MAX, blank=True)
    points_table = fields.List(
        fields.Float(),
        load_default=None,
        allow_none=True,
        metadata={"description": "Points for 1st, 2nd, ... place (default 10, 6, 3, 1, 0...)."},
    )
    min_games = fields.Integer(load_default=3, strict=True, validate=validate.Range(min=0, max=1000))
    public = fields.Boolean(load_default=False)


class League(Schema):
    id = fields.UUID()
    name = fields.String()
    engine = fields.String(allow_none=True)
    season = fields.String()
    points_table = fields.List(fields.Float())
    min_games = fields.Integer()
    public = fields.Boolean()
    created_at = fields.DateTime()
    closed = fields.Boolean(
        metadata={"description": "A closed season takes no new games; its standings stay."}
    )


class LeagueUpdate(Schema):
    name = fields.String(validate=validate.Length(min=1, max=120))
    season = fields.String(validate=validate.Length(max=60))
    points_table = fields.List(
        fields.Float(),
        allow_none=True,
        metadata={"description": "Points by place; changes only before the league's first game."},
    )
    min_games = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=1000),
        metadata={"description": "Games to be ranked; changes only before the league's first game."},
    )
    public = fields.Boolean()
    closed = fields.Boolean(metadata={"description": "true closes the season; false reopens it."})


class CatalogRef(Schema):
    id = fields.String(required=True, validate=validate.Length(min=1, max=120))
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=INT32_MAX))


class CatalogCreate(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(CATALOG_KINDS))
    content = fields.Dict(
        required=True, metadata={"description": "The catalog, validated by its kind's schema."}
    )


class Catalog(Schema):
    kind = fields.String()
    id = fields.String()
    version = fields.Integer()


class CatalogSummary(Catalog):
    shipped = fields.Boolean(
        metadata={"description": "True for a catalog shipped with the service (usable by every club)."}
    )


class CatalogContent(CatalogSummary):
    reconstruction = fields.Boolean(
        metadata={"description": "True when the project reconstructed cards the rulebook does not print."}
    )
    note = fields.String(allow_none=True, metadata={"description": "Where the catalog's content comes from."})
    content = fields.Dict(metadata={"description": "The catalog itself, as its kind's schema describes it."})


class GameCreate(Schema):
    """The shape every engine's game shares; the OpenAPI document publishes one
    variant per engine (``PigGameCreate``, ...) with its own options."""

    engine = fields.String(
        required=True, validate=validate.Length(max=60), metadata={"description": "An id from GET /engines."}
    )
    seats = fields.List(
        fields.UUID(),
        required=True,
        validate=validate.Length(min=1, max=12),
        metadata={"description": "Player ids in seat order; seat 0 first."},
    )
    options = fields.Dict(load_default=dict)
    dealer = fields.String(load_default="server", validate=validate.OneOf(["server", "table"]))
    admin_spectator = fields.Boolean(
        load_default=False,
        metadata={
            "description": "The club's admin token sees only public information in this game, for clubs "
            "whose admin also plays: in a server-dealt game it is a spectator (it sees no hand and acts for "
            "no seat until the game ends); at a table it enters the public chance (dice, cards face up) "
            "and each player enters their own cards and entries with their seat token."
        },
    )
    league = fields.UUID(load_default=None, allow_none=True)
    public = fields.Boolean(load_default=False)
    catalog = fields.Nested(CatalogRef, load_default=None, allow_none=True)


class Outcome(Schema):
    finished = fields.Boolean()
    places = fields.List(fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_SEAT + 1)))
    scores = fields.List(fields.Float())
    ended_by = fields.String(
        validate=validate.OneOf(["", *ENDINGS]),
        metadata={"description": "How the game ended (the engine's termination); empty while it is on."},
    )


class Positioned(Schema):
    """The answer of a write that appends to the log: where, as its ``Log-Position`` header says."""

    log_position = fields.Integer(
        dump_only=True,
        metadata={
            "description": "The log position of this write's last event, as in its `Log-Position` header: a"
            " read given it as `min_position` answers only once its projection has reached it. Absent when"
            " the write appended nothing."
        },
    )


class GameSummary(Schema):
    id = fields.UUID()
    engine = fields.String()
    seats = fields.List(fields.Dict())
    options = fields.Dict()
    dealer = fields.String()
    admin_spectator = fields.Boolean()
    league = fields.UUID(allow_none=True)
    public = fields.Boolean()
    catalog = fields.Dict(allow_none=True)
    status = fields.String()
    version = fields.Integer()


class SeatToken(Schema):
    seat = fields.Integer()
    player = fields.UUID()
    token = fields.String()


class SeatTokens(Schema):
    game = fields.UUID()
    seat_tokens = fields.List(
        fields.Nested(SeatToken),
        metadata={"description": "Shown once, one per seat; the old ones no longer work."},
    )


class GameCreated(GameSummary, Positioned):
    seat_tokens = fields.List(fields.Nested(SeatToken), metadata={"description": "Shown once, one per seat."})


class EngineState(fields.Dict):
    """What a game view shows of the engine's state. The OpenAPI document
    lists each engine's shapes (``PigGameState``, ...); with ``engine_id``,
    only that engine's."""

    def __init__(self, *, engine_id: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.engine_id = engine_id


VIEW_STATE = {
    "description": "The state as the viewer may see it: a seat's or a spectator's view, or the whole state for"
    ' "all".'
}


class GameView(GameSummary):
    """The shape every engine's game view shares; the OpenAPI document
    publishes one variant per engine (``PigGameView``, ...) with its state typed."""

    viewer = fields.Raw(metadata={"description": 'The seat this view is for, null (spectator) or "all".'})
    state = EngineState(metadata=VIEW_STATE)
    outcome = fields.Nested(Outcome)
    result_only = fields.Boolean(
        metadata={"description": "Recorded by its result alone: no actions, no replay."}
    )
    waiting_for_chance = fields.Dict(allow_none=True)
    seed = fields.String(allow_none=True, metadata={"description": "Revealed once the game has ended."})
    table = fields.Nested(
        TableView, metadata={"description": "With `view=table`: what a person sees on the table, in words."}
    )


TABLE_QUERY = fields.String(
    load_default=None,
    validate=validate.OneOf(["table"]),
    metadata={"description": "`table`: add the table view model (`table`), the same for every game."},
)


class ViewQuery(Schema):
    seat = fields.Integer(
        load_default=None,
        validate=validate.Range(min=0, max=MAX_SEAT),
        metadata={"description": "Recorder only: see as this seat."},
    )
    view = TABLE_QUERY


class EngineCommand(fields.Dict):
    """A command of the game's engine: ``{"type": CommandName, ...fields}``.
    The OpenAPI document lists each engine's commands (``PigCommand``, ...);
    with ``engine_id``, only that engine's."""

    def __init__(self, *, engine_id: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.engine_id = engine_id


class LegalAction(Schema):
    seat = fields.Integer(allow_none=True, metadata={"description": "The acting seat; null for the dealer."})
    command = EngineCommand(metadata={"description": "One of the game's commands."})


class LegalAmount(Schema):
    command = fields.Dict(metadata={"description": "The command without its number field (seat excluded)."})
    field = fields.String(metadata={"description": "The command's field that takes the number."})
    low = fields.Integer(metadata={"description": "The lowest number the game takes now."})
    high = fields.Integer(allow_none=True, metadata={"description": "The highest (null: no bound)."})
    step = fields.Integer(metadata={"description": "The number goes in steps of this from `low`."})
    words = fields.String(metadata={"description": "The question a page asks for it, in the game's words."})


class LegalActions(Schema):
    version = fields.Integer()
    seats = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Nested(LegalAction)),
        metadata={
            "description": 'Seat number (or "dealer" for a table game\'s dice and draws) -> the actions it may'
            " post now, each a ready body for POST /games/{game}/actions: {seat, command}."
        },
    )
    amounts = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Nested(LegalAmount)),
        metadata={
            "description": "Seat number -> the numbers its commands may carry beyond those listed in `seats`"
            " (a bid of any sum, any count bought): post `command` with `field` set to a number from `low`"
            " to `high` in steps of `step`. A seat whose game lists every number it takes is absent."
        },
    )


class ActionRequest(Schema):
    seat = fields.Integer(
        required=True,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEAT),
        metadata={"description": "The acting seat; null for the dealer (table games' dice and draws)."},
    )
    command = EngineCommand(
        required=True, metadata={"description": "One of the game's commands, discriminated by `type`."}
    )
    expected_version = fields.Integer(
        load_default=None, allow_none=True, strict=True, validate=validate.Range(min=0, max=INT32_MAX)
    )

    @validates_schema
    def _command_has_type(self, data, **kwargs):
        if not isinstance(data.get("command", {}).get("type"), str):
            raise ValidationError({"command": {"type": ["Missing command type."]}})


class Event(Schema):
    position = fields.Integer()
    version = fields.Integer()
    type = fields.String()
    data = fields.Dict()
    recorded_at = fields.String()


class ActionResult(Positioned):
    game = fields.UUID()
    version = fields.Integer()
    status = fields.String()
    events = fields.List(fields.Nested(Event))


class GamesQuery(Schema):
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))
    after = fields.UUID(
        load_default=None, metadata={"description": "The last game of the page before (its `Link` gives it)."}
    )


class EventsQuery(Schema):
    after_version = fields.Integer(load_default=0, validate=validate.Range(min=0, max=INT32_MAX))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class EventPage(Schema):
    events = fields.List(fields.Nested(Event))
    next_after_version = fields.Integer(allow_none=True)
    version = fields.Integer()


class FeedQuery(Schema):
    after_position = fields.Integer(load_default=0, validate=validate.Range(min=0, max=INT64_MAX))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class FeedEvent(Event):
    game = fields.UUID()


class FeedPage(Schema):
    events = fields.List(fields.Nested(FeedEvent))
    next_after_position = fields.Integer(
        metadata={"description": "Pass it as after_position for the next page (the last position read)."}
    )


class Retract(Schema):
    to_version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=INT32_MAX))
    reason = Reason()


class Abandon(Schema):
    reason = Reason()


class EngineInfo(Schema):
    id = fields.String()
    title = fields.String()
    version = fields.String()
    min_seats = fields.Integer()
    max_seats = fields.Integer()
    catalog_kind = fields.String(allow_none=True)
    options = fields.Dict(metadata={"description": "JSON Schema of the options."})
    commands = fields.Dict(metadata={"description": "Command type -> JSON Schema of its fields."})
    view = fields.Dict(
        metadata={
            "description": "JSON Schema of the game view's `state` for this engine: one of its views or the"
            " whole state."
        }
    )
