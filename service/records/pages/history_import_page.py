"""The organiser's "Bring in your history" page: choose a file (BG Stats,
BoardGameGeek or CSV), see what will come in, choose a game for each name the
service does not know, confirm, and follow the import while it judges.

The import itself is ``history.imports``, the API's: the same bounds, the same
all-or-nothing rule, the same matching of games and players. The file chosen
is kept between the page that shows what will come in and the confirmation
(``history_uploads``, one a club: choosing another replaces it); the row also
holds how many plays the running import has judged, which the page follows.
Once the import has stored its plays, the row is deleted.

A game name the service does not know is offered a game of the service or
"leave its plays out": the page imports with ``skip_unknown_games`` and the
mapping the organiser chose, and shows the plays it leaves out before they
confirm.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any
from uuid import UUID

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.errors import Invalid, NotFound
from service.records.history import formats, imports
from service.records.log.context import Records

#: What each format is called on the page.
FORMAT_NAMES = {"bgstats": "BG Stats", "bgg": "BoardGameGeek", "csv": "CSV"}


def import_form(records: Records, club_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """The page before a file is chosen: the formats and the club's open leagues."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        return {"club": club_id, "formats": FORMAT_NAMES, "leagues": _leagues(conn, club_id)}


def choose_file(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    filename: str,
    content: bytes,
    fmt: str | None,
    league: UUID | None,
) -> dict[str, Any]:
    """Keep the chosen file for the club (replacing one chosen before) and
    show what it would bring in. A file that cannot be read is refused here
    (``Invalid``), and nothing is kept."""
    access.club_admin(principal, club_id)
    fmt = fmt or formats.guess_format(filename)
    if fmt not in formats.FORMATS:
        raise Invalid("history-unreadable", "Choose BG Stats, BoardGameGeek or CSV.")
    upload_id = uuid.uuid4()
    with records.pool.connection() as conn:
        if league is not None and not _league_of(conn, club_id, league):
            raise NotFound("league")
        preview = _preview(records, club_id, principal, fmt, content, {}, league)
        conn.execute(
            "INSERT INTO history_uploads (id, club_id, format, filename, content, league_id)"
            " VALUES (%s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (club_id) DO UPDATE SET id = excluded.id, format = excluded.format,"
            " filename = excluded.filename, content = excluded.content, league_id = excluded.league_id,"
            " judged = 0, plays = 0, created_at = now()",
            (upload_id, club_id, fmt, filename[:200], content, league),
        )
    return _page(records, club_id, upload_id, filename, fmt, league, preview, {})


def preview_page(
    records: Records, club_id: UUID, principal: Principal | None, upload_id: UUID, mapping: Mapping[str, str]
) -> dict[str, Any]:
    """What the chosen file would bring in with the games chosen for its names (``mapping``)."""
    access.club_admin(principal, club_id)
    upload = _upload(records, club_id, upload_id)
    preview = _preview(
        records, club_id, principal, upload["format"], upload["content"], mapping, upload["league_id"]
    )
    return _page(
        records,
        club_id,
        upload_id,
        upload["filename"],
        upload["format"],
        upload["league_id"],
        preview,
        mapping,
    )


def run_import(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    upload_id: UUID,
    mapping: Mapping[str, str],
    request_id: str | None,
) -> dict[str, Any]:
    """Import the chosen file (``imports.import_history``), its progress kept
    for ``progress``; the report, in the page's words. A refused import stores
    nothing and keeps the file, to be looked at again."""
    access.club_admin(principal, club_id)
    upload = _upload(records, club_id, upload_id)

    def judged(count: int, of: int) -> None:
        with records.pool.connection() as conn:
            conn.execute(
                "UPDATE history_uploads SET judged = %s, plays = %s WHERE id = %s", (count, of, upload_id)
            )

    report = imports.import_history(
        records,
        club_id,
        principal,
        upload["format"],
        upload["content"],
        mapping=mapping,
        skip_unknown_games=True,
        league=upload["league_id"],
        request_id=request_id,
        progress=judged,
    )
    with records.pool.connection() as conn:
        conn.execute("DELETE FROM history_uploads WHERE id = %s", (upload_id,))
        league = _league_of(conn, club_id, upload["league_id"]) if upload["league_id"] else None
    return {
        "club": club_id,
        "imported": report["imported"],
        "already_imported": report["already_imported"],
        "skipped": report["skipped"],
        "players_added": report["players_added"],
        "league": league,
    }


