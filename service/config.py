"""Settings from the environment; each has a default fit for one machine."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None
    broker_url: str | None = None
    snapshot_every: int = 100
    pool_size: int = 10
    max_body_bytes: int = 256 * 1024
    rate_limit: str = "600 per minute"
    rate_limit_enabled: bool = True
    rate_limit_storage: str = "memory://"
    secret_key: str | None = None  # signs the web pages' session (CSRF); one per deployment

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            database_url=env.get("DATABASE_URL"),
            broker_url=env.get("CELERY_BROKER_URL"),
            snapshot_every=int(env.get("SNAPSHOT_EVERY", cls.snapshot_every)),
            pool_size=int(env.get("DB_POOL_SIZE", cls.pool_size)),
            max_body_bytes=int(env.get("MAX_BODY_BYTES", cls.max_body_bytes)),
            rate_limit=env.get("RATE_LIMIT", cls.rate_limit),
            rate_limit_enabled=env.get("RATE_LIMIT_ENABLED", "1") not in ("0", "false", "no"),
            rate_limit_storage=env.get("RATE_LIMIT_STORAGE_URI", cls.rate_limit_storage),
            secret_key=env.get("SECRET_KEY") or None,
        )
