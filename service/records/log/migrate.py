"""Applies the numbered SQL files in ``service/records/log/migrations`` once each, in order."""

from __future__ import annotations

from pathlib import Path

import psycopg
from psycopg.rows import tuple_row

MIGRATIONS = Path(__file__).parent / "migrations"
LOCK_KEY = 7_302_001  # serialises concurrent starters


def pending(applied: set[int]) -> list[tuple[int, Path]]:
    files = sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql"))
    return [(int(f.name[:4]), f) for f in files if int(f.name[:4]) not in applied]


def migrate(conn: psycopg.Connection) -> list[int]:
    """Apply what is missing; returns the numbers applied."""
    done: list[int] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " number integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        applied = {
            number
            for (number,) in conn.cursor(row_factory=tuple_row).execute(
                "SELECT number FROM schema_migrations"
            )
        }
        for number, path in pending(applied):
            conn.execute(path.read_text())
            conn.execute("INSERT INTO schema_migrations (number, name) VALUES (%s, %s)", (number, path.name))
            done.append(number)
    return done


def main() -> None:
    import os

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        applied = migrate(conn)
    print(f"migrations applied: {applied or 'none (up to date)'}")


if __name__ == "__main__":
    main()
