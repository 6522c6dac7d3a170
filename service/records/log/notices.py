"""What PostgreSQL tells its listeners after each append commits.

Every statement that appends events sends one notice per game on the channel
``tablerecord_events`` (migration 0035): its club, game, last version and
last position. PostgreSQL delivers it when, and only if, the appending
transaction commits, to every session then listening: each event-stream
process listens on one connection of its own and wakes its readers. A notice
is only a wake-up: readers always read the log itself from their own
position, so a lost notice (the listening connection broken) costs a delay,
never an event. ``listen`` says when notices may have been lost (it yields
``Connected`` after it connects again), so that every reader reads once more.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from uuid import UUID

import psycopg

from service.records.log.db import conninfo

log = logging.getLogger(__name__)

CHANNEL = "tablerecord_events"
#: Seconds without a notice after which the listening connection is checked.
QUIET = 10.0
#: Seconds the check may take before the connection counts as broken.
CHECK_LIMIT = 5.0
#: Seconds between attempts to connect again, at first and at most.
FIRST_RETRY, LAST_RETRY = 0.5, 10.0


@dataclass(frozen=True)
class Connected:
    """Listening (again) on the server's session ``pid``: notices sent before may have been missed."""

    pid: int


@dataclass(frozen=True)
class Notice:
    """One game's appends in one committed statement."""

    club_id: UUID
    game_id: UUID
    version: int
    position: int


def parse(payload: str) -> Notice:
    club, game, version, position = payload.split(" ")
    return Notice(UUID(club), UUID(game), int(version), int(position))


async def listen(url: str) -> AsyncIterator[Notice | Connected]:
    """Every notice committed from now on, for ever: ``Connected`` first, and
    again each time the connection had to be made anew (notices sent while
    it was down are lost: whoever follows the log reads it again then)."""
    retry = FIRST_RETRY
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(
                conninfo(url), autocommit=True, connect_timeout=5
            ) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                retry = FIRST_RETRY
                yield Connected(conn.info.backend_pid)
                while True:
                    async for notify in conn.notifies(timeout=QUIET):
                        yield parse(notify.payload)
                    # Quiet for a while: is the server still there?
                    await asyncio.wait_for(conn.execute("SELECT 1"), CHECK_LIMIT)
        except (psycopg.Error, OSError, TimeoutError) as error:
            log.warning("listening for appended events failed (%s); again in %.1f s", error, retry)
        await asyncio.sleep(retry)
        retry = min(retry * 2, LAST_RETRY)
