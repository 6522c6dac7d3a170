"""Appends: the service's validated actions beside the framework's own ceiling
(a Flask endpoint doing one INSERT + COMMIT, same gunicorn settings, same
client) on loopback, with the service's own request stack doing only that
INSERT between them (``bench.stack_app``: how much of the gap is the stack,
how much the action); beside raw INSERT+COMMIT through a delay proxy that
puts PostgreSQL one network hop away; then replay with and without
snapshots. All on the same PostgreSQL in one run.

Each comparison runs ``BENCH_ROUNDS`` rounds (default 3) in which the
baseline and the service (and, on loopback, the stack) take turns, each loaded for ``BENCH_SECONDS``
(default 5), both servers running throughout: on a shared machine the
median of the rounds' ratios says more than one long run of each.
"""

from __future__ import annotations

import http.client
import os
import statistics
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

import psycopg
from psycopg.types.json import Jsonb

from bench.support import (
    GUNICORN,
    bench_database,
    call,
    delay_proxy,
    gunicorn,
    percentile,
    postgres_pid,
    timed,
    tree_cpu_seconds,
)
from service.app import create_app
from service.config import Settings
from service.records.access import Principal
from service.records.log import fold
from service.records.log.context import Records
from service.records.log.db import make_pool
from service.records.recording import acting, creation, games, states

SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
PROXY_DELAY_MS = 0.5  # each way: about 1 ms a round trip
ROUND_TRIP_PROBE_MS = 25  # each way: long enough that the round trips dominate


def raw_inserts(url: str, connections: int, seconds: float) -> float:
    """Rows/s for one INSERT + COMMIT per row over ``connections`` sessions."""
    counts = [0] * connections
    deadline = time.perf_counter() + seconds

    def writer(i: int) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            while time.perf_counter() < deadline:
                conn.execute("INSERT INTO bench_rows (body) VALUES (%s)", (Jsonb({"value": counts[i]}),))
                counts[i] += 1

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(connections)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - start)


