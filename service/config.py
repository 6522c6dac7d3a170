"""Settings from the environment; each has a default fit for one machine."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None
    #: A streaming replica for the reads that may lag (see ``service.records.log.context``).
    database_replica_url: str | None = None
    #: Bytes of WAL the replica may trail the primary by and still serve reads.
    replica_max_lag_bytes: int = 16 * 1024 * 1024
    broker_url: str | None = None
    snapshot_every: int = 100
    pool_size: int = 10
    #: Longest a request waits for a database connection before it answers 503.
    pool_timeout: float = 3.0
    db_wait_limit: float = 8.0
    max_body_bytes: int = 256 * 1024
    rate_limit: str = "600 per minute"
    rate_limit_enabled: bool = True
    rate_limit_storage: str = "memory://"
    secret_key: str | None = None  # signs the web pages' session (CSRF); one per deployment
    #: Fernet keys (comma-separated, the first seals) that seal a backup's hidden parts.
    backup_seal_key: str | None = None
    #: Longest one call to the rate-limit storage may take before the limiter
    #: counts in process memory instead (see docs/architecture.md, "Outages").
    rate_limit_storage_timeout: float = 0.5
    #: Requests whose bearer token does not authenticate, per client address.
    auth_failure_limit: str = "30 per minute"
    #: Clubs created per client address.
    club_creation_limit: str = "20 per hour"
    #: History imports and restores running at once in one API process, and per client address.
    imports_at_once: int = 2
    imports_per_address: int = 1
    #: The operator's bearer token (``GET /projections`` in full); none: nobody.
    operator_token: str | None = None
    #: Proxies in front of the service whose ``X-Forwarded-*`` headers are
    #: believed (the client's address, https); 0: none, the peer is the client.
    trusted_proxies: int = 0

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            database_url=env.get("DATABASE_URL"),
            database_replica_url=env.get("DATABASE_REPLICA_URL") or None,
            replica_max_lag_bytes=int(env.get("REPLICA_MAX_LAG_BYTES", cls.replica_max_lag_bytes)),
            broker_url=env.get("CELERY_BROKER_URL"),
            snapshot_every=int(env.get("SNAPSHOT_EVERY", cls.snapshot_every)),
            pool_size=int(env.get("DB_POOL_SIZE", cls.pool_size)),
            pool_timeout=float(env.get("DB_POOL_TIMEOUT", cls.pool_timeout)),
            db_wait_limit=float(env.get("DB_WAIT_LIMIT", cls.db_wait_limit)),
            max_body_bytes=int(env.get("MAX_BODY_BYTES", cls.max_body_bytes)),
            rate_limit=env.get("RATE_LIMIT", cls.rate_limit),
            rate_limit_enabled=env.get("RATE_LIMIT_ENABLED", "1") not in ("0", "false", "no"),
            rate_limit_storage=env.get("RATE_LIMIT_STORAGE_URI", cls.rate_limit_storage),
            secret_key=env.get("SECRET_KEY") or None,
            backup_seal_key=env.get("BACKUP_SEAL_KEY") or None,
            rate_limit_storage_timeout=float(
                env.get("RATE_LIMIT_STORAGE_TIMEOUT", cls.rate_limit_storage_timeout)
            ),
            auth_failure_limit=env.get("AUTH_FAILURE_LIMIT", cls.auth_failure_limit),
            club_creation_limit=env.get("CLUB_CREATION_LIMIT", cls.club_creation_limit),
            operator_token=env.get("OPERATOR_TOKEN") or None,
            trusted_proxies=int(env.get("TRUSTED_PROXIES", cls.trusted_proxies)),
            imports_at_once=int(env.get("IMPORTS_AT_ONCE", cls.imports_at_once)),
            imports_per_address=int(env.get("IMPORTS_PER_ADDRESS", cls.imports_per_address)),
        )
