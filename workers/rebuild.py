"""Rebuild projections from zero: ``python -m workers.rebuild [name ...]``
(see ``workers/projections/rebuild.py``)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from tqdm import tqdm

from service.records.log import db
from service.records.log.migrate import migrate
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


class ProgressBars:
    """One tqdm bar per projection on stderr: log events read of those there
    were when it began, the rate, and the time left (tqdm measures and
    throttles; on a terminal the line redraws in place)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.bars: list[tqdm] = []

    def __call__(self, name: str):
        bar = tqdm(desc=name, unit=" events", unit_scale=True, file=self.stream, mininterval=1.0, delay=0)
        self.bars.append(bar)

        def advance(position: int, head: int) -> None:
            bar.total = max(head, position)
            bar.update(position - bar.n)
            if position >= head:
                bar.close()

        return advance

    @contextlib.contextmanager
    def shown(self) -> Iterator[ProgressBars]:
        try:
            yield self
        finally:
            for bar in self.bars:
                bar.close()


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
        with ProgressBars().shown() as bars:
            rebuilt = rebuild_all(url, args.projections or None, on_progress=bars)
        for done in rebuilt:
            print(
                f"{done.projection}: {done.events} events to position {done.position} in {done.seconds:.2f}s"
            )
    finally:
        if embedded is not None:
            embedded.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
