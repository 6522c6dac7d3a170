"""App tokens: a named token the club's admin makes for an app (a club
website, a bot, a results logger), holding only the scopes it was given
(``access.SCOPES``; what each allows is decided in ``service.records.access``).

The token is shown once and kept as its hash, like every token. Revoking an
app deletes it and its token at once in this process (``sign_ins.tokens_changed``),
within the seconds other processes remember a token for elsewhere.
"""

from __future__ import annotations

import uuid
from typing import Any
from uuid import UUID

from service.records import access
from service.records.access import Principal
from service.records.club import names, sign_ins
from service.records.errors import Invalid, NotFound
from service.records.log.context import Records

APP_COLUMNS = "id, name, scopes, created_at, last_used_at"


def scopes_of(values: object) -> list[str]:
    """``values`` as an app's scopes (in ``access.SCOPES`` order), or ``Invalid``
    naming what is wrong: at least one, each one of ``access.SCOPES``."""
    if not isinstance(values, list | tuple | set | frozenset) or not values:
        raise Invalid("invalid-scopes", "An app holds at least one scope.", scopes=list(access.SCOPES))
    unknown = sorted({str(v) for v in values} - set(access.SCOPES))
    if unknown:
        raise Invalid(
            "invalid-scopes",
            f"No such scope: {', '.join(unknown)}. The scopes are {', '.join(access.SCOPES)}.",
            scopes=list(access.SCOPES),
        )
    return [s for s in access.SCOPES if s in values]


def make_app(
    records: Records, club_id: UUID, principal: Principal | None, name: str, scopes: object
) -> dict[str, Any]:
    """A new app of the club (admin token) with its token, shown this once."""
    access.club_admin(principal, club_id)
    name = names.name(name)
    scopes = scopes_of(scopes)
    token, digest = access.new_token("app")
    app_id = uuid.uuid4()
    with records.pool.connection() as conn, conn.transaction():
        app = conn.execute(
            f"INSERT INTO apps (id, club_id, name, scopes) VALUES (%s, %s, %s, %s) RETURNING {APP_COLUMNS}",
            (app_id, club_id, name, scopes),
        ).fetchone()
        conn.execute(
            "INSERT INTO tokens (hash, club_id, kind, app_id) VALUES (%s, %s, 'app', %s)",
            (digest, club_id, app_id),
        )
    return {**app, "token": token}


def apps(records: Records, club_id: UUID, principal: Principal | None) -> list[dict[str, Any]]:
    """The club's apps (admin token): their names, scopes and last use (to the minute)."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        return conn.execute(
            f"SELECT {APP_COLUMNS} FROM apps WHERE club_id = %s ORDER BY created_at, id", (club_id,)
        ).fetchall()


def revoke_app(records: Records, club_id: UUID, app_id: UUID, principal: Principal | None) -> None:
    """The app's token stops working (admin token); the app is gone from the list."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn, conn.transaction():
        gone = conn.execute(
            "DELETE FROM apps WHERE id = %s AND club_id = %s RETURNING id", (app_id, club_id)
        ).fetchone()
    if gone is None:
        raise NotFound("app")
    sign_ins.tokens_changed()
