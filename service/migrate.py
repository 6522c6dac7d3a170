"""Apply the schema's migrations: ``DATABASE_URL=… python -m service.migrate``,
once per release before the new code serves (safe to repeat, and to run from
two hosts at once: ``migrate`` takes an advisory lock)."""

from __future__ import annotations

import os
import sys

import psycopg

from service.records.log.migrate import migrate


def main() -> int:
    url = os.environ.get("DATABASE_URL")
    if not url:
        print("Set DATABASE_URL to the deployment's PostgreSQL.", file=sys.stderr)
        return 2
    with psycopg.connect(url, autocommit=True) as conn:
        applied = migrate(conn)
    print(f"migrations applied: {', '.join(map(str, applied)) if applied else 'none (up to date)'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
