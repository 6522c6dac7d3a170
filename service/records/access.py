"""Who may see what and act for whom: every rule of access, in one place.

Tokens: a club's admin token manages the club and is the recorder of its
games (it acts for every seat; for table games it also submits the dice and
draws); a member sign-in (one per player, issued by the admin) sees the club,
its leagues and its public games, and in every game of the club where its
player sits it sees and acts for that seat alone (it never records for others
nor undoes); a seat token acts for one seat of one game and sees what that
seat may see; an app token (made by the admin for an app) holds only the
scopes it was given (``SCOPES``): ``read`` sees the club, its leagues, its
games as a spectator and its feed, ``results`` logs results and imports
history, ``games`` creates and records games as the recorder, ``players``
adds, renames and retires players and leagues; no token sees public games'
and public leagues' public views.
Another club's token learns nothing: everything of this club is "not found".
Rotating the admin token or revoking a member sign-in ends it at once, with
every web session signed in by it.

"May this token see seat 2's hand?" is decided by ``may_see_seat`` alone.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

import psycopg

from service.records.errors import DomainError, Forbidden, Invalid, NotFound, Unauthenticated
from service.records.game_record import Game

if TYPE_CHECKING:
    from engines.base import ChanceRequest

#: What a caller sees as: a seat number, None (a spectator) or "all".
Viewer = int | None | str

#: The scopes an app token may hold, each a part of the admin token's powers.
SCOPES = ("read", "results", "games", "players")


@dataclass(frozen=True)
class Principal:
    club_id: UUID
    kind: str  # "admin", "member", "seat" or "app"
    game_id: UUID | None = None
    seat: int | None = None
    #: A member sign-in's player.
    player_id: UUID | None = None
    #: An app token's app, and the scopes it holds.
    app_id: UUID | None = None
    scopes: frozenset[str] = frozenset()
    #: A member sign-in's players merged into its player (``club/merges.py``): their seats are its own.
    merged: frozenset[str] = frozenset()

    @property
    def is_admin(self) -> bool:
        return self.kind == "admin"

    @property
    def is_member(self) -> bool:
        return self.kind == "member"

    @property
    def is_app(self) -> bool:
        return self.kind == "app"

    def label(self) -> str:
        if self.is_member:
            return f"member:{self.player_id}"
        if self.is_app:
            return f"app:{self.app_id}"
        return "recorder" if self.is_admin else f"seat:{self.seat}"

    def seat_in(self, game: Game) -> int | None:
        """The seat this principal holds in ``game`` (None: none): a seat
        token's own, or the seat of a member's player."""
        if self.club_id != game.club_id:
            return None
        if self.kind == "seat":
            return self.seat if self.game_id == game.id else None
        if self.is_member:
            for player in (str(self.player_id), *sorted(self.merged)):
                if player in game.seats:
                    return game.seats.index(player)
        return None


# -- tokens --------------------------------------------------------------------


def new_token(kind: str) -> tuple[str, str]:
    """A fresh token and the hash stored for it (tokens are shown once, kept hashed)."""
    token = f"tr_{kind}_{secrets.token_urlsafe(24)}"
    return token, hash_token(token)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


#: A token's holder as ``principal_of`` reads it from ``tokens t`` (with
#: ``HOLDER_JOIN``): a merged-in player's member sign-in signs in the player
#: they follow, whose merged-in players' seats are its own.
HOLDER = (
    "t.club_id, t.kind, t.game_id, t.seat, coalesce(m.kept_id, t.player_id) AS player_id,"
    " ARRAY(SELECT f.merged_id::text FROM player_merges f WHERE f.kept_id = coalesce(m.kept_id, t.player_id))"
    " AS merged"
)
HOLDER_JOIN = "LEFT JOIN player_merges m ON m.merged_id = t.player_id"


def principal_for(conn: psycopg.Connection, digest: str) -> Principal:
    """The holder of the token whose hash is ``digest``. An app token's use is
    noted (``last_used_at``, to the minute: one write a minute at most)."""
    row = conn.execute(
        f"SELECT {HOLDER}, t.app_id, a.scopes FROM tokens t LEFT JOIN apps a ON a.id = t.app_id {HOLDER_JOIN}"
        " WHERE t.hash = %s",
        (digest,),
    ).fetchone()
    if row is None:
        raise Unauthenticated("invalid-token", "This sign-in is not valid (it may have been replaced).")
    if row["app_id"] is not None:
        conn.execute(
            "UPDATE apps SET last_used_at = now() WHERE id = %s"
            " AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')",
            (row["app_id"],),
        )
    return principal_of(row)


def principal_of(row: dict[str, Any]) -> Principal:
    return Principal(
        row["club_id"],
        row["kind"],
        row["game_id"],
        row["seat"],
        row["player_id"],
        row.get("app_id"),
        frozenset(row.get("scopes") or ()),
        frozenset(row.get("merged") or ()),
    )


def may_sign_in_on_the_web(principal: Principal) -> Principal:
    """The web pages are for people: an app's token signs nobody in there."""
    if principal.is_app:
        raise Unauthenticated("app-token", "This is an app's token: it is for the API, not for these pages.")
    return principal


