"""Load on the cluster: tables of two playing Pig games, one after another,
each action sent under its own Idempotency-Key and sent again to the next API
host when one does not answer; every acknowledged action is remembered, to be
found in the log afterwards."""

from __future__ import annotations

import statistics
import threading
import time
import uuid
from dataclasses import dataclass, field

from tests.cluster.client import until_answered


@dataclass
class Acknowledged:
    game: str
    key: str
    versions: list[int]


@dataclass
class Load:
    hosts: list[str]
    club: dict
    members: list[dict]
    tables: int = 8
    league: str | None = None
    give_up: float = 60.0
    acknowledged: list[Acknowledged] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    failovers: list[tuple[float, float]] = field(
        default_factory=list
    )  # (when answered, seconds without answer)
    refused: list[tuple[int, dict]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # a table that stopped on no answer at all
    stopping: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.lock = threading.Lock()
        self.threads = [
            threading.Thread(target=self._table, args=(i,), daemon=True) for i in range(self.tables)
        ]

    def start(self) -> Load:
        self.started = time.monotonic()
        for thread in self.threads:
            thread.start()
        return self

    def stop(self) -> float:
        """Stop the tables; the seconds the load ran."""
        self.stopping.set()
        for thread in self.threads:
            thread.join(90)
        return time.monotonic() - self.started

    def _send(self, hosts: list[str], method: str, path: str, body, token: str, key: str | None = None):
        status, answer, without = until_answered(
            hosts, method, path, body, token, key or str(uuid.uuid4()), self.give_up
        )
        if without:
            with self.lock:
                self.failovers.append((time.monotonic(), without))
        return status, answer

    def _table(self, i: int) -> None:
        """Table i sends to its own first host (the hosts in turn), then to the next."""
        hosts = self.hosts[i % len(self.hosts) :] + self.hosts[: i % len(self.hosts)]
        seats = [self.members[(2 * i) % len(self.members)], self.members[(2 * i + 1) % len(self.members)]]
        try:
            while not self.stopping.is_set():
                game = {
                    "engine": "pig",
                    "options": {"target": 30},
                    "dealer": "server",
                    "seats": [s["id"] for s in seats],
                    **({"league": self.league} if self.league else {}),
                }
                status, game = self._send(
                    hosts, "POST", f"/clubs/{self.club['id']}/games", game, self.club["admin_token"]
                )
                assert status == 201, game
                self._play(hosts, game["id"], [t["token"] for t in game["seat_tokens"]])
        except AssertionError as failed:
            with self.lock:
                self.errors.append(str(failed))

    def _play(self, hosts: list[str], game: str, tokens: list[str]) -> None:
        while not self.stopping.is_set():
            status, view = self._send(hosts, "GET", f"/games/{game}", None, tokens[0])
            if view["status"] != "active":
                return
            seat = view["state"]["turn"]
            if view["state"]["turn_total"] is None:
                status, view = self._send(hosts, "GET", f"/games/{game}", None, tokens[seat])
            command = "Hold" if view["state"]["turn_total"] >= 6 else "Roll"
            key, sent = str(uuid.uuid4()), time.monotonic()
            body = {"seat": seat, "command": {"type": command}}
            status, answer = self._send(hosts, "POST", f"/games/{game}/actions", body, tokens[seat], key)
            with self.lock:
                if status == 201:
                    self.acknowledged.append(
                        Acknowledged(game, key, [e["version"] for e in answer["events"]])
                    )
                    self.latencies.append(time.monotonic() - sent)
                else:
                    self.refused.append((status, answer))


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")
