"""Connections for the workers: one per process, reopened after a failure."""

from __future__ import annotations

import contextlib
import os

import psycopg

from service.records.log import db

_conn: psycopg.Connection | None = None
_pid: int | None = None


def database_url() -> str:
    url = os.environ.get("DATABASE_URL")
    if not url:
        raise RuntimeError("DATABASE_URL is not set")
    return url


def connect(url: str | None = None, **settings: str) -> psycopg.Connection:
    """An autocommit connection (callers open their own transactions)."""
    return db.connect(url or database_url(), **settings)


def shared() -> psycopg.Connection:
    """This process's connection; a new one after a fork or a broken one."""
    global _conn, _pid
    if _conn is None or _conn.closed or _conn.broken or _pid != os.getpid():
        _conn, _pid = connect(), os.getpid()
    return _conn


def discard() -> None:
    global _conn
    if _conn is not None and _pid == os.getpid():
        with contextlib.suppress(Exception):
            _conn.close()
    _conn = None