def load(clients: int, seconds: float, post) -> tuple[float, list[float], int]:
    """Run ``post(i, conn)`` (returns events written, or None to stop) from
    ``clients`` keep-alive connections; (requests/s, latencies, events)."""
    latencies: list[float] = []
    events = [0] * clients
    deadline = time.perf_counter() + seconds

    def client(i: int, port: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port)
        while time.perf_counter() < deadline:
            t0 = time.perf_counter()
            written = post(i, conn)
            latencies.append(time.perf_counter() - t0)
            if written is None:
                return
            events[i] += written

    threads = [threading.Thread(target=client, args=(i, post.port)) for i in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    return len(latencies) / elapsed, latencies, sum(events)


CPU_KINDS = ("server (gunicorn)", "PostgreSQL", "load generator")


def cpu_used(post, postgres: int | None) -> dict[str, float | None]:
    """CPU seconds used so far by ``post``'s server, by PostgreSQL (None when
    it cannot be seen from here) and by this process's load generator."""
    return dict(
        zip(
            CPU_KINDS,
            (tree_cpu_seconds(post.pid), tree_cpu_seconds(postgres), time.process_time()),
            strict=True,
        )
    )


@dataclass
class Figures:
    """One load's rounds: rates (per second), every latency, CPU by kind."""

    rates: list[float] = field(default_factory=list)
    events: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    cpu: dict[str, float | None] = field(default_factory=dict)

    def run(self, clients: int, post, postgres: int | None) -> None:
        """One round of ``load``, with the CPU it cost."""
        before = cpu_used(post, postgres)
        rate, latencies, events = load(clients, SECONDS, post)
        after = cpu_used(post, postgres)
        self.add(rate, latencies, events / SECONDS)
        for kind in CPU_KINDS:
            spent = None if before[kind] is None or after[kind] is None else after[kind] - before[kind]
            known = self.cpu.get(kind, 0.0)
            self.cpu[kind] = None if spent is None or known is None else known + spent

    def add(self, rate: float, latencies: list[float], events: float) -> None:
        self.rates.append(rate)
        self.latencies.extend(latencies)
        self.events.append(events)

    @property
    def rate(self) -> float:
        return statistics.median(self.rates)

    @property
    def events_rate(self) -> float:
        return statistics.median(self.events)

    def cpu_ms(self, kind: str) -> str:
        """CPU of ``kind`` per request, in ms, over every round."""
        spent = self.cpu.get(kind)
        return "n/a" if spent is None else f"{spent / len(self.latencies) * 1000:.2f}"

    def ms(self, p: float) -> float:
        return percentile(self.latencies, p) * 1000


@contextmanager
def minimal_endpoint(url: str):
    """The one-INSERT Flask endpoint: ``post`` for ``load``."""
    with gunicorn("bench.minimal_app:app", url) as server:

        def post(i, conn):
            status, _ = call(conn, "POST", "/rows", {"client": i})
            return 1 if status == 201 else None

        post.port, post.pid = server.port, server.pid
        yield post


@contextmanager
def stack_endpoint(url: str):
    """The service's request stack doing only the INSERT (``bench.stack_app``):
    ``post`` for ``load``, an action's body under an admin token."""
    with gunicorn("bench.stack_app:app", url) as server:
        setup = http.client.HTTPConnection("127.0.0.1", server.port)
        _, club = call(setup, "POST", "/clubs", {"name": f"bench {uuid.uuid4().hex[:6]}"})
        game_ids = [uuid.uuid4() for _ in range(8)]

        def post(i, conn):
            body = {"seat": 0, "command": {"type": "Roll"}}
            status, _ = call(
                conn, "POST", f"/bench/games/{game_ids[i % 8]}/actions", body, club["admin_token"]
            )
            return 1 if status == 201 else None

        post.port, post.pid = server.port, server.pid
        yield post


@contextmanager
def service_appends(url: str, n_games: int):
    """The service with ``n_games`` Pig games: ``post`` for ``load`` rolls
    (and holds) in game ``i``. The target is the highest a game allows, so
    no game ends within the bench."""
    with gunicorn("service.wsgi:app", url) as server:
        setup = http.client.HTTPConnection("127.0.0.1", server.port)
        _, club = call(setup, "POST", "/clubs", {"name": f"bench {uuid.uuid4().hex[:6]}"})
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
                {"engine": "pig", "seats": players, "options": {"target": 10_000}},
                token,
            )[1]["id"]
            for _ in range(n_games)
        ]
        turns = [[0, 0] for _ in range(n_games)]  # seat, turn total
        answers: dict[int, dict] = {}  # each game's last answer

        def post(i, conn):
            seat, total = turns[i]
            kind = "Hold" if total >= 12 else "Roll"
            status, body = call(
                conn,
                "POST",
                f"/games/{game_ids[i]}/actions",
                {"seat": seat, "command": {"type": kind}},
                token,
            )
            if status != 201:
                return None
            answers[i] = body
            types = [e["type"] for e in body["events"]]
            if "GameEnded" in types:
                return None
            if "TurnBusted" in types or "TurnHeld" in types:
                turns[i] = [1 - seat, 0]
            else:
                turns[i][1] += next(e["data"]["value"] for e in body["events"] if e["type"] == "DieRolled")
            return len(body["events"])

        post.port, post.pid = server.port, server.pid
        post.token, post.club, post.games, post.answers = token, club["id"], game_ids, answers
        yield post


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


def round_trips(url: str) -> tuple[float, float]:
    """Round trips to PostgreSQL per action and per raw INSERT+COMMIT: median
    latency through a proxy adding ROUND_TRIP_PROBE_MS each way, divided by
    the round trip (in-process Flask client, one game, one connection)."""
    rtt = 2 * ROUND_TRIP_PROBE_MS / 1000
    with delay_proxy(url, ROUND_TRIP_PROBE_MS) as far:
        with psycopg.connect(far, autocommit=True) as conn:
            raw = []
            for i in range(12):
                t0 = time.perf_counter()
                conn.execute("INSERT INTO bench_rows (body) VALUES (%s)", (Jsonb({"value": i}),))
                raw.append(time.perf_counter() - t0)
        pool = make_pool(far, max_size=2)
        try:
            settings = replace(
                Settings.from_env(), database_url=far, broker_url=None, rate_limit_enabled=False
            )
            client = create_app(settings, pool=pool).test_client()
            club = client.post("/clubs", json={"name": "round trips"}).get_json()
            auth = {"Authorization": f"Bearer {club['admin_token']}"}
            players = [
                client.post(f"/clubs/{club['id']}/players", json={"name": f"p{i}"}, headers=auth).get_json()[
                    "id"
                ]
                for i in range(2)
            ]
            game = client.post(
                f"/clubs/{club['id']}/games",
                json={"engine": "pig", "seats": players, "options": {"target": 10_000}},
                headers=auth,
            ).get_json()["id"]
            latencies, seat = [], 0
            for _ in range(25):
                t0 = time.perf_counter()
                body = client.post(
                    f"/games/{game}/actions", json={"seat": seat, "command": {"type": "Roll"}}, headers=auth
                ).get_json()
                latencies.append(time.perf_counter() - t0)
                if any(e["type"] == "TurnBusted" for e in body["events"]):
                    seat = 1 - seat
        finally:
            pool.close()
    return statistics.median(latencies[5:]) / rtt, statistics.median(raw[2:]) / rtt