def required(principal: Principal | None) -> Principal:
    if principal is None:
        raise Unauthenticated("token-required", "This needs a bearer token.")
    return principal


# -- operations ------------------------------------------------------------------


def may_see_operations(operator: bool) -> bool:
    """Log positions (they count every club's events) and the workers' set-aside
    tasks (their arguments) are for the operator's token alone; anyone else
    learns only which projections there are, and waits for its own write with
    ``min_position``."""
    return operator


def may_see_positions(principal: Principal | None, club_id: UUID) -> bool:
    """Log positions in a club's events, replays, standings and statistics:
    for the club's own tokens, which wait for their writes with ``min_position``
    and follow the club feed; never for anonymous viewers of public games and
    leagues (positions count every club's events, a measure of the whole
    service's activity)."""
    return principal is not None and principal.club_id == club_id


def may_wait_for_position(
    principal: Principal | None, club_id: UUID | None, min_position: int | None, operator: bool = False
) -> None:
    """``min_position`` names a log position, which only the club's tokens (any
    club's, for the projections themselves, ``club_id`` None) and the operator
    see: nobody else has a position to wait for, and answering them would tell
    them, one question at a time, how far the log has come."""
    if min_position is None or operator:
        return
    if principal is None or (club_id is not None and principal.club_id != club_id):
        raise Forbidden(
            "positions-are-the-clubs",
            "Log positions are shown only to the club's tokens; only they may wait for one (min_position).",
        )


def positions_for(principal: Principal | None, club_id: UUID, item: dict[str, Any]) -> dict[str, Any]:
    """``item`` (an event, a replay's step, a projection's answer) as
    ``principal`` may see it: with its ``position`` member or without."""
    if may_see_positions(principal, club_id):
        return item
    return {k: v for k, v in item.items() if k != "position"}


# -- app tokens ------------------------------------------------------------------


def _grants(principal: Principal, scope: str) -> bool:
    """The admin token holds every scope; an app token those it was given."""
    return principal.is_admin or (principal.is_app and scope in principal.scopes)


def _recorder(principal: Principal) -> bool:
    """Records the club's games (acts for every seat, enters the table's
    chance): the admin token, or an app token given ``games``. The club is
    checked by the caller."""
    return _grants(principal, "games")


def _needs(principal: Principal, scope: str) -> Principal:
    if not _grants(principal, scope):
        raise Forbidden("scope-missing", f"This app's token lacks the `{scope}` scope.", scope=scope)
    return principal


def _app_of(principal: Principal | None, club_id: UUID) -> bool:
    return principal is not None and principal.is_app and principal.club_id == club_id


# -- clubs and leagues -----------------------------------------------------------


def club_admin(principal: Principal | None, club_id: UUID, app_scope: str | None = None) -> Principal:
    """The club's admin token, or an app token given ``app_scope`` (None: no
    app token may); another club's token learns nothing (not found)."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("club")
    if principal.is_app and app_scope is not None:
        return _needs(principal, app_scope)
    if not principal.is_admin:
        raise Forbidden("admin-only", "Only the club's admin token may do this.")
    return principal


def may_see_job(principal: Principal | None, club_id: UUID | None, starter: Principal | None) -> None:
    """A club's job (a history import) is read by the token that started it:
    the club's admin token, or the same app's token; any other learns
    nothing (not found). A restore is started by no token: its job's address
    (a random id, given only to whoever asked) is its key."""
    if club_id is None:
        return
    if (
        principal is None
        or starter is None
        or principal.club_id != club_id
        or principal.kind != starter.kind
        or principal.app_id != starter.app_id
    ):
        raise NotFound("job")


def club_member(principal: Principal | None, club_id: UUID) -> Principal:
    """The club's admin token, one of its member sign-ins or an app token given
    ``read``: who sees the club's own pages (its players, leagues and games list)."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("club")
    if principal.is_app:
        return _needs(principal, "read")
    if not (principal.is_admin or principal.is_member):
        raise Forbidden("members-only", "Only the club's members may see this.")
    return principal


