"""Webhooks: the delay from a game's commit to its receiver at 100 new games a
second with 10 webhooks of the club (1,000 deliveries a second), and the
appends a second the API makes with those 10 webhooks beside the same load
with none, in one run with a live Celery worker.

The API runs in this process (its commit listener wakes the worker through
the embedded Redis); the receiver is an HTTP server on the loopback.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import orjson

from bench.support import ROOT, bench_database, percentile
from service.config import Settings
from service.embedded import start_redis
from service.run import worker_command

SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
RATE = 100  # games started a second
WEBHOOKS = 10
THREADS = 4  # closed-loop writers of the appends figure


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


def start_games(client, club: dict, seats: list[str], rate: float, seconds: float) -> dict[str, float]:
    """Games created at ``rate`` a second for ``seconds``: each one's commit time."""
    committed: dict[str, float] = {}
    auth = {"Authorization": f"Bearer {club['admin_token']}"}
    body = {"engine": "pig", "seats": seats, "options": {"target": 20}}
    start = time.monotonic()
    n = 0
    while (now := time.monotonic()) < start + seconds:
        due = start + n / rate
        if now < due:
            time.sleep(due - now)
        answer = client.post(f"/clubs/{club['id']}/games", json=body, headers=auth)
        committed[answer.get_json()["id"]] = time.monotonic()
        n += 1
    return committed


def appends_per_second(app, club: dict, seats: list[str], seconds: float) -> float:
    """Games created a second by THREADS writers in a closed loop."""
    auth = {"Authorization": f"Bearer {club['admin_token']}"}
    body = {"engine": "pig", "seats": seats, "options": {"target": 20}}
    stop = time.monotonic() + seconds

    def writer() -> int:
        client, done = app.test_client(), 0
        while time.monotonic() < stop:
            assert client.post(f"/clubs/{club['id']}/games", json=body, headers=auth).status_code == 201
            done += 1
        return done

    with ThreadPoolExecutor(THREADS) as pool:
        return sum(pool.map(lambda _: writer(), range(THREADS))) / seconds


def main() -> None:
    from service.app import create_app

    os.environ["WEBHOOK_ALLOW_PRIVATE"] = "1"
    with bench_database() as url, tempfile.TemporaryDirectory() as tmp:
        redis = start_redis(Path(tmp) / "redis")
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "CELERY_BROKER_URL": redis.url,
            "TABLERECORD_WAKE_EVERY": "1",
        }
        log = open(Path(tmp) / "worker.log", "wb")  # noqa: SIM115 - closed below
        worker = subprocess.Popen(
            worker_command(str(Path(tmp) / "beat"), loglevel="WARNING", extra=("--without-gossip",)),
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            settings = replace(
                Settings.from_env(), database_url=url, broker_url=redis.url, rate_limit_enabled=False
            )
            app = create_app(settings)
            client = app.test_client()
            club = client.post("/clubs", json={"name": "Bench"}).get_json()
            auth = {"Authorization": f"Bearer {club['admin_token']}"}
            seats = [
                client.post(f"/clubs/{club['id']}/players", json={"name": n}, headers=auth).get_json()["id"]
                for n in ("Ana", "Ben")
            ]
            time.sleep(5)  # the worker starts
            without = appends_per_second(app, club, seats, SECONDS)

            receiver = Receiver()
            for i in range(WEBHOOKS):
                made = client.post(
                    f"/clubs/{club['id']}/webhooks",
                    json={"url": f"{receiver.url}/hook{i}", "events": ["game.started"]},
                    headers=auth,
                )
                assert made.status_code == 201, made.get_json()
            committed = start_games(client, club, seats, RATE, SECONDS)
            deadline = time.monotonic() + 60
            expected = len(committed) * WEBHOOKS
            while len(receiver.arrived) < expected and time.monotonic() < deadline:
                time.sleep(0.2)
            delays = [at - committed[game] for (_, game), at in receiver.arrived.items() if game in committed]
            with_hooks = appends_per_second(app, club, seats, SECONDS)
            receiver.server.shutdown()
        finally:
            worker.terminate()
            try:
                worker.wait(20)
            except subprocess.TimeoutExpired:
                worker.kill()
            log.close()
            redis.server.shutdown()
    print(
        f"webhook delivery, commit to receiver, {RATE} games started/s x {WEBHOOKS} webhooks for {SECONDS:g} s:"
        f" {len(delays)} of {expected} delivered,"
        f" p50 {percentile(delays, 50) * 1000:.0f} ms, p95 {percentile(delays, 95) * 1000:.0f} ms"
        f" (aim: p95 < 1 s)"
    )
    print(
        f"games created/s ({THREADS} writers): {without:.0f} with no webhook, {with_hooks:.0f} with {WEBHOOKS}"
        f" webhooks told of each ({with_hooks / without:.0%}; aim >= 90%)"
    )
