"""Who may see what and act for whom: every rule of access, in one place.

Tokens: a club's admin token manages the club and is the recorder of its
games (it acts for every seat; for table games it also submits the dice and
draws); a member sign-in (one per player, issued by the admin) sees the club,
its leagues and its public games, and in every game of the club where its
player sits it sees and acts for that seat alone (it never records for others
nor undoes); a seat token acts for one seat of one game and sees what that
seat may see; no token sees public games' and public leagues' public views.
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

from service.records.errors import Forbidden, Invalid, NotFound, Unauthenticated
from service.records.game_record import Game

if TYPE_CHECKING:
    from engines.base import ChanceRequest

#: What a caller sees as: a seat number, None (a spectator) or "all".
Viewer = int | None | str


@dataclass(frozen=True)
class Principal:
    club_id: UUID
    kind: str  # "admin", "member" or "seat"
    game_id: UUID | None = None
    seat: int | None = None
    #: A member sign-in's player.
    player_id: UUID | None = None

    @property
    def is_admin(self) -> bool:
        return self.kind == "admin"

    @property
    def is_member(self) -> bool:
        return self.kind == "member"

    def label(self) -> str:
        if self.is_member:
            return f"member:{self.player_id}"
        return "recorder" if self.is_admin else f"seat:{self.seat}"

    def seat_in(self, game: Game) -> int | None:
        """The seat this principal holds in ``game`` (None: none): a seat
        token's own, or the seat of a member's player."""
        if self.club_id != game.club_id:
            return None
        if self.kind == "seat":
            return self.seat if self.game_id == game.id else None
        if self.is_member and str(self.player_id) in game.seats:
            return game.seats.index(str(self.player_id))
        return None


# -- tokens --------------------------------------------------------------------


def new_token(kind: str) -> tuple[str, str]:
    """A fresh token and the hash stored for it (tokens are shown once, kept hashed)."""
    token = f"tr_{kind}_{secrets.token_urlsafe(24)}"
    return token, hash_token(token)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def principal_for(conn: psycopg.Connection, digest: str) -> Principal:
    """The holder of the token whose hash is ``digest``."""
    row = conn.execute(
        "SELECT club_id, kind, game_id, seat, player_id FROM tokens WHERE hash = %s", (digest,)
    ).fetchone()
    if row is None:
        raise Unauthenticated("invalid-token", "This sign-in is not valid (it may have been replaced).")
    return principal_of(row)


def principal_of(row: dict[str, Any]) -> Principal:
    return Principal(row["club_id"], row["kind"], row["game_id"], row["seat"], row["player_id"])


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


# -- clubs and leagues -----------------------------------------------------------


def club_admin(principal: Principal | None, club_id: UUID) -> Principal:
    """The club's admin token; another club's token learns nothing (not found)."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("club")
    if not principal.is_admin:
        raise Forbidden("admin-only", "Only the club's admin token may do this.")
    return principal


def club_member(principal: Principal | None, club_id: UUID) -> Principal:
    """The club's admin token or one of its member sign-ins: who sees the club's
    own pages (its players, leagues and games list)."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("club")
    if not (principal.is_admin or principal.is_member):
        raise Forbidden("members-only", "Only the club's members may see this.")
    return principal


def may_see_league(league: dict[str, Any] | None, principal: Principal | None) -> dict[str, Any]:
    """The league if the caller may see it: public, or a token of its club."""
    if league is None or (
        not league["public"] and (principal is None or principal.club_id != league["club_id"])
    ):
        raise NotFound("league")
    return league


def tournament_organiser(principal: Principal | None, club_id: UUID) -> Principal:
    """Who creates and runs a club's tournaments (enters players, seats rounds,
    swaps, starts the tables' games): the club's admin token, its organiser."""
    return club_admin(principal, club_id)


def may_see_tournament(principal: Principal | None, club_id: UUID) -> Principal:
    """Who reads a tournament (its tables, results and standings, the room's
    screen): the club's members and its organiser; another club learns nothing."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("tournament")
    if not (principal.is_admin or principal.is_member):
        raise Forbidden("members-only", "Only the club's members may see this.")
    return principal


def may_see_player(principal: Principal | None, club_id: UUID) -> Principal:
    """A player's profile and the club's game history: any token of the club
    (its recorder or a seat of one of its games); another club's learns nothing."""
    principal = required(principal)
    if principal.club_id != club_id:
        raise NotFound("player")
    return principal


# -- games -----------------------------------------------------------------------


def _watches_only(principal: Principal | None, game: Game) -> bool:
    """The club's admin token of a game created with ``admin_spectator``: it
    sees what a spectator sees and acts for no seat until the game is over
    (it may still abandon the game, which ends it)."""
    return principal is not None and principal.is_admin and game.admin_spectator


def _of_game(principal: Principal | None, game: Game) -> bool:
    """The game's recorder, a seat token of this very game, or the member
    sign-in of a player seated in it."""
    return (
        principal is not None
        and principal.club_id == game.club_id
        and (principal.is_admin or principal.seat_in(game) is not None)
    )


def may_see_game(game: Game, principal: Principal | None) -> Game:
    """Public games for anyone, others for their recorder and their own seats."""
    if not game.public and not _of_game(principal, game):
        raise NotFound("game")
    return game


def player_of(game: Game, principal: Principal | None) -> Principal:
    """The game's recorder or one of its seats (public or not)."""
    principal = required(principal)
    if not _of_game(principal, game):
        raise NotFound("game")
    return principal


def recorder_of(game: Game, principal: Principal | None) -> Principal:
    """The game's recorder (its club's admin token) only."""
    principal = required(principal)
    if principal.club_id != game.club_id:
        raise NotFound("game")
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
        raise NotFound("game")
    if seat is None:
        if game.dealer == "server":
            raise Forbidden("server-deals", "The service deals this game's chance; nobody submits it.")
        if not principal.is_admin:
            raise Forbidden("recorder-only", "Only the recorder submits the table's dice and draws.")
        return
    check_seat(game, seat)
    if _watches_only(principal, game):
        raise Forbidden(
            "admin-spectator", "In this game the admin token is a spectator; seats act for themselves."
        )
    if not principal.is_admin and principal.seat_in(game) != seat:
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
        raise NotFound("game")
    if game.dealer == "server":
        raise Forbidden("server-deals", "The service deals this game's chance; nobody submits it.")
    dealt_to = request.dealt_to if request is not None else None
    if principal.is_admin:
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
    return principal.is_admin and not _watches_only(principal, game)


def may_see_seat(game: Game, principal: Principal | None, seat: int) -> bool:
    """May ``principal`` see what ``seat`` sees (its hand)? Everyone once the
    game is over; while it is on, the recorder and that seat's own token."""
    if game.status != "active":
        return True
    if _watches_only(principal, game):
        return False
    return _of_game(principal, game) and (principal.is_admin or principal.seat_in(game) == seat)


def actors(game: Game, principal: Principal) -> list[int | None]:
    """The seats ``principal`` may post commands for now (None: the table's dealer)."""
    if game.status != "active":
        return []
    if _watches_only(principal, game):  # at a table it still enters the public chance
        return [None] if game.dealer == "table" else []
    if principal.is_admin:
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
    if principal.is_admin:
        return "all" if game.dealer == "table" and not game.admin_spectator else None
    return principal.seat_in(game)


def viewer_as(game: Game, principal: Principal | None, as_seat: int | None) -> Viewer:
    """The game view's ``?seat=``: only the recorder chooses a seat to see as."""
    if as_seat is None:
        return viewer(game, principal)
    if not (principal and principal.is_admin and principal.club_id == game.club_id):
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