def may_follow_club(principal: Principal | None, club_id: UUID) -> Principal:
    """Who follows a club's stream: whoever sees its pages (``club_member``),
    each event of a game it may see (``sees_game``) and no other; a live
    club page, league page or tournament screen redraws from it."""
    return club_member(principal, club_id)


def may_see_league(league: dict[str, Any] | None, principal: Principal | None) -> dict[str, Any]:
    """The league if the caller may see it: public, or a token of its club
    (an app token given ``read``)."""
    if league is None or (
        not league["public"] and (principal is None or principal.club_id != league["club_id"])
    ):
        raise NotFound("league")
    if not league["public"] and _app_of(principal, league["club_id"]):
        _needs(principal, "read")
    return league


def tournament_organiser(principal: Principal | None, club_id: UUID) -> Principal:
    """Who creates and runs a club's tournaments (enters players, seats rounds,
    swaps, starts the tables' games): the club's admin token, its organiser."""
    return club_admin(principal, club_id)


def may_see_tournament(principal: Principal | None, club_id: UUID) -> Principal:
    """Who reads a tournament (its tables, results and standings, the room's
    screen): the club's members, its organiser and an app token given ``read``;
    another club learns nothing."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("tournament")
    if principal.is_app:
        return _needs(principal, "read")
    if not (principal.is_admin or principal.is_member):
        raise Forbidden("members-only", "Only the club's members may see this.")
    return principal


def may_take_out_plays(principal: Principal | None, club_id: UUID, player_id: UUID | None) -> Principal:
    """Taking plays out of the club (a file for another app): the club's
    plays for its admin token; one player's plays for the admin token or that
    player's own member sign-in, or an app token given ``read``. Another club's
    token learns nothing."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("club")
    if principal.is_app:
        return _needs(principal, "read")
    if principal.is_admin or (
        player_id is not None and principal.is_member and principal.player_id == player_id
    ):
        return principal
    raise Forbidden(
        "admin-only", "Only the club's admin token, or a player for their own plays, may take them out."
    )


def night_organiser(principal: Principal | None, club_id: UUID) -> Principal:
    """Who posts a club's game nights and runs them on the night (who came,
    the tables, their games): the club's admin token, its organiser."""
    return club_admin(principal, club_id)


def may_see_night(principal: Principal | None, club_id: UUID) -> Principal:
    """Who reads a game night (its games, the answers, its tables): the club's
    members, its organiser and an app token given ``read``; another club
    learns nothing."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("game night")
    if principal.is_app:
        return _needs(principal, "read")
    if not (principal.is_admin or principal.is_member):
        raise Forbidden("members-only", "Only the club's members may see this.")
    return principal


def night_answerer(principal: Principal | None, club_id: UUID) -> str:
    """The player who answers a game night: a member of the club with their own
    sign-in, for themselves alone (no one answers for another: the organiser
    and apps neither)."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("game night")
    if not principal.is_member:
        raise Forbidden("members-answer", "Members answer a game night themselves, with their own sign-in.")
    return str(principal.player_id)


