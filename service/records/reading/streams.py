"""What the event streams send: a game's events and a club's feed as each
reader may see them, the same access as every read of them
(``game_views.event_page`` and ``game_views.club_feed``).

A stream process reads what is new once for all its readers of a game or
club (``game_news``, ``club_news``: the log as stored, never sent as it is),
then gives each reader its own share (``game_events_seen``,
``club_events_seen``): a seat its own view, the recorder its view, a
spectator the public one. A game's stream is in version order (the game's
own log: gap-free, and a version is visible only once it and every version
before it have committed); a club's in position order, read below the
horizon like the club feed (``store.read_club``), so no event that commits
late is ever skipped. Whom a reader's credential signs in is asked again
while it follows (``who``): a token rotated or a sign-in revoked ends it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from service.records import access
from service.records.access import Principal
from service.records.club import sign_ins
from service.records.log import store
from service.records.log.context import Records
from service.records.log.store import StoredEvent
from service.records.recording.games import Game, games_by_id, get_game
from service.records.recording.unit_of_work import redact

#: Events read at most at once for one stream (a reader further behind reads in pages).
PAGE = 500


@dataclass(frozen=True)
class Credential:
    """What a stream's reader signed in with: a bearer token, or a web page's
    session (its cookie), or nothing (a public game's spectator)."""

    token: str | None = None
    web_session: str | None = None


def who(records: Records, credential: Credential) -> Principal | None:
    """The reader ``credential`` signs in (None: anonymous); ``Unauthenticated``
    once it no longer signs anyone in."""
    if credential.token is not None:
        with records.pool.connection() as conn:
            return access.principal_for(conn, access.hash_token(credential.token))
    if credential.web_session is not None:
        return sign_ins.web_session_principal(records, credential.web_session)
    return None


# -- a game ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameNews:
    """A game as it stood and its events after some version (at most ``PAGE``)."""

    game: Game
    events: list[StoredEvent]


def follow_game(records: Records, game_id: UUID, principal: Principal | None) -> Game:
    """The game, if ``principal`` may follow it (as it may read it)."""
    with records.pool.connection() as conn:
        return access.may_see_game(get_game(conn, game_id), principal)


def game_news(records: Records, game_id: UUID, after_version: int) -> GameNews:
    """The game's events after ``after_version``, as stored (for ``game_events_seen``).
    The game's row is read first: what it says of the game (ended or not)
    is never newer than the events, so a reader never sees more than it may."""
    with records.pool.connection() as conn:
        game = get_game(conn, game_id)
        events = store.read_stream(conn, game_id, after_version, PAGE)
    return GameNews(game, events)


def game_events_seen(news: GameNews, principal: Principal | None) -> list[dict[str, Any]]:
    """``news``'s events as ``principal`` may see them (``event_page``'s shape)."""
    game = access.may_see_game(news.game, principal)
    seat = access.viewer(game, principal)
    return [access.positions_for(principal, game.club_id, redact(game, e, seat)) for e in news.events]


# -- a club ----------------------------------------------------------------------


@dataclass(frozen=True)
class ClubNews:
    """A club's settled events after some position (at most ``PAGE``) and their games."""

    events: list[StoredEvent]
    games: dict[UUID, Game]


def follow_club(records: Records, club_id: UUID, principal: Principal | None) -> int:
    """Check that ``principal`` may follow the club's feed (whoever sees the
    club's pages: ``access.may_follow_club``); the last settled position,
    where a stream with no position of its own starts."""
    access.may_follow_club(principal, club_id)
    with records.pool.connection() as conn:
        return store.head_position(conn)


def club_news(records: Records, club_id: UUID, after_position: int) -> ClubNews:
    """The club's settled events after ``after_position``, as stored (for ``club_events_seen``)."""
    with records.pool.connection() as conn:
        events = store.read_club(conn, club_id, after_position, PAGE)
        games = games_by_id(conn, {e.game_id for e in events})
    return ClubNews(events, games)


def club_events_seen(
    news: ClubNews, club_id: UUID, principal: Principal | None
) -> list[dict[str, Any] | None]:
    """``news``'s events as ``principal`` may see them (``club_feed``'s shape);
    None for an event of a game it may not see (a member: another's private game)."""
    principal = access.may_follow_club(principal, club_id)
    seen: list[dict[str, Any] | None] = []
    for e in news.events:
        game = news.games[e.game_id]
        shown = access.sees_game(game, principal)
        seen.append({"game": e.game_id, **redact(game, e, access.viewer(game, principal))} if shown else None)
    return seen
