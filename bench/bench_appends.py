"""Appends through the HTTP API beside raw INSERT+COMMIT, and replay with and
without snapshots, all on the same PostgreSQL in one run."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import psycopg
from psycopg.types.json import Jsonb

from bench.support import ROOT, bench_database, percentile, timed
from service.records import acting, creation, fold, games, states
from service.records.access import Principal
from service.records.context import Records
from service.records.db import make_pool

GAMES = 8
SECONDS = 8.0


def raw_inserts(url: str, connections: int, seconds: float) -> float:
    """Events/s for one INSERT + COMMIT per event over ``connections`` sessions."""
    club, game_ids = uuid.uuid4(), [uuid.uuid4() for _ in range(connections)]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO clubs (id, name) VALUES (%s, 'raw')", (club,))
        for g in game_ids:
            conn.execute(
                "INSERT INTO games (id, club_id, engine, seats, options, dealer, seed)"
                " VALUES (%s, %s, 'pig', '[]', '{}', 'server', 's')",
                (g, club),
            )
    counts = [0] * connections
    deadline = time.perf_counter() + seconds

    def writer(i: int) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            version = 0
            while time.perf_counter() < deadline:
                version += 1
                conn.execute(
                    "INSERT INTO events (position, game_id, version, type, data, metadata)"
                    " VALUES (nextval('events_position_seq'), %s, %s, 'Noted', %s, %s)",
                    (game_ids[i], version, Jsonb({"value": version}), Jsonb({"actor": "bench"})),
                )
                counts[i] += 1

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(connections)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - start)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_appends(url: str, seconds: float) -> tuple[float, float, float, float]:
    """(events/s, requests/s, p50 ms, p99 ms) posting Pig rolls to 8 games at once."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "RATE_LIMIT_ENABLED": "0"}
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "-w",
            "3",
            "-b",
            f"127.0.0.1:{port}",
            "--threads",
            "2",
            "service.wsgi:app",
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/health")
                break
            except OSError:
                time.sleep(0.1)

        def call(conn, method, path, body=None, token=None):
            headers = {"Content-Type": "application/json"}
            if token:
                headers["Authorization"] = f"Bearer {token}"
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            r = conn.getresponse()
            return r.status, json.loads(r.read() or b"{}")

        setup = http.client.HTTPConnection("127.0.0.1", port)
        _, club = call(setup, "POST", "/clubs", {"name": "bench"})
        token = club["admin_token"]
        players = [
            call(setup, "POST", f"/clubs/{club['id']}/players", {"name": f"p{i}"}, token)[1]["id"]
            for i in range(2)
        ]
        game_ids = [
            call(
                setup,
                "POST",
                f"/clubs/{club['id']}/games",
                {"engine": "pig", "seats": players, "options": {"target": 500}},
                token,
            )[1]["id"]
            for _ in range(GAMES)
        ]
        latencies: list[float] = []
        events = [0] * GAMES
        deadline = time.perf_counter() + seconds

        def player(i: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port)
            seat, total = 0, 0
            while time.perf_counter() < deadline:
                kind = "Hold" if total >= 12 else "Roll"
                t0 = time.perf_counter()
                status, body = call(
                    conn,
                    "POST",
                    f"/games/{game_ids[i]}/actions",
                    {"seat": seat, "command": {"type": kind}},
                    token,
                )
                latencies.append(time.perf_counter() - t0)
                if status != 201:
                    return
                events[i] += len(body["events"])
                types = [e["type"] for e in body["events"]]
                if "GameEnded" in types:
                    return
                if "TurnBusted" in types or "TurnHeld" in types:
                    seat, total = 1 - seat, 0
                else:
                    total += next(e["data"]["value"] for e in body["events"] if e["type"] == "DieRolled")

        threads = [threading.Thread(target=player, args=(i,)) for i in range(GAMES)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
        return (
            sum(events) / elapsed,
            len(latencies) / elapsed,
            percentile(latencies, 50) * 1000,
            percentile(latencies, 99) * 1000,
        )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)


def replay_times(url: str, target_events: int = 1000) -> tuple[int, float, float]:
    """(events, ms without snapshots, ms with snapshots) for one Pig game."""
    pool = make_pool(url)
    try:
        club, players = uuid.uuid4(), [str(uuid.uuid4()), str(uuid.uuid4())]
        with pool.connection() as conn:
            conn.execute("INSERT INTO clubs (id, name) VALUES (%s, 'replay')", (club,))
            for p in players:
                conn.execute("INSERT INTO players (id, club_id, name) VALUES (%s, %s, %s)", (p, club, p))
        admin = Principal(club, "admin")
        records = Records(pool, snapshot_every=100)
        game, _ = creation.new_game(
            records, club, admin, {"engine": "pig", "seats": players}, {"target": 10_000}, None
        )
        while True:
            with pool.connection() as conn:
                g = games.get_game(conn, game.id)
                state = states.load_state(conn, g)
            if g.version >= target_events or g.status != "active":
                break
            kind = "Hold" if state.turn_total >= 15 else "Roll"
            acting.act(records, game.id, admin, state.turn, {"type": kind})
        with pool.connection() as conn:
            g = games.get_game(conn, game.id)
            config = games.config_of(conn, g)
            full = timed(
                lambda: fold.current_state(conn, g.engine, config, g.id, g.version, use_snapshots=False), 7
            )
            snap = timed(lambda: fold.current_state(conn, g.engine, config, g.id, g.version), 7)
        return g.version, full * 1000, snap * 1000
    finally:
        pool.close()


def main() -> None:
    with bench_database() as url:
        raw1 = raw_inserts(url, 1, SECONDS / 2)
        raw8 = raw_inserts(url, GAMES, SECONDS / 2)
        ev_s, req_s, p50, p99 = http_appends(url, SECONDS)
        n, full_ms, snap_ms = replay_times(url)
    print(f"{'raw INSERT+COMMIT, 1 connection':48} {raw1:9.0f} events/s")
    print(f"{'raw INSERT+COMMIT, 8 connections':48} {raw8:9.0f} events/s")
    print(
        f"{'HTTP validated appends, 8 games in parallel':48} {ev_s:9.0f} events/s "
        f"({req_s:.0f} actions/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms)"
    )
    print(f"{'  HTTP / raw (8 connections)':48} {ev_s / raw8:9.0%}")
    print(f"{'  HTTP / raw (1 connection)':48} {ev_s / raw1:9.0%}")
    print(f"{f'replay {n} events, full fold':48} {full_ms:9.1f} ms")
    print(f"{f'replay {n} events, snapshot + tail':48} {snap_ms:9.1f} ms")
