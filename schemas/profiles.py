"""Shapes of a player's profile and of the club's game search."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from engines.kit.numbers import INT32_MAX

PAGE = fields.Integer(load_default=1, validate=validate.Range(min=1, max=INT32_MAX))


class WinRate(Schema):
    games = fields.Integer()
    wins = fields.Integer(metadata={"description": "First places, shared ones included."})
    win_rate = fields.Float()


class GameWinRate(WinRate):
    engine = fields.String()
    title = fields.String(metadata={"description": "The game's name."})


class SeatWinRate(WinRate):
    seat = fields.Integer(metadata={"description": "1 is the first seat to play."})


class Streaks(Schema):
    longest_winning = fields.Integer()
    current_winning = fields.Integer(metadata={"description": "Wins in a row up to the latest game."})


class HeadToHead(Schema):
    player = fields.UUID(metadata={"description": "The opponent."})
    name = fields.String(allow_none=True)
    games = fields.Integer(metadata={"description": "Finished games played together."})
    ahead = fields.Integer(
        metadata={"description": "Games the profile's player finished above the opponent."}
    )
    behind = fields.Integer()
    level = fields.Integer(metadata={"description": "Games both finished in the same place."})


class ProfileRatedGame(Schema):
    game = fields.Integer(metadata={"description": "The game's number in the league's rating order."})
    ended_at = fields.DateTime(allow_none=True)
    played_on = fields.Date(
        allow_none=True,
        metadata={
            "description": "The day the game was played (a result's day, an imported game's, or the day it ended)."
        },
    )
    place = fields.Integer()
    rating = fields.Integer(metadata={"description": "1500 + 42 × (mu − 3 sigma) after the game."})
    change = fields.Integer(metadata={"description": "The rating's change in this game."})


class RatingLine(Schema):
    league = fields.UUID()
    name = fields.String()
    games = fields.List(fields.Nested(ProfileRatedGame))


class LeagueRef(Schema):
    id = fields.UUID()
    name = fields.String()


class Seated(Schema):
    player = fields.UUID()
    name = fields.String(allow_none=True)
    place = fields.Integer(allow_none=True, metadata={"description": "Null while the game is live."})


class PlayedGame(Schema):
    game = fields.UUID()
    engine = fields.String()
    title = fields.String()
    league = fields.Nested(LeagueRef, allow_none=True)
    ended_at = fields.DateTime(allow_none=True)
    played_on = fields.Date(
        allow_none=True,
        metadata={
            "description": "The day the game was played (a result's day, an imported game's, or the day it ended)."
        },
    )
    seat = fields.Integer(metadata={"description": "1 is the first seat."})
    place = fields.Integer()
    score = fields.Float(allow_none=True)
    players = fields.List(fields.Nested(Seated), metadata={"description": "Everyone, best place first."})


class PlayedPage(Schema):
    page = fields.Integer()
    pages = fields.Integer()
    games = fields.List(fields.Nested(PlayedGame), metadata={"description": "Newest first."})


class PlayerRef(Schema):
    id = fields.UUID()
    name = fields.String()
    club = fields.UUID()


class Profile(Schema):
    player = fields.Nested(PlayerRef)
    games = fields.Integer(metadata={"description": "Finished games, in a league or not."})
    wins = fields.Integer()
    win_rate = fields.Float(allow_none=True)
    by_game = fields.List(fields.Nested(GameWinRate))
    by_seat = fields.List(fields.Nested(SeatWinRate))
    streaks = fields.Nested(Streaks)
    head_to_head = fields.List(fields.Nested(HeadToHead))
    ratings = fields.List(fields.Nested(RatingLine), metadata={"description": "One line per league."})
    played = fields.Nested(PlayedPage)


class ProfileQuery(Schema):
    page = PAGE


class GameSearchQuery(Schema):
    players = fields.List(
        fields.UUID(),
        data_key="player",
        load_default=list,
        metadata={"description": "Games with all of these players seated."},
    )
    engine = fields.String(load_default=None, allow_none=True)
    league = fields.UUID(load_default=None, allow_none=True)
    since = fields.Date(
        load_default=None,
        allow_none=True,
        metadata={"description": "Played (a live game: began) on or after."},
    )
    until = fields.Date(
        load_default=None,
        allow_none=True,
        metadata={"description": "Played (a live game: began) on or before."},
    )
    winner = fields.UUID(
        load_default=None, allow_none=True, metadata={"description": "Finished first (shared or not)."}
    )
    status = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(["finished", "live"]))
    page = PAGE


class FoundGame(Schema):
    game = fields.UUID()
    engine = fields.String()
    title = fields.String()
    league = fields.Nested(LeagueRef, allow_none=True)
    status = fields.String(metadata={"description": "finished or live"})
    started_at = fields.DateTime()
    ended_at = fields.DateTime(allow_none=True)
    played_on = fields.Date(
        allow_none=True,
        metadata={
            "description": "The day the game was played (a result's day, an imported game's, or the day it ended)."
        },
    )
    players = fields.List(fields.Nested(Seated))
    winners = fields.List(fields.Nested(Seated))


class GameSearch(Schema):
    total = fields.Integer()
    page = fields.Integer()
    pages = fields.Integer()
    games = fields.List(
        fields.Nested(FoundGame),
        metadata={"description": "Live games first, then by the day played, newest first."},
    )
