"""Import a club's play history from a file: ``python -m service.import_history FILE --club CLUB``.

The file is a BG Stats backup (``.json``), a BoardGameGeek plays export
(``.xml``) or a CSV (``date, game, player, score, place``); every play
becomes a result-only game, all or nothing (see ``service/records/history/imports.py``).
The club's admin token authorises it (``--token`` or ``TABLERECORD_TOKEN``).
A progress bar moves every hundred plays; a refused import lists each
refused line or play with its reason and stores nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from uuid import UUID

from tqdm import tqdm

from service.records import access
from service.records.errors import DomainError
from service.records.history import imports
from service.records.history.formats import FORMATS, guess_format
from service.records.log import db
from service.records.log.context import Records
from service.records.log.migrate import migrate


def _database_url() -> tuple[str, object | None]:
    url = os.environ.get("DATABASE_URL")
    if url:
        return url, None
    from service.embedded import start_postgres

    var = Path(os.environ.get("TABLERECORD_VAR", Path(__file__).resolve().parent.parent / "var"))
    pg = start_postgres(var / "postgres")
    return pg.url, pg


def _mapping(pairs: list[str], parser: argparse.ArgumentParser) -> dict[str, str]:
    mapping = {}
    for pair in pairs:
        name, sep, engine = pair.rpartition("=")
        if not sep or not name.strip():
            parser.error(f"--map takes NAME=ENGINE, not {pair!r}")
        mapping[name.strip()] = engine.strip()
    return mapping


def main(argv: list[str] | None = None, stream=None) -> int:
    stream = stream or sys.stderr
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="the history file")
    parser.add_argument("--club", required=True, type=UUID, help="the club's id")
    parser.add_argument("--token", default=os.environ.get("TABLERECORD_TOKEN"), help="the club's admin token")
    parser.add_argument("--format", choices=FORMATS, help="default: from the file's name")
    parser.add_argument("--league", type=UUID, help="put every play in this league")
    parser.add_argument(
        "--map", action="append", default=[], metavar="NAME=ENGINE", help="a game name's engine"
    )
    parser.add_argument(
        "--skip-unknown-games", action="store_true", help="skip plays of games not recorded here"
    )
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("the club's admin token is needed: --token or TABLERECORD_TOKEN")
    url, embedded = _database_url()
    try:
        with db.connect(url) as conn:
            migrate(conn)
            principal = access.principal_for(conn, access.hash_token(args.token))
        pool = db.make_pool(url, max_size=2)
        bar = tqdm(desc="plays judged", unit=" plays", file=stream, mininterval=0, delay=0)

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        try:
            report = imports.import_history(
                Records(pool),
                args.club,
                principal,
                args.format or guess_format(args.file.name),
                args.file.read_bytes(),
                mapping=_mapping(args.map, parser),
                skip_unknown_games=args.skip_unknown_games,
                league=args.league,
                progress=progress,
            )
        except DomainError as error:
            bar.close()
            print(f"Nothing was imported: {error.detail}", file=stream)
            for line in error.extra.get("refused", []):
                print(f"  {line['where']}: {line['reason']}", file=stream)
            return 1
        finally:
            bar.close()
            pool.close()
        print(
            f"Imported {report['imported']} plays ({report['already_imported']} imported before);"
            f" {len(report['players_added'])} new players.",
            file=stream,
        )
        for line in report["skipped"]:
            print(f"  skipped {line['where']}: {line['reason']}", file=stream)
        return 0
    finally:
        if embedded is not None:
            embedded.stop()


if __name__ == "__main__":
    sys.exit(main())
