"""One player from two records: merging a club's players, and taking a merge back.

A merge is an event of the club's stream of merges (``PlayersMerged``: the
player kept, the player merged in, who did it; ``PlayersUnmerged`` takes one
back), appended as the games' events are: never changed, numbered 1, 2, 3 …
per club, its writers ordered by the club's row lock. The games keep the
players they were recorded with; what the stream says now is kept beside it
in the same transaction (``player_merges``: each merged-in player and the
player they follow, through merges of merges), and every reader maps seats
through it when it folds: standings and ratings are recomputed from history
by the projections (``workers/projections``), profiles and statistics map as
they read. An un-merge therefore gives both records back exactly.

Two players who sat in the same game (a result counts) are never merged:
their shared games would seat one player twice (``players-met``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from uuid import UUID

import psycopg

from service.records import access
from service.records.access import Principal
from service.records.club import sign_ins
from service.records.errors import Conflict, Invalid, NotFound
from service.records.log import notify, store
from service.records.log.context import Records

PLAYERS_MERGED = "PlayersMerged"
PLAYERS_UNMERGED = "PlayersUnmerged"

#: The most merge events one club keeps: each merge folds them all.
MOST_EVENTS = 10_000


# -- the fold (pure) -----------------------------------------------------------


def fold(events: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, str]:
    """Each merged-in player and the player they were merged into, as the
    club's merge events (type, data) leave them."""
    into: dict[str, str] = {}
    for event_type, data in events:
        if event_type == PLAYERS_MERGED:
            into[str(data["merged"])] = str(data["kept"])
        elif event_type == PLAYERS_UNMERGED:
            into.pop(str(data["merged"]), None)
    return into


def kept(into: Mapping[str, str]) -> dict[str, str]:
    """Each merged-in player and the player they follow in the end (a merge
    into a player later merged in follows that one's merge)."""
    resolved = {}
    for merged in into:
        player = merged
        while player in into:
            player = into[player]
        resolved[merged] = player
    return resolved


def follow(mapping: Mapping[str, str], seats: Sequence[Any]) -> list[str]:
    """Seats (player ids) as the players they follow now."""
    return [mapping.get(str(s), str(s)) for s in seats]


# -- reads ---------------------------------------------------------------------


def mapping(conn: psycopg.Connection, club_id: UUID) -> dict[str, str]:
    """The club's merged-in players and whom each follows now."""
    rows = conn.execute(
        "SELECT merged_id, kept_id FROM player_merges WHERE club_id = %s", (club_id,)
    ).fetchall()
    return {str(r["merged_id"]): str(r["kept_id"]) for r in rows}


def group(conn: psycopg.Connection, player_id: UUID) -> list[str]:
    """The player's id and those of every player merged into them."""
    rows = conn.execute("SELECT merged_id FROM player_merges WHERE kept_id = %s", (player_id,)).fetchall()
    return [str(player_id), *sorted(str(r["merged_id"]) for r in rows)]


def groups(conn: psycopg.Connection, player_ids: Sequence[UUID]) -> dict[str, list[str]]:
    """For each of ``player_ids``, the group of the player it follows now:
    that player's id and those of every player merged into them."""
    rows = conn.execute(
        "SELECT x.id, k.kept, array(SELECT m.merged_id FROM player_merges m WHERE m.kept_id = k.kept"
        " ORDER BY m.merged_id) AS merged"
        " FROM unnest(%s::uuid[]) AS x(id) CROSS JOIN LATERAL"
        " (SELECT coalesce((SELECT kept_id FROM player_merges WHERE merged_id = x.id), x.id) AS kept) AS k",
        (list(player_ids),),
    ).fetchall()
    return {str(r["id"]): [str(r["kept"]), *(str(m) for m in r["merged"])] for r in rows}


def followed(conn: psycopg.Connection, player_id: UUID) -> UUID:
    """The player ``player_id`` follows now: itself unless merged in."""
    row = conn.execute("SELECT kept_id FROM player_merges WHERE merged_id = %s", (player_id,)).fetchone()
    return row["kept_id"] if row else player_id