def progress(records: Records, club_id: UUID, principal: Principal | None, upload_id: UUID) -> dict[str, Any]:
    """How far the import of the chosen file has judged its plays (``done``: it has ended)."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        row = conn.execute(
            "SELECT judged, plays FROM history_uploads WHERE id = %s AND club_id = %s", (upload_id, club_id)
        ).fetchone()
    if row is None:
        return {"club": club_id, "upload": upload_id, "done": True, "judged": 0, "plays": 0}
    return {
        "club": club_id,
        "upload": upload_id,
        "done": False,
        "judged": row["judged"],
        "plays": row["plays"],
    }


def game_choices() -> list[dict[str, str]]:
    """The games a name of a file may be matched to (those recorded by their result)."""
    return [
        {"id": e, "title": registry.get(e).title}
        for e in registry.available()
        if registry.game(e).outcome is not None
    ]


def _preview(
    records: Records,
    club_id: UUID,
    principal: Principal | None,
    fmt: str,
    content: bytes,
    mapping: Mapping[str, str],
    league: UUID | None,
) -> dict[str, Any]:
    return imports.preview_history(
        records, club_id, principal, fmt, content, mapping=mapping, skip_unknown_games=True, league=league
    )


def _page(
    records: Records,
    club_id: UUID,
    upload_id: UUID,
    filename: str,
    fmt: str,
    league_id: UUID | None,
    preview: dict[str, Any],
    mapping: Mapping[str, str],
) -> dict[str, Any]:
    with records.pool.connection() as conn:
        league = _league_of(conn, club_id, league_id) if league_id else None
    names = preview["game_names"]
    titles = {g["id"]: g["title"] for g in game_choices()}
    return {
        "club": club_id,
        "upload": upload_id,
        "filename": filename,
        "format": FORMAT_NAMES[fmt],
        "league": league,
        "plays": preview["plays"],
        "games": sorted(
            ({"title": titles[e], "plays": n} for e, n in preview["games"].items()), key=lambda g: g["title"]
        ),
        # Every name the service had to be told, or was told, which game it is.
        "names": [
            {"name": name, "chosen": mapping.get(name, "")}
            for name, engine in names.items()
            if engine is None or name in mapping
        ],
        "choices": game_choices(),
        "players_matched": preview["players_matched"],
        "players_added": preview["players_added"],
        "already_imported": preview["already_imported"],
        "left_out": [_line(s) for s in preview["skipped"]],
        "refused": [_line(r) for r in preview["refused"]],
    }


def _line(item: dict[str, Any]) -> dict[str, str]:
    """A refused or left-out play in words: where in the file, and why."""
    where = str(item["where"])
    return {"where": where[:1].upper() + where[1:], "reason": str(item["reason"])}


def _upload(records: Records, club_id: UUID, upload_id: UUID) -> dict[str, Any]:
    with records.pool.connection() as conn:
        row = conn.execute(
            "SELECT format, filename, content, league_id FROM history_uploads WHERE id = %s AND club_id = %s",
            (upload_id, club_id),
        ).fetchone()
    if row is None:
        raise NotFound(
            "history-file", "This file is no longer waiting: it was imported, or another was chosen since."
        )
    return row


def _leagues(conn: Any, club_id: UUID) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT id, name, season FROM leagues WHERE club_id = %s AND closed_at IS NULL ORDER BY created_at",
        (club_id,),
    ).fetchall()


def _league_of(conn: Any, club_id: UUID, league_id: UUID) -> dict[str, Any] | None:
    return conn.execute(
        "SELECT id, name, season FROM leagues WHERE id = %s AND club_id = %s", (league_id, club_id)
    ).fetchone()
