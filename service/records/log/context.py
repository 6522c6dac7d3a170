"""What every domain call needs from the process that serves it."""

from __future__ import annotations

from dataclasses import dataclass, field

from psycopg_pool import ConnectionPool

from service.records.log.notify import Listener


@dataclass
class Records:
    """The process's pool, its snapshot interval and its after-commit listeners."""

    pool: ConnectionPool
    snapshot_every: int = 0
    listeners: list[Listener] = field(default_factory=list)
