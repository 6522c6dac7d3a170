"""What every domain call needs from the process that serves it: its pool,
its snapshot interval, its after-commit listeners, and the streaming replica
that may serve the reads that can lag (``DATABASE_REPLICA_URL``).

Standings, statistics, replays, profiles, search and the club's feed may be
read a moment late; a write never goes to the replica. Two rules keep a
reader's promises:

* **Read your writes.** A reader that names the position of its own write
  (``min_position``) is served by the replica only once the replica has
  replayed that write's commit (the event at that position is there); a
  replica that holds it but whose projections are still behind it hands the
  read to the primary, which answers as it always does (the data, or 503
  ``projection-behind``).
* **A replica too far behind is skipped.** At most once a second a process
  compares the primary's WAL position with the replica's replay position; while
  the replica is more than ``max_lag_bytes`` behind, or unreachable, every read
  goes to the primary.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import psycopg
from psycopg_pool import ConnectionPool

from service.records.errors import Invalid, ProjectionBehind, Unavailable
from service.records.log.db import make_pool
from service.records.log.notify import Listener

T = TypeVar("T")

#: Seconds between two checks of the replica's lag in one process.
CHECK_EVERY = 1.0


def lsn(text: str) -> int:
    """A WAL position ('16/B374D848') as a number of bytes."""
    high, low = text.split("/")
    return (int(high, 16) << 32) + int(low, 16)


@dataclass
class Replica:
    pool: ConnectionPool
    #: Bytes of WAL the replica may trail the primary by and still serve reads.
    max_lag_bytes: int
    check_every: float = CHECK_EVERY
    _checked_at: float = field(default=float("-inf"), init=False)
    _close_enough: bool = field(default=False, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def close_enough(self, primary: ConnectionPool) -> bool:
        """Whether the replica trails the primary by at most ``max_lag_bytes`` (checked at most once a ``check_every``)."""
        with self._lock:
            if time.monotonic() - self._checked_at < self.check_every:
                return self._close_enough
            self._checked_at = time.monotonic()
            try:
                with primary.connection() as conn:
                    head = lsn(conn.execute("SELECT pg_current_wal_lsn()::text AS lsn").fetchone()["lsn"])
                with self.pool.connection() as conn:
                    replayed = conn.execute("SELECT pg_last_wal_replay_lsn()::text AS lsn").fetchone()["lsn"]
                self._close_enough = replayed is not None and head - lsn(replayed) <= self.max_lag_bytes
            except (psycopg.Error, Unavailable, OSError):
                self._close_enough = False
            return self._close_enough

    @classmethod
    def open(cls, url: str, max_lag_bytes: int, **pool_settings: float) -> Replica:
        """The replica at ``url``, its pool filled in the background (one that is down at start is not waited for)."""
        return cls(make_pool(url, wait=False, **pool_settings), max_lag_bytes)

    def has_replayed(self, position: int) -> bool:
        with self.pool.connection() as conn:
            return (
                conn.execute("SELECT 1 FROM events WHERE position = %s", (position,)).fetchone() is not None
            )


@dataclass
class Records:
    """The process's pool, its snapshot interval and its after-commit listeners;
    the streaming replica that reads which may lag can use, if any; and the
    keys that seal a backup's hidden parts (``history.sealing``)."""

    pool: ConnectionPool
    snapshot_every: int = 0
    listeners: list[Listener] = field(default_factory=list)
    replica: Replica | None = None
    seal_keys: tuple[str, ...] = ()


def read(records: Records, min_position: int | None, call: Callable[[Records], T]) -> T:
    """``call`` on the replica when it may serve this read, else (or when it
    cannot answer it) on the primary."""
    replica = records.replica
    if replica is None or not replica.close_enough(records.pool):
        return call(records)
    try:
        if min_position is not None and not replica.has_replayed(min_position):
            return call(records)
        return call(dataclasses.replace(records, pool=replica.pool, listeners=[], replica=None))
    except ProjectionBehind:
        return call(records)
    except Invalid as refused:
        if refused.code == "position-not-reached":  # not replayed here yet: the primary knows
            return call(records)
        raise
    except (psycopg.OperationalError, Unavailable):
        return call(records)