def may_see_player(principal: Principal | None, club_id: UUID) -> Principal:
    """A player's profile and the club's game history: any token of the club
    (its recorder, a seat of one of its games, an app token given ``read``);
    another club's learns nothing."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("player")
    if principal.is_app:
        _needs(principal, "read")
    return principal


# -- games -----------------------------------------------------------------------


def _watches_only(principal: Principal | None, game: Game) -> bool:
    """The club's admin token of a game created with ``admin_spectator``: it
    sees what a spectator sees and acts for no seat until the game is over
    (it may still abandon the game, which ends it)."""
    return principal is not None and _recorder(principal) and game.admin_spectator


def _of_game(principal: Principal | None, game: Game) -> bool:
    """The game's recorder, a seat token of this very game, or the member
    sign-in of a player seated in it."""
    return (
        principal is not None
        and principal.club_id == game.club_id
        and (_recorder(principal) or principal.seat_in(game) is not None)
    )


def _not_of_game(principal: Principal | None, game: Game, scope: str) -> DomainError:
    """Why a caller who is neither the game's recorder nor one of its seats is
    refused: an app token of the club lacks ``scope``; anyone else learns nothing."""
    if _app_of(principal, game.club_id):
        try:
            _needs(principal, scope)
        except Forbidden as refused:
            return refused
    return NotFound("game")


def may_see_game(game: Game, principal: Principal | None) -> Game:
    """Public games for anyone, others for their recorder, their own seats
    and the club's app tokens given ``read`` (as a spectator)."""
    if game.public or _of_game(principal, game):
        return game
    if _app_of(principal, game.club_id) and "read" in principal.scopes:
        return game
    raise _not_of_game(principal, game, "read")


def sees_game(game: Game, principal: Principal | None) -> bool:
    """``may_see_game`` as a question."""
    try:
        may_see_game(game, principal)
    except DomainError:
        return False
    return True


def sees_every_game(principal: Principal) -> bool:
    """Lists of the club's games show this caller (of the club) every game:
    its recorder, and an app token given ``read`` (as a spectator)."""
    return _recorder(principal) or (principal.is_app and "read" in principal.scopes)


def player_of(game: Game, principal: Principal | None) -> Principal:
    """The game's recorder or one of its seats (public or not)."""
    principal = required(principal)
    if not _of_game(principal, game):
        raise _not_of_game(principal, game, "games")
    return principal


def recorder_of(game: Game, principal: Principal | None, app_scope: str = "games") -> Principal:
    """The game's recorder (its club's admin token), or an app token of the
    club given ``app_scope``."""
    principal = required(principal)
    if principal.club_id != game.club_id:
        raise NotFound("game")
    if principal.is_app:
        return _needs(principal, app_scope)
    if not principal.is_admin:
        raise Forbidden("recorder-only", "Only the club's admin token (the recorder) may do this.")
    return principal


def may_export(game: Game, principal: Principal | None) -> None:
    """A live game's export shows every hand and sealed bid, so only a recorder
    who sees them all may take it (not the spectating admin); an ended game's,
    whoever may see the game."""
    if game.status != "active":
        may_see_game(game, principal)
        return
    recorder_of(game, principal)
    if _watches_only(principal, game):
        raise Forbidden("admin-spectator", "In this game the admin token is a spectator; it sees no hand.")


def sealed_in_backup(game: Game, principal: Principal) -> bool:
    """Whether the club's backup, taken by ``principal`` (its admin token),
    carries this game's hidden parts sealed for the service rather than in
    the clear: a live game whose admin only watches. The backup is always
    possible; its reader still sees no hand (``history.sealing``)."""
    return game.status == "active" and _watches_only(principal, game)


def check_seat(game: Game, seat: int) -> int:
    """A seat the game has."""
    if not 0 <= seat < len(game.seats):
        raise Invalid("no-such-seat", f"Seats run from 0 to {len(game.seats) - 1}.")
    return seat


def may_act(game: Game, principal: Principal, seat: int | None) -> None:
    """May ``principal`` post a command for ``seat`` (None: the table's dice and draws)?"""
    if not _of_game(principal, game):
        raise _not_of_game(principal, game, "games")
    if seat is None:
        if game.dealer == "server":
            raise Forbidden("server-deals", "The service deals this game's chance; nobody submits it.")
        if not _recorder(principal):
            raise Forbidden("recorder-only", "Only the recorder submits the table's dice and draws.")
        return
    check_seat(game, seat)
    if _watches_only(principal, game):
        raise Forbidden(
            "admin-spectator", "In this game the admin token is a spectator; seats act for themselves."
        )
    if not _recorder(principal) and principal.seat_in(game) != seat:
        raise Forbidden("not-your-seat", "You may act only for your own seat.")


def may_enter_for(game: Game, principal: Principal, seat: int | None) -> bool:
    """``may_act`` as a question: may ``principal`` enter ``seat``'s command
    without being asked (a forced entry, a pass recorded for the table)?"""
    try:
        may_act(game, principal, seat)
    except (Forbidden, NotFound):
        return False
    return True