def merged_in(
    records: Records, club_id: UUID, principal: Principal | None
) -> dict[UUID, list[dict[str, Any]]]:
    """Each kept player of the club and the players merged into them (id, name), for the organiser."""
    access.club_admin(principal, club_id)
    with records.pool.connection() as conn:
        rows = conn.execute(
            "SELECT m.kept_id, p.id, p.name FROM player_merges m JOIN players p ON p.id = m.merged_id"
            " WHERE m.club_id = %s ORDER BY p.name",
            (club_id,),
        ).fetchall()
    kept_players: dict[UUID, list[dict[str, Any]]] = {}
    for r in rows:
        kept_players.setdefault(r["kept_id"], []).append({"id": r["id"], "name": r["name"]})
    return kept_players


# -- writes --------------------------------------------------------------------


def merge_players(
    records: Records, club_id: UUID, merged_id: UUID, kept_id: UUID, principal: Principal | None
) -> dict[str, Any]:
    """Merge ``merged_id`` into ``kept_id`` (the organiser): from now on every
    game, result, rating, figure and sign-in of the first follows the second."""
    who = access.club_admin(principal, club_id, app_scope="players")
    if merged_id == kept_id:
        raise Invalid("merge-itself", "A player is not merged into themselves.")
    with records.pool.connection() as conn, conn.transaction():
        version, events = _lock(conn, club_id)
        players = _players(conn, club_id, (merged_id, kept_id))
        into = fold(events)
        if str(merged_id) in into:
            raise Conflict("player-merged", "That player is already merged into another.")
        if str(kept_id) in into:
            raise Conflict("player-merged", "That player is merged into another: merge into the one kept.")
        now = kept(into)
        ours = [p for p, k in now.items() if k == str(merged_id)] + [str(merged_id)]
        theirs = [p for p, k in now.items() if k == str(kept_id)] + [str(kept_id)]
        if _met(conn, club_id, ours, theirs):
            raise Conflict(
                "players-met",
                f"{players[merged_id]} and {players[kept_id]} played in the same game, so they are two people.",
            )
        data = {"merged": str(merged_id), "kept": str(kept_id)}
        recorded = _append(conn, club_id, version, PLAYERS_MERGED, data, who)
    sign_ins.tokens_changed()
    notify.publish(records.listeners, 0)
    return {**data, "version": version + 1, "merged_at": recorded}


def unmerge_player(
    records: Records, club_id: UUID, merged_id: UUID, principal: Principal | None
) -> dict[str, Any]:
    """Take back the merge of ``merged_id``: both records are again as they
    were recorded (games recorded meanwhile under the kept player stay theirs)."""
    who = access.club_admin(principal, club_id, app_scope="players")
    with records.pool.connection() as conn, conn.transaction():
        version, events = _lock(conn, club_id)
        _players(conn, club_id, (merged_id,))
        into = fold(events)
        if str(merged_id) not in into:
            raise Conflict("player-not-merged", "That player is not merged into another.")
        data = {"merged": str(merged_id), "kept": into[str(merged_id)]}
        recorded = _append(conn, club_id, version, PLAYERS_UNMERGED, data, who)
    sign_ins.tokens_changed()
    notify.publish(records.listeners, 0)
    return {**data, "version": version + 1, "unmerged_at": recorded}


def _lock(conn: psycopg.Connection, club_id: UUID) -> tuple[int, list[tuple[str, dict[str, Any]]]]:
    """The club's row locked (the merges' one writer), and its merge events."""
    if conn.execute("SELECT id FROM clubs WHERE id = %s FOR UPDATE", (club_id,)).fetchone() is None:
        raise NotFound("club")
    rows = conn.execute(
        "SELECT version, type, data FROM player_merge_events WHERE club_id = %s ORDER BY version", (club_id,)
    ).fetchall()
    if len(rows) >= MOST_EVENTS:
        raise Conflict("too-many-merges", "This club has merged and un-merged players too many times.")
    return (rows[-1]["version"] if rows else 0), [(r["type"], r["data"]) for r in rows]


def _players(conn: psycopg.Connection, club_id: UUID, ids: Sequence[UUID]) -> dict[UUID, str]:
    rows = conn.execute(
        "SELECT id, name FROM players WHERE club_id = %s AND id = ANY(%s)", (club_id, list(ids))
    ).fetchall()
    if len(rows) != len(set(ids)):
        raise NotFound("player")
    return {r["id"]: r["name"] for r in rows}


def _met(conn: psycopg.Connection, club_id: UUID, ours: list[str], theirs: list[str]) -> bool:
    """Whether one of ``ours`` and one of ``theirs`` sat in the same game of the club."""
    return (
        conn.execute(
            "SELECT 1 FROM games WHERE club_id = %s AND seats ?| %s AND seats ?| %s LIMIT 1",
            (club_id, ours, theirs),
        ).fetchone()
        is not None
    )


