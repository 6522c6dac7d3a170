"""Projections: rebuilding the standings of 10,000 games beside a plain read
of the same events, and the delay from a game's last event to its standings
row with a live Celery worker, all on the same PostgreSQL in one run.

The 10,000 games are real Pig games (the engine plays them with seeded dice)
written straight into the log with COPY, not through HTTP.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import tempfile
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from bench.support import ROOT, bench_database
from engines.base import GameConfig
from engines.pig import ENGINE as PIG
from service.records.log import store
from service.records.log.fold import SERVICE_EVENTS
from service.run import worker_command
from workers.projections.rebuild import rebuild

GAMES = int(os.environ.get("BENCH_PROJECTION_GAMES", "10000"))
PLAYERS = 30
LATENCY_GAMES = 5


def pig_game(rng: random.Random, seats: int) -> tuple[list[tuple[str, dict]], tuple]:
    config = GameConfig(seats=seats, options={"target": 20})
    state, events = PIG.initial_state(config), []
    while not PIG.outcome(state).finished:
        if PIG.chance(state) is not None:
            command = {"type": "ResolveRoll", "seat": None, "dice": [rng.randint(1, 6)]}
        elif state.turn_total >= rng.choice((6, 8, 10)):
            command = {"type": "Hold", "seat": state.turn}
        else:
            command = {"type": "Roll", "seat": state.turn}
        for event in PIG.decide(state, command):
            state = PIG.evolve(state, event)
            events.append((event.type, dict(event.data)))
    return events, PIG.outcome(state)


def generate(url: str, n_games: int, n_players: int = PLAYERS) -> tuple[uuid.UUID, list[uuid.UUID], int]:
    """A club, a league and ``n_games`` finished games among ``n_players``; returns (club, players, events)."""
    rng = random.Random(7)
    club, league = uuid.uuid4(), uuid.uuid4()
    players = [uuid.uuid4() for _ in range(n_players)]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    count = 0
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO clubs (id, name) VALUES (%s, 'bench')", (club,))
        conn.execute(
            "INSERT INTO leagues (id, club_id, name, points_table, min_games, public)"
            " VALUES (%s, %s, 'bench', %s, 5, true)",
            (league, club, Jsonb([10, 6, 3, 1])),
        )
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO players (id, club_id, name) VALUES (%s, %s, %s)",
                [(p, club, f"Player {i}") for i, p in enumerate(players)],
            )
        with conn.transaction(), conn.cursor() as cur:
            games, rows = [], []
            for g in range(n_games):
                game_id = uuid.uuid4()
                seats = [str(p) for p in rng.sample(players, rng.choice((2, 3, 4)))]
                events, outcome = pig_game(rng, len(seats))
                created = {
                    "engine": "pig",
                    "engine_version": PIG.version,
                    "club": str(club),
                    "league": str(league),
                    "seats": seats,
                    "options": {"target": 20},
                    "dealer": "server",
                    "public": True,
                    "catalog": None,
                }
                ended = {
                    "places": list(outcome.places),
                    "scores": list(outcome.scores),
                    "ended_by": outcome.ended_by,
                    "seed": "bench",
                }
                stream = [("GameCreated", created), *events, ("GameEnded", ended)]
                at = start + timedelta(minutes=g)
                for version, (kind, data) in enumerate(stream, start=1):
                    count += 1
                    rows.append(
                        (
                            club,
                            game_id,
                            version,
                            kind,
                            json.dumps(data),
                            '{"actor": "bench"}',
                            at + timedelta(seconds=version),
                        )
                    )
                games.append(
                    (
                        game_id,
                        club,
                        league,
                        "pig",
                        json.dumps(seats),
                        '{"target": 20}',
                        "server",
                        "bench",
                        True,
                        "finished",
                        len(stream),
                    )
                )
            with cur.copy(
                "COPY games (id, club_id, league_id, engine, seats, options, dealer, seed, public, status, version)"
                " FROM STDIN"
            ) as copy:
                for row in games:
                    copy.write_row(row)
            # This transaction's positions (see service/records/log/store.py).
            first = cur.execute("SELECT events_claim_positions(%s)", (len(rows),)).fetchone()[0]
            with cur.copy(
                "COPY events (position, club_id, game_id, version, type, data, metadata, recorded_at) FROM STDIN"
            ) as copy:
                for i, row in enumerate(rows):
                    copy.write_row((first + i, *row))
        conn.execute("ANALYZE")
    return club, players, count


def plain_read(url: str, types: list[str] | None = None) -> tuple[float, int]:
    """Seconds to read the log (or only events of ``types``) in position order, and how many."""
    started, count, after = time.perf_counter(), 0, 0
    with psycopg.connect(url, row_factory=dict_row) as conn:
        if types is None:
            count = sum(1 for _ in store.iter_all(conn, 0, 2000))
        else:
            while rows := conn.execute(
                f"SELECT {store.COLUMNS} FROM events WHERE position > %s AND type = ANY(%s)"
                " ORDER BY position LIMIT 2000",
                (after, types),
            ).fetchall():
                count, after = count + len(rows), rows[-1]["position"]
    return time.perf_counter() - started, count


def latency(url: str, club: uuid.UUID, players: list[uuid.UUID]) -> list[float]:
    """Seconds from a game's last event (through the API) to its standings row, live worker."""
    from service.app import create_app
    from service.config import Settings
    from service.embedded import start_redis
    from service.records.access import new_token
    from service.records.log.db import make_pool

    with tempfile.TemporaryDirectory() as tmp:
        broker = start_redis(Path(tmp) / "redis")
        env = {**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": broker.url}
        worker = subprocess.Popen(
            worker_command(str(Path(tmp) / "beat"), loglevel="WARNING"),
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        pool = make_pool(url, max_size=4)
        try:
            token, digest = new_token("admin")
            with pool.connection() as conn:
                conn.execute(
                    "INSERT INTO tokens (hash, club_id, kind) VALUES (%s, %s, 'admin')", (digest, club)
                )
                league = conn.execute("SELECT id FROM leagues WHERE club_id = %s", (club,)).fetchone()["id"]
            settings = replace(
                Settings.from_env(), database_url=url, broker_url=broker.url, rate_limit_enabled=False
            )
            client = create_app(settings, pool=pool).test_client()
            auth = {"Authorization": f"Bearer {token}"}
            _wait_caught_up(pool, 300)
            delays = []
            for i in range(LATENCY_GAMES):
                seats = [str(p) for p in players[i : i + 2]]
                game = client.post(
                    f"/clubs/{club}/games",
                    json={"engine": "pig", "seats": seats, "league": str(league), "options": {"target": 10}},
                    headers=auth,
                ).get_json()
                last = None
                while True:
                    view = client.get(f"/games/{game['id']}", headers=auth).get_json()
                    if view["status"] != "active":
                        break
                    kind = "Hold" if view["state"]["turn_total"] >= 6 else "Roll"
                    body = client.post(
                        f"/games/{game['id']}/actions",
                        headers=auth,
                        json={"seat": view["state"]["turn"], "command": {"type": kind}},
                    ).get_json()
                    last = body["events"][-1]["position"]
                ended = time.perf_counter()
                with pool.connection() as conn:
                    while True:
                        row = conn.execute(
                            "SELECT position FROM projection_checkpoints WHERE projection = 'standings'"
                        ).fetchone()
                        if row["position"] >= last:
                            break
                        time.sleep(0.005)
                delays.append(time.perf_counter() - ended)
            return delays
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            try:
                worker.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
            pool.close()
            broker.stop()


def _wait_caught_up(pool, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    with pool.connection() as conn:
        while time.monotonic() < deadline:
            head = store.head_position(conn)
            rows = conn.execute("SELECT min(position) AS p FROM projection_checkpoints").fetchone()
            if rows["p"] >= head:
                return
            time.sleep(0.2)
    raise RuntimeError("the worker did not catch up")


def main() -> None:
    with bench_database() as url:
        started = time.perf_counter()
        club, players, events = generate(url, GAMES)
        print(f"generated {GAMES:,} Pig games ({events:,} events) in {time.perf_counter() - started:.1f}s")
        read_s, read_n = plain_read(url)
        print(f"baseline: plain read of all {read_n:,} events in position order: {read_s:.2f}s")
        results_s, results_n = plain_read(url, sorted(SERVICE_EVENTS))
        print(
            f"baseline: plain read of the {results_n:,} game-record events the standings read: {results_s:.2f}s"
        )
        done = rebuild(url, "standings")
        print(
            f"rebuild standings of {GAMES:,} games from zero: {done.seconds:.2f}s"
            f" ({done.events:,} events applied; {done.seconds / results_s:.1f}x the plain read of them)"
        )
        for name in ("statistics", "replays"):
            done = rebuild(url, name)
            print(f"rebuild {name} from zero: {done.seconds:.2f}s ({done.events:,} events applied)")
        delays = latency(url, club, players)
        print(
            f"last event -> standings row, live worker, league of {GAMES:,} games: median "
            f"{statistics.median(delays) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms over {len(delays)} games"
        )


if __name__ == "__main__":
    main()