def may_supply_chance(game: Game, principal: Principal, request: ChanceRequest | None) -> None:
    """May ``principal`` enter the table's chance ``request`` (the dice and
    draws a table game awaits)? The recorder enters every chance, except, in a
    game where it sees only public information (``admin_spectator``), the
    cards dealt into one seat's hidden hand; a seat enters only the cards
    dealt into its own hand (``request.dealt_to``), never another seat's and
    never a public chance."""
    if not _of_game(principal, game):
        raise _not_of_game(principal, game, "games")
    if game.dealer == "server":
        raise Forbidden("server-deals", "The service deals this game's chance; nobody submits it.")
    dealt_to = request.dealt_to if request is not None else None
    if _recorder(principal):
        if _watches_only(principal, game) and dealt_to is not None:
            raise Forbidden(
                "sealed-from-recorder",
                "In this game each player enters the cards dealt to them; the recorder sees only what is public.",
            )
        return
    if dealt_to is None:
        raise Forbidden("recorder-only", "Only the recorder enters the table's dice and public draws.")
    if principal.seat_in(game) != dealt_to:
        raise Forbidden("not-your-cards", "A player enters only the cards dealt into their own hand.")


def may_see_pool(game: Game, principal: Principal) -> bool:
    """May ``principal`` see what is left of a table game's deck (the pool a
    draw comes from)? The recorder, who may enter every hand; not a seat
    entering its own cards, since what is left would tell it what the others
    hold (it is offered every card it cannot see instead)."""
    return _recorder(principal) and not _watches_only(principal, game)


def may_see_seat(game: Game, principal: Principal | None, seat: int) -> bool:
    """May ``principal`` see what ``seat`` sees (its hand)? Everyone once the
    game is over; while it is on, the recorder and that seat's own token."""
    if game.status != "active":
        return True
    if _watches_only(principal, game):
        return False
    return _of_game(principal, game) and (_recorder(principal) or principal.seat_in(game) == seat)


def actors(game: Game, principal: Principal) -> list[int | None]:
    """The seats ``principal`` may post commands for now (None: the table's dealer)."""
    if game.status != "active":
        return []
    if _watches_only(principal, game):  # at a table it still enters the public chance
        return [None] if game.dealer == "table" else []
    if _recorder(principal):
        return [*range(len(game.seats)), *([None] if game.dealer == "table" else [])]
    return [principal.seat_in(game)]


def page_seat(game: Game, principal: Principal | None, viewer: Viewer) -> int | None:
    """The seat whose actions the game page offers the caller: the seat the
    page shows (a member's or a seat token's own; the one the recorder chose
    to see as), when the caller may act for it now; None: no seat's actions."""
    if principal is None or not isinstance(viewer, int) or isinstance(viewer, bool):
        return None
    return viewer if viewer in actors(game, principal) else None


def viewer(game: Game, principal: Principal | None) -> Viewer:
    """What the caller sees of a game by default: a seat, None (spectator) or "all".

    An ended game shows everything. The recorder of a table game sees
    everything (it enters every seat's cards); in a server-dealt game it sees
    the spectator's view; a seat token, or a member seated in the game, sees
    its seat.
    """
    if game.status != "active":
        return "all"
    if principal is None or principal.club_id != game.club_id:
        return None
    if _recorder(principal):
        return "all" if game.dealer == "table" and not game.admin_spectator else None
    return principal.seat_in(game)


def viewer_as(game: Game, principal: Principal | None, as_seat: int | None) -> Viewer:
    """The game view's ``?seat=``: only the recorder chooses a seat to see as."""
    if as_seat is None:
        return viewer(game, principal)
    if not (principal and _recorder(principal) and principal.club_id == game.club_id):
        raise Forbidden("recorder-only", "Only the recorder may choose the seat to see as.")
    check_seat(game, as_seat)
    if game.status == "active" and _watches_only(principal, game):
        raise Forbidden("admin-spectator", "In this game the admin token is a spectator; it sees no hand.")
    return "all" if game.status != "active" else as_seat


def seat_eye(game: Game, principal: Principal | None, seat: int | None) -> Viewer:
    """A replay's ``?seat=``: what that seat knew at every step, for whoever may see its hand."""
    if seat is None:
        return viewer(game, principal)
    check_seat(game, seat)
    if not may_see_seat(game, principal, seat):
        raise Forbidden(
            "seat-view-forbidden", "While the game is on, only that seat or the recorder sees its replay."
        )
    return seat
