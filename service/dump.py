"""The operator's backup of the whole deployment's database, and its restore:
``make backup`` and ``make restore`` (``python -m service.dump``).

A backup is ``pg_dump``'s custom format (compressed, every table, sequence
and the migrations applied), taken from a live service without stopping it:
pg_dump reads one consistent snapshot. A restore (``pg_restore``) replaces
the database's tables with the file's in one transaction: it stores all of
it or nothing. Stop the service's API processes and workers first.

The binaries are the server's own: with no ``DATABASE_URL``, the embedded
PostgreSQL's (the ``pgserver`` wheel ships pg_dump and pg_restore beside its
server, started here as ``make run`` starts it); with one, those in
``PG_BIN`` (a directory) or on the PATH, which must be of the server's major
version or newer.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

VAR = Path(os.environ.get("TABLERECORD_VAR", "var"))


def embedded_bin() -> Path:
    """The directory of the embedded PostgreSQL's binaries."""
    from pgserver._commands import POSTGRES_BIN_PATH

    return Path(POSTGRES_BIN_PATH)


def backup(url: str, file: Path, bin_dir: Path | None = None) -> Path:
    """The database at ``url`` dumped to ``file`` (pg_dump's custom format)."""
    file.parent.mkdir(parents=True, exist_ok=True)
    _run(_tool("pg_dump", bin_dir), "--format=custom", "--no-owner", f"--file={file}", f"--dbname={url}")
    return file


def restore(url: str, file: Path, bin_dir: Path | None = None) -> None:
    """The database at ``url`` made the one ``file`` holds, in one transaction:
    its tables are dropped and restored (a fresh database, or this one)."""
    if not file.is_file():
        raise SystemExit(f"no backup file {file}")
    _run(
        _tool("pg_restore", bin_dir),
        "--clean",
        "--if-exists",
        "--no-owner",
        "--single-transaction",
        "--exit-on-error",
        f"--dbname={url}",
        str(file),
    )


def _tool(name: str, bin_dir: Path | None) -> str:
    return str(bin_dir / name) if bin_dir else name


def _run(*command: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{Path(command[0]).name} failed: {done.stderr.strip()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.dump", description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["backup", "restore"])
    parser.add_argument("file", nargs="?", help="the backup file (backup: var/backups/<now>.dump)")
    args = parser.parse_args(argv)
    if args.action == "restore" and not args.file:
        parser.error("restore needs the backup file: make restore FILE=var/backups/….dump")
    file = Path(args.file or VAR / "backups" / f"tablerecord-{dt.datetime.now():%Y%m%d-%H%M%S}.dump")
    url, bin_dir, stop = os.environ.get("DATABASE_URL"), None, None
    if url:
        bin_dir = Path(os.environ["PG_BIN"]) if os.environ.get("PG_BIN") else None
    else:
        from service.embedded import start_postgres

        pg = start_postgres(VAR / "postgres")
        url, bin_dir, stop = pg.url, embedded_bin(), pg.stop
    try:
        if args.action == "backup":
            print(f"backed up to {backup(url, file, bin_dir)}")
        else:
            restore(url, file, bin_dir)
            print(f"restored from {file}")
    finally:
        if stop:
            stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