def _append(
    conn: psycopg.Connection, club_id: UUID, after: int, event_type: str, data: dict[str, Any], who: Principal
) -> Any:
    """The event appended after version ``after``, and ``player_merges`` made what the stream now says."""
    row = conn.execute(
        "INSERT INTO player_merge_events (club_id, version, type, data, metadata)"
        " VALUES (%s, %s, %s, %s::jsonb, %s::jsonb) RETURNING recorded_at",
        (
            club_id,
            after + 1,
            event_type,
            store.event_json(data).decode(),
            store.event_json({"actor": who.label()}).decode(),
        ),
    ).fetchone()
    _rebuild(conn, club_id)
    return row["recorded_at"]


def events_of(conn: psycopg.Connection, club_id: UUID) -> list[dict[str, Any]]:
    """The club's merge events in order (type, data, when), as a backup carries them."""
    return conn.execute(
        "SELECT type, data, recorded_at FROM player_merge_events WHERE club_id = %s ORDER BY version",
        (club_id,),
    ).fetchall()


def checked(events: Sequence[Any], players_by_old: Mapping[str, str]) -> list[tuple[str, dict[str, str]]]:
    """A backup's merge events (type, data) naming the new club's players,
    each one a merge or un-merge the club could have taken in that order
    (no player merged twice or into one merged in, none un-merged unless
    merged); refused whole (``Invalid``) otherwise."""
    if len(events) > MOST_EVENTS:
        raise Invalid("too-many-merges", f"A club keeps at most {MOST_EVENTS} merges and un-merges.")
    carried: list[tuple[str, dict[str, str]]] = []
    into: dict[str, str] = {}
    for number, event in enumerate(events, start=1):
        data = event.get("data") if isinstance(event, dict) else None
        kind = event.get("type") if isinstance(event, dict) else None
        if kind not in (PLAYERS_MERGED, PLAYERS_UNMERGED) or not isinstance(data, dict):
            raise Invalid("merge-refused", f"Merge {number} is neither a merge nor an un-merge.")
        new = {k: players_by_old.get(str(data.get(k))) for k in ("merged", "kept")}
        if new["merged"] is None or new["kept"] is None or new["merged"] == new["kept"]:
            raise Invalid("merge-refused", f"Merge {number} names a player the club does not have.")
        if kind == PLAYERS_MERGED and (new["merged"] in into or new["kept"] in into):
            raise Invalid("merge-refused", f"Merge {number} merges a player already merged in.")
        if kind == PLAYERS_UNMERGED and into.get(new["merged"]) != new["kept"]:
            raise Invalid("merge-refused", f"Merge {number} takes back a merge the club does not have.")
        data = {"merged": new["merged"], "kept": new["kept"]}
        if kind == PLAYERS_MERGED:
            into[data["merged"]] = data["kept"]
        else:
            del into[data["merged"]]
        carried.append((kind, data))
    return carried


def store_carried(
    conn: psycopg.Connection, club_id: UUID, events: Sequence[tuple[str, Mapping[str, Any]]], who: Principal
) -> None:
    """A new club's merge events (``checked``) appended in the caller's
    transaction, and ``player_merges`` made what they say."""
    if not events:
        return
    metadata = store.event_json({"actor": who.label()}).decode()
    conn.cursor().executemany(
        "INSERT INTO player_merge_events (club_id, version, type, data, metadata)"
        " VALUES (%s, %s, %s, %s::jsonb, %s::jsonb)",
        [
            (club_id, version, kind, store.event_json(dict(data)).decode(), metadata)
            for version, (kind, data) in enumerate(events, start=1)
        ],
    )
    _rebuild(conn, club_id)


def _rebuild(conn: psycopg.Connection, club_id: UUID) -> None:
    """``player_merges`` made what the club's stream of merges now says."""
    events = conn.execute(
        "SELECT type, data FROM player_merge_events WHERE club_id = %s ORDER BY version", (club_id,)
    ).fetchall()
    now = kept(fold((r["type"], r["data"]) for r in events))
    conn.execute("DELETE FROM player_merges WHERE club_id = %s", (club_id,))
    if now:
        conn.execute(
            "INSERT INTO player_merges (merged_id, club_id, kept_id)"
            " SELECT m, %s, k FROM unnest(%s::uuid[], %s::uuid[]) AS x(m, k)",
            (club_id, list(now), list(now.values())),
        )
