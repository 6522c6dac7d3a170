"""Connections: one pool per process, sessions that cannot stall everyone."""

from __future__ import annotations

from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

# One stuck session must not stall the others: a writer gives up waiting for a
# lock after LOCK_TIMEOUT, and a transaction left idle is cut off.
SESSION_SETTINGS = {
    "lock_timeout": "5s",
    "idle_in_transaction_session_timeout": "30s",
    "statement_timeout": "30s",
}


def conninfo(url: str, **settings: str) -> str:
    """``url`` with our session settings added to any ``options`` it has."""
    params = conninfo_to_dict(url)
    extra = " ".join(f"-c {k}={v}" for k, v in {**SESSION_SETTINGS, **settings}.items())
    params["options"] = f"{params.get('options', '')} {extra}".strip()
    return make_conninfo(**params)


#: Seconds to establish a connection before giving up (the server may be down or frozen).
CONNECT_TIMEOUT = 3


def make_pool(
    url: str, min_size: int = 1, max_size: int = 10, timeout: float = 30.0, **settings: str
) -> ConnectionPool:
    """A pool whose callers wait at most ``timeout`` for a connection (then
    ``PoolTimeout``, which the API answers with 503), and which checks a
    connection before lending it, so one broken by a database restart is
    replaced instead of failing a request."""
    params = conninfo_to_dict(conninfo(url, **settings))
    params.setdefault("connect_timeout", CONNECT_TIMEOUT)
    pool = ConnectionPool(
        make_conninfo(**params),
        min_size=min_size,
        max_size=max_size,
        timeout=timeout,
        check=ConnectionPool.check_connection,
        kwargs={"row_factory": dict_row},
        open=True,
        name="tablerecord",
    )
    pool.wait(timeout=30)
    return pool
