"""Connections: one pool per process, sessions that cannot stall everyone."""

from __future__ import annotations

import os
import socket
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from service.records.errors import Busy, GameMoved, Unavailable

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


#: Seconds after which a pooled connection is checked again before it is lent.
RECENTLY_USED = 1.0

#: Seconds to establish a connection before giving up (the server may be down or frozen).
CONNECT_TIMEOUT = 3


#: Seconds a connection may wait on the server for one answer before it is cut
#: (a frozen server answers nothing, and never cancels its own statements).
WAIT_LIMIT = 8.0


class Watchdog:
    """Cuts a lent connection whose command has been in flight for longer
    than ``limit`` seconds: its socket is shut down, so the caller's wait ends
    at once with ``OperationalError`` (``Unavailable``, a 503) instead of
    lasting as long as the server is frozen. The server's own
    ``statement_timeout`` cannot do this, since a frozen server runs no timer.
    Time spent in Python between statements (replaying an import) is not
    counted: only a command sent and not yet answered (libpq's ``ACTIVE``)."""

    TICK = 0.25

    def __init__(self, limit: float):
        self.limit = limit
        self._lent: dict[int, tuple[psycopg.Connection, list[float | None]]] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def watch(self, conn: psycopg.Connection) -> None:
        with self._lock:
            self._lent[id(conn)] = (conn, [None])
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="db-watchdog", daemon=True)
                self._thread.start()

    def unwatch(self, conn: psycopg.Connection) -> None:
        with self._lock:
            self._lent.pop(id(conn), None)

    def _run(self) -> None:
        while True:
            time.sleep(self.TICK)
            now = time.monotonic()
            with self._lock:
                lent = list(self._lent.values())
            for conn, since in lent:
                try:
                    active = conn.pgconn.transaction_status == psycopg.pq.TransactionStatus.ACTIVE
                except Exception:  # noqa: BLE001 - a connection closed meanwhile
                    continue
                if not active:
                    since[0] = None
                elif since[0] is None:
                    since[0] = now
                elif now - since[0] > self.limit:
                    self.unwatch(conn)
                    _cut(conn)


def _cut(conn: psycopg.Connection) -> None:
    """Shut the connection's socket down under its waiting owner."""
    try:
        with socket.socket(fileno=os.dup(conn.pgconn.socket)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class Pool(ConnectionPool):
    """A pool whose connections report a lock not granted in time (or a
    statement cut off) as ``Busy``: the transaction was rolled back, nothing
    was stored; an append whose game had moved on as ``GameMoved``; and a
    database that is down, restarting, or gives no connection within the
    pool's timeout as ``Unavailable``."""

    def __init__(self, *args, wait_limit: float = WAIT_LIMIT, **kwargs):
        self._returned: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.watchdog = Watchdog(wait_limit)
        super().__init__(*args, check=self._check_if_idle, **kwargs)

    def _check_if_idle(self, conn: psycopg.Connection) -> None:
        """Check a connection before lending it, unless it came back healthy
        less than ``RECENTLY_USED`` seconds ago: its last use proved the
        server alive, and under load the check's round trip would otherwise
        precede every request. A connection the server dropped in that
        second fails its request with ``Unavailable`` and is then discarded."""
        returned = self._returned.get(conn)
        if returned is None or time.monotonic() - returned > RECENTLY_USED:
            self.watchdog.watch(conn)
            try:
                ConnectionPool.check_connection(conn)
            finally:
                self.watchdog.unwatch(conn)

    def putconn(self, conn: psycopg.Connection) -> None:
        if not conn.broken:
            self._returned[conn] = time.monotonic()
        super().putconn(conn)

    @contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[psycopg.Connection]:
        try:
            with super().connection(timeout) as conn:
                self.watchdog.watch(conn)
                try:
                    with conn:  # the commit or rollback that ends the block is watched too
                        yield conn
                finally:
                    self.watchdog.unwatch(conn)
        except (psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled) as error:
            raise Busy("busy", "The game is busy; nothing was stored. Retry shortly.") from error
        except psycopg.errors.SerializationFailure as error:
            raise GameMoved(str(error)) from error
        except (psycopg.OperationalError, psycopg.InterfaceError) as error:
            raise Unavailable(
                "database-unavailable", "The database is unavailable; retry after Retry-After seconds."
            ) from error


@contextmanager
def write_transaction(pool: ConnectionPool) -> Iterator[psycopg.Connection]:
    """One transaction in pipeline mode: BEGIN travels with the first
    statement whose result is read, and COMMIT with whatever was queued
    after the last read, so a read-then-write transaction costs two round
    trips instead of four. Results of statements queued at the end are
    available once the block has exited."""
    with pool.connection() as conn:
        conn.autocommit = True  # BEGIN and COMMIT are ours, so they can be pipelined
        try:
            with conn.pipeline():
                conn.execute("BEGIN")
                yield conn
                conn.execute("COMMIT")
        finally:
            if not conn.closed:
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    conn.execute("ROLLBACK")
                conn.autocommit = False


@contextmanager
def one_statement_transactions(pool: ConnectionPool) -> Iterator[psycopg.Connection]:
    """A connection on which each statement is its own transaction: for a
    write that is one statement, no BEGIN or COMMIT travels with it."""
    with pool.connection() as conn:
        conn.autocommit = True
        try:
            yield conn
        finally:
            if not conn.closed:
                conn.autocommit = False


def make_pool(
    url: str,
    min_size: int = 1,
    max_size: int = 10,
    timeout: float = 30.0,
    wait_limit: float = WAIT_LIMIT,
    wait: bool = True,
    **settings: str,
) -> Pool:
    """A pool whose callers wait at most ``timeout`` for a connection and
    ``wait_limit`` for any one answer of the server (``Watchdog``), and
    which checks a connection before lending it, so one broken by a database
    restart is replaced instead of failing a request. ``wait=False``: the
    pool fills in the background (a replica that is down at start is not
    waited for)."""
    params = conninfo_to_dict(conninfo(url, **settings))
    params.setdefault("connect_timeout", CONNECT_TIMEOUT)
    pool = Pool(
        make_conninfo(**params),
        min_size=min_size,
        max_size=max_size,
        timeout=timeout,
        wait_limit=wait_limit,
        kwargs={"row_factory": dict_row},
        open=True,
        name="tablerecord",
    )
    if wait:
        pool.wait(timeout=30)
    return pool


def connect(url: str, **settings: str) -> psycopg.Connection:
    """One autocommit connection with dict rows (callers open their own transactions)."""
    return psycopg.connect(conninfo(url, **settings), autocommit=True, row_factory=dict_row)


def ping(pool: ConnectionPool) -> None:
    """One round trip to the database (the health check)."""
    with pool.connection() as conn:
        conn.execute("SELECT 1")
