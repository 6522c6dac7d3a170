"""Whole-game imports: a 1,000-game batch of documents checked by the import's
schema and imported in one transaction through the domain (each command
checked by its schema and replayed by its engine), beside
raw COPY of the same events into the same table (positions claimed as an
append claims them), in the same run."""

from __future__ import annotations

import random
import time
import uuid

import psycopg
from psycopg.types.json import Jsonb

from bench.support import bench_database
from engines import registry
from engines.base import GameConfig
from engines.chance import deal
from schemas.interchange import GameImport
from service.config import Settings
from service.records.access import Principal
from service.records.club import catalogs, clubs
from service.records.history import interchange
from service.records.log.context import Records
from service.records.log.db import make_pool
from service.records.recording.games import engine_config

GAMES = int(__import__("os").environ.get("BENCH_IMPORT_GAMES", "1000"))
MAX_COMMANDS = 400


def played(engine_id: str, config: GameConfig, rng: random.Random) -> dict:
    """A table game's document, played by the engine alone from random legal commands."""
    engine = registry.get(engine_id)
    state = engine.initial_state(config)
    for event in engine.setup(config):
        state = engine.evolve(state, event)
    commands = []
    while len(commands) < MAX_COMMANDS and not engine.outcome(state).finished:
        request = engine.chance(state)
        if request is not None:
            command = {**deal(request, rng), "seat": None}
        else:
            offered = [c for seat in range(config.seats) for c in engine.legal_commands(state, seat)]
            if not offered:
                break
            command = rng.choice(offered)
        for event in engine.decide(state, command):
            state = engine.evolve(state, event)
        commands.append(
            {"seat": command["seat"], "command": {k: v for k, v in command.items() if k != "seat"}}
        )
    return {
        "engine": engine_id,
        "seats": [{"name": f"Player {i}"} for i in range(config.seats)],
        "options": dict(config.options),
        "dealer": "table",
        "commands": commands,
    }


def documents(pool) -> list[dict]:
    rng = random.Random(2026)
    engine_ids = registry.available()
    with pool.connection() as conn:
        configs = {}
        for engine_id in engine_ids:
            engine = registry.get(engine_id)
            options = registry.game(engine_id).options().load(dict(registry.game(engine_id).trial.options))
            catalog = None
            if engine.catalog_kind:
                default = catalogs.default_catalog(engine_id)
                catalogs.ensure_stored(conn, default)
                catalog = {k: default[k] for k in ("kind", "id", "version")}
            configs[engine_id] = engine_config(conn, engine.min_seats, options, "table", catalog)
    return [played(e, configs[e], rng) for e in (engine_ids[i % len(engine_ids)] for i in range(GAMES))]


def import_batch(pool, batch: list[dict]) -> tuple[float, float, int]:
    """Seconds, this process's CPU seconds and events: every document checked
    by the import's schema, then all imported in one transaction through the
    domain (each command checked by its schema and replayed by its engine)."""
    records = Records(
        pool, snapshot_every=Settings.snapshot_every
    )  # snapshots kept as the service keeps them
    club = clubs.create_club(records, "Imports")
    admin = Principal(uuid.UUID(str(club["id"])), "admin")
    start, cpu = time.perf_counter(), time.process_time()
    documents = [GameImport().load(document) for document in batch]
    answer = interchange.import_games(records, admin.club_id, admin, documents)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return seconds, cpu, sum(game["version"] for game in answer.body["games"])


def raw_copy(url: str) -> tuple[float, int]:
    """The same events again, COPYed into the same table under fresh game rows."""
    with psycopg.connect(url) as conn:
        games = conn.execute("SELECT id FROM games").fetchall()
        new_ids = {g[0]: uuid.uuid4() for g in games}
        for old, new in new_ids.items():
            conn.execute(
                "INSERT INTO games (id, club_id, engine, seats, options, dealer, seed)"
                " SELECT %s, club_id, engine, seats, options, dealer, seed FROM games WHERE id = %s",
                (new, old),
            )
        rows = conn.execute(
            "SELECT club_id, game_id, version, type, data, metadata FROM events ORDER BY position"
        ).fetchall()
        conn.commit()
        start = time.perf_counter()
        (first,) = conn.execute("SELECT events_claim_positions(%s)", (len(rows),)).fetchone()
        with conn.cursor().copy(
            "COPY events (position, club_id, game_id, version, type, data, metadata) FROM STDIN"
        ) as copy:
            for i, (club, game, version, type_, data, metadata) in enumerate(rows):
                copy.write_row((first + i, club, new_ids[game], version, type_, Jsonb(data), Jsonb(metadata)))
        conn.commit()
        return time.perf_counter() - start, len(rows)


def main() -> None:
    with bench_database() as url:
        pool = make_pool(url, max_size=2)
        try:
            batch = documents(pool)
            seconds, cpu, events = import_batch(pool, batch)
        finally:
            pool.close()
        engines = sorted({d["engine"] for d in batch})
        print(
            f"import: {len(batch)} games ({', '.join(engines)}) in one transaction, {events} events in"
            f" {seconds:.2f} s = {events / seconds:,.0f} events/s ({len(batch) / seconds:,.0f} games/s);"
            f" {cpu:.2f} CPU s in this process = {events / cpu:,.0f} events per CPU second"
        )
        copy_seconds, copied = raw_copy(url)
        print(
            f"raw COPY of the same {copied} events into the same table: {copied / copy_seconds:,.0f} events/s"
        )


if __name__ == "__main__":
    main()