def row(label: str, value: str) -> None:
    print(f"{label:56} {value}", flush=True)


def main() -> None:
    settings = f"gunicorn {' '.join(GUNICORN)}, keep-alive clients, {ROUNDS} rounds of {SECONDS:.0f} s each"
    with bench_database() as url:
        print(f"1. loopback ({settings}, the three loads taking turns)", flush=True)
        base, stack, ours = Figures(), Figures(), Figures()
        with (
            minimal_endpoint(url) as minimal,
            stack_endpoint(url) as stack_only,
            service_appends(url, 8) as service,
        ):
            postgres = postgres_pid(url)
            for _ in range(ROUNDS):
                base.run(8, minimal, postgres)
                stack.run(8, stack_only, postgres)
                ours.run(8, service, postgres)
        ratios = [o / b for o, b in zip(ours.rates, base.rates, strict=True)]
        stack_ratios = [s / b for s, b in zip(stack.rates, base.rates, strict=True)]
        row(
            "  baseline: Flask INSERT+COMMIT endpoint, 8 clients",
            f"{base.rate:7.0f} requests/s (p50 {base.ms(50):.1f} ms, p99 {base.ms(99):.1f} ms)",
        )
        row(
            "  the service's request stack, the INSERT for its action",
            f"{stack.rate:7.0f} requests/s (p50 {stack.ms(50):.1f} ms, p99 {stack.ms(99):.1f} ms;"
            f" {statistics.median(stack_ratios):.0%} of the ceiling)",
        )
        row(
            "  validated appends, Pig, 8 games",
            f"{ours.rate:7.0f} actions/s ({ours.events_rate:.0f} events/s,"
            f" p50 {ours.ms(50):.1f} ms, p99 {ours.ms(99):.1f} ms)",
        )
        print("  CPU per request, ceiling / stack / service (ms):", flush=True)
        for kind in CPU_KINDS:
            row(f"    {kind}", " / ".join(f.cpu_ms(kind) for f in (base, stack, ours)))
        row(
            "  service / framework ceiling (median of the rounds)",
            f"{statistics.median(ratios):7.0%}   (rounds {min(ratios):.0%}-{max(ratios):.0%};"
            " goal >= 70%, p99 < 30 ms)",
        )
        print(f"2. PostgreSQL one hop away (proxy: +{PROXY_DELAY_MS} ms each way; {settings})", flush=True)
        raw, ours = [], Figures()
        with delay_proxy(url, PROXY_DELAY_MS) as far, service_appends(far, 16) as service:
            for _ in range(ROUNDS):
                raw.append(raw_inserts(far, 16, SECONDS))
                ours.run(16, service, postgres)
        ratios = [o / r for o, r in zip(ours.events, raw, strict=True)]
        row("  baseline: raw INSERT+COMMIT, 16 connections", f"{statistics.median(raw):7.0f} events/s")
        row(
            "  validated appends, Pig, 16 games",
            f"{ours.events_rate:7.0f} events/s ({ours.rate:.0f} actions/s,"
            f" p50 {ours.ms(50):.1f} ms, p99 {ours.ms(99):.1f} ms)",
        )
        row(
            "  CPU per action (ms)",
            ", ".join(f"{kind} {ours.cpu_ms(kind)}" for kind in CPU_KINDS),
        )
        row(
            "  service / raw (median of the rounds)",
            f"{statistics.median(ratios):7.0%}   (rounds {min(ratios):.0%}-{max(ratios):.0%}; goal >= 50%)",
        )
        action_trips, raw_trips = round_trips(url)
        print(f"round trips to PostgreSQL (proxy +{ROUND_TRIP_PROBE_MS} ms each way, in-process)", flush=True)
        row("  baseline: raw INSERT+COMMIT", f"{raw_trips:7.1f}")
        row("  one validated action (Pig Roll, decided on the remembered state)", f"{action_trips:7.1f}")
        print("replay and raw inserts on loopback", flush=True)
        raw1 = raw_inserts(url, 1, SECONDS / 2)
        raw8 = raw_inserts(url, 8, SECONDS / 2)
        row("  raw INSERT+COMMIT, 1 connection", f"{raw1:7.0f} events/s")
        row("  raw INSERT+COMMIT, 8 connections", f"{raw8:7.0f} events/s")
        n, full_ms, snap_ms = replay_times(url)
        row(f"  replay {n} events, full fold", f"{full_ms:7.1f} ms")
        row(f"  replay {n} events, snapshot + tail", f"{snap_ms:7.1f} ms")
