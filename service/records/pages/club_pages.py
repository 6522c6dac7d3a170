"""What the club's own pages (its players, its leagues) read, one call per page."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.club import apps, clubs, merges, sign_ins
from service.records.log.context import Records


def players_page(records: Records, club_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The club's players, each marked with whether they hold a member
    sign-in, and with the players merged into them (``merged``)."""
    access.club_admin(principal, club_id)
    signed = sign_ins.members_signed_in(records, club_id, principal)
    club = clubs.get_club(records, club_id, principal)
    merged = merges.merged_in(records, club_id, principal)
    players = [
        {**p, "signs_in": p["id"] in signed, "merged": merged.get(p["id"], [])}
        for p in clubs.players(records, club_id, principal)
    ]
    return {"club": club, "players": players}


def leagues_page(records: Records, club_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The club's leagues and the games a new league may record."""
    access.club_admin(principal, club_id)
    return {
        "club": clubs.get_club(records, club_id, principal),
        "leagues": clubs.leagues(records, club_id, principal),
        "engines": [{"id": e, "title": registry.get(e).title} for e in registry.available()],
    }


#: What each scope lets an app do, in the words the club's page shows.
SCOPE_WORDS = {
    "read": "see the club, its leagues, its games (as a spectator) and its feed",
    "results": "log and retract results, and import play history",
    "games": "create, import and record games (as the recorder)",
    "players": "add, rename and retire players, and create and edit leagues",
}


def apps_page(records: Records, club_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The club's apps with what each may do and when it was last used."""
    access.club_admin(principal, club_id)
    return {
        "club": clubs.get_club(records, club_id, principal),
        "apps": apps.apps(records, club_id, principal),
        "scope_words": SCOPE_WORDS,
    }
