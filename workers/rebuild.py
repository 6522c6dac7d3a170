"""Rebuild projections from zero: ``python -m workers.rebuild [name ...]``
(see ``workers/projections/rebuild.py``)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from service.records import db
from service.records.migrate import migrate
from workers.projections import PROJECTIONS
from workers.projections.rebuild import rebuild_all


def _database_url() -> tuple[str, object | None]:
    url = os.environ.get("DATABASE_URL")
    if url:
        return url, None
    from service.embedded import start_postgres

    var = Path(os.environ.get("TABLERECORD_VAR", Path(__file__).resolve().parent.parent / "var"))
    pg = start_postgres(var / "postgres")
    return pg.url, pg


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projections", nargs="*", help=f"any of {', '.join(PROJECTIONS)} (default: all)")
    args = parser.parse_args(argv)
    unknown = [p for p in args.projections if p not in PROJECTIONS]
    if unknown:
        parser.error(f"unknown projection(s): {', '.join(unknown)}")
    url, embedded = _database_url()
    try:
        with db.connect(url) as conn:
            migrate(conn)
        for done in rebuild_all(url, args.projections or None):
            print(
                f"{done.projection}: {done.events} events to position {done.position} in {done.seconds:.2f}s"
            )
    finally:
        if embedded is not None:
            embedded.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
