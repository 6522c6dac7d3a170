"""Webhooks: the delay from a game's commit to its receiver at 100 new games a
second with 10 webhooks of the club (1,000 deliveries a second), and the
appends a second the API makes with those 10 webhooks beside the same load
with none, in one run with a live Celery worker.

The API is served by gunicorn (``bench.support.gunicorn``), as the service
is: its commit listener wakes the worker through the embedded Redis. The
receiver is an HTTP server on the loopback. Two clubs share the server: one
with no webhook (the baseline), one with ten; rounds alternate between them,
each figure the median of its rounds, so a noisy moment of a shared machine
weighs on one round of each rather than on one side.
"""

from __future__ import annotations

import http.client
import os
import statistics
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import orjson

from bench.support import ROOT, bench_database, call, gunicorn, percentile
from service.embedded import start_redis
from service.run import worker_command

SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
RATE = 100  # games started a second
WEBHOOKS = 10
THREADS = 4  # closed-loop writers of the appends figure, and senders of the paced load
GAME = {"engine": "pig", "options": {"target": 20}}


class Receiver:
    """Notes when each delivery of each game arrives."""

    def __init__(self) -> None:
        self.arrived: dict[tuple[str, str], float] = {}
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server name
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                at = time.monotonic()
                data = orjson.loads(body)["data"]
                with receiver.lock:
                    receiver.arrived.setdefault((self.path, data["game"]), at)
                self.send_response(204)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, count: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while len(self.arrived) < count and time.monotonic() < deadline:
            time.sleep(0.1)


class Club:
    """A club of the served API with two players, through one connection a thread."""

    def __init__(self, port: int, name: str) -> None:
        self.port, self.local = port, threading.local()
        _, made = call(self.conn(), "POST", "/clubs", {"name": name})
        self.id, self.token = made["id"], made["admin_token"]
        seats = [self.post(f"/clubs/{self.id}/players", {"name": n})[1]["id"] for n in ("Ana", "Ben")]
        self.game = {**GAME, "seats": seats}

    def conn(self) -> http.client.HTTPConnection:
        if not hasattr(self.local, "conn"):
            self.local.conn = http.client.HTTPConnection("127.0.0.1", self.port)
        return self.local.conn

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        return call(self.conn(), "POST", path, body, self.token)

    def create_game(self) -> str:
        status, made = self.post(f"/clubs/{self.id}/games", self.game)
        assert status == 201, made
        return made["id"]


def start_games(club: Club, rate: float, seconds: float) -> dict[str, float]:
    """Games created at ``rate`` a second for ``seconds`` (sent on schedule by
    THREADS senders, so a slow answer delays no other): each one's commit
    time, taken when its answer arrives."""
    committed: dict[str, float] = {}
    start = time.monotonic()

    def send(n: int) -> None:
        wait = start + n / rate - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        game = club.create_game()
        committed[game] = time.monotonic()

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(send, range(int(rate * seconds))))
    return committed


def appends_per_second(club: Club, seconds: float) -> tuple[float, int]:
    """Games created a second by THREADS writers in a closed loop, and how many."""
    stop = time.monotonic() + seconds

    def writer() -> int:
        done = 0
        while time.monotonic() < stop:
            club.create_game()
            done += 1
        return done

    with ThreadPoolExecutor(THREADS) as pool:
        done = sum(pool.map(lambda _: writer(), range(THREADS)))
    return done / seconds, done


def main() -> None:
    with bench_database() as url, tempfile.TemporaryDirectory() as tmp:
        redis = start_redis(Path(tmp) / "redis")
        env = {"CELERY_BROKER_URL": redis.url, "TABLERECORD_WAKE_EVERY": "1", "WEBHOOK_ALLOW_PRIVATE": "1"}
        log = open(Path(tmp) / "worker.log", "wb")  # noqa: SIM115 - closed below
        worker = subprocess.Popen(
            worker_command(str(Path(tmp) / "beat"), loglevel="WARNING", extra=("--without-gossip",)),
            env={**os.environ, **env, "DATABASE_URL": url},
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        receiver = Receiver()
        try:
            with gunicorn("service.wsgi:app", url, env) as server:
                plain, followed = Club(server.port, "Bench"), Club(server.port, "Bench followed")
                for i in range(WEBHOOKS):
                    status, made = followed.post(
                        f"/clubs/{followed.id}/webhooks",
                        {"url": f"{receiver.url}/hook{i}", "events": ["game.started"]},
                    )
                    assert status == 201, made
                time.sleep(5)  # the worker starts
                without, with_hooks, p50s, p95s = [], [], [], []
                told = delivered = 0
                for _ in range(ROUNDS):
                    without.append(appends_per_second(plain, SECONDS)[0])
                    rate, made = appends_per_second(followed, SECONDS)
                    with_hooks.append(rate)
                    told += made * WEBHOOKS
                    receiver.wait_for(told)  # the next figure starts with nothing owed
                    committed = start_games(followed, RATE, SECONDS)
                    told += len(committed) * WEBHOOKS
                    receiver.wait_for(told)
                    delays = [at - committed[g] for (_, g), at in receiver.arrived.items() if g in committed]
                    delivered += len(delays)
                    p50s.append(percentile(delays, 50))
                    p95s.append(percentile(delays, 95))
        finally:
            receiver.server.shutdown()
            worker.terminate()
            try:
                worker.wait(20)
            except subprocess.TimeoutExpired:
                worker.kill()
            log.close()
            redis.server.shutdown()
    paced = int(RATE * SECONDS) * WEBHOOKS * ROUNDS
    median = statistics.median
    print(
        f"webhook delivery, commit to receiver, {RATE} games started/s x {WEBHOOKS} webhooks for {SECONDS:g} s,"
        f" median of {ROUNDS} rounds: p50 {median(p50s) * 1000:.0f} ms, p95 {median(p95s) * 1000:.0f} ms"
        f" (aim: p95 < 1 s; rounds' p95 {', '.join(f'{p * 1000:.0f}' for p in p95s)} ms;"
        f" {delivered} of {paced} delivered)"
    )
    print(
        f"games created/s ({THREADS} writers, gunicorn), median of {ROUNDS} rounds: {median(without):.0f} with no"
        f" webhook (rounds {', '.join(f'{r:.0f}' for r in without)}), {median(with_hooks):.0f} with"
        f" {WEBHOOKS} webhooks told of each (rounds {', '.join(f'{r:.0f}' for r in with_hooks)};"
        f" {median(with_hooks) / median(without):.0%}; aim >= 90%)"
    )
