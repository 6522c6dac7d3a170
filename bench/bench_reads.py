"""Reads at scale: one real club's reads with 10,000 and then 1,000,000 events
of other clubs in the log (p50/p99, and the ratio of the two), and the
replays projection beside the standings: storage per 1,000 events and
catch-up rate, all on the same PostgreSQL in one run.

Other clubs' events are real Pig games (played by the engine with seeded
dice) written straight into the log with COPY. ``BENCH_EVENTS`` scales the
large log down (default 1,000,000). The projections catch up through the
first ``BENCH_CATCHUP_EVENTS`` (default 100,000); past those, the checkpoints
are moved to the head (other clubs' projection rows stop growing; ours are
complete), so the 1,000,000-event reads do not wait for a catch-up. The two
logs live in two schemas of one server and their reads are interleaved.
"""

from __future__ import annotations

import os
import random
import time
import uuid
from dataclasses import replace

import psycopg
from psycopg.rows import dict_row

from bench.bench_projections import pig_game
from bench.support import bench_databases, percentile
from engines.pig import ENGINE as PIG
from service.app import create_app
from service.config import Settings
from service.records.log import store
from service.records.log.db import make_pool
from workers.projections import PROJECTIONS
from workers.projections.checkpoints import checkpoint
from workers.runner import catch_up

SMALL = 10_000
LARGE = int(os.environ.get("BENCH_EVENTS", "1000000"))
CATCHUP = min(LARGE, int(os.environ.get("BENCH_CATCHUP_EVENTS", "100000")))
GAMES_PER_CLUB = 100
COPY_CHUNK = 500_000  # events per transaction (one holds at most 2^20 positions)
REPEAT = int(os.environ.get("BENCH_READ_REPEAT", "100"))


class OtherClubs:
    """Writes other clubs' finished Pig games into the log with COPY."""

    def __init__(self, url: str):
        self.url = url
        self.rng = random.Random(11)
        self.bank = [self._stream() for _ in range(300)]
        self.events = 0
        self.games = 0
        self.club: uuid.UUID | None = None

    def _stream(self) -> tuple[list[str], list[tuple[str, str]]]:
        seats = [str(uuid.uuid4()) for _ in range(self.rng.choice((2, 3, 4)))]
        events, outcome = pig_game(self.rng, len(seats))
        created = {
            "engine": "pig",
            "engine_version": PIG.version,
            "club": None,
            "league": None,
            "seats": seats,
            "options": {"target": 20},
            "dealer": "server",
            "public": False,
            "catalog": None,
        }
        ended = {
            "places": list(outcome.places),
            "scores": list(outcome.scores),
            "ended_by": outcome.ended_by,
            "seed": "bench",
        }
        return seats, [("GameCreated", created), *events, ("GameEnded", ended)]

    def fill_to(self, total: int) -> None:
        import json

        games_rows, clubs, stream_rows = [], [], []
        while self.events < total:
            if self.games % GAMES_PER_CLUB == 0:
                self.club = uuid.uuid4()
                clubs.append((self.club, f"club {self.games // GAMES_PER_CLUB}"))
            seats, stream = self.bank[self.games % len(self.bank)]
            game_id = uuid.uuid4()
            games_rows.append((game_id, self.club, json.dumps(seats), len(stream)))
            for version, (kind, data) in enumerate(stream, start=1):
                if kind == "GameCreated":
                    data = {**data, "club": str(self.club)}
                stream_rows.append((self.club, game_id, version, kind, json.dumps(data)))
            self.games += 1
            self.events += len(stream)
        with psycopg.connect(self.url, autocommit=True, row_factory=dict_row) as conn:
            with conn.transaction(), conn.cursor() as cur:
                with cur.copy("COPY clubs (id, name) FROM STDIN") as copy:
                    for r in clubs:
                        copy.write_row(r)
                with cur.copy(
                    "COPY games (id, club_id, engine, seats, options, dealer, seed, status, version)"
                    " FROM STDIN"
                ) as copy:
                    for game_id, club, seats, version in games_rows:
                        copy.write_row(
                            (
                                game_id,
                                club,
                                "pig",
                                seats,
                                '{"target": 20}',
                                "server",
                                "bench",
                                "finished",
                                version,
                            )
                        )
            for start in range(0, len(stream_rows), COPY_CHUNK):
                with conn.transaction(), conn.cursor() as cur:
                    write_events(cur, stream_rows[start : start + COPY_CHUNK])
            conn.execute("ANALYZE")


def write_events(cur: psycopg.Cursor, rows: list[tuple]) -> None:
    """COPY (club, game, version, type, data) rows into the log, with this
    transaction's positions (see service/records/log/store.py)."""
    first = cur.execute("SELECT events_claim_positions(%s) AS p", (len(rows),)).fetchone()["p"]
    with cur.copy(
        "COPY events (position, club_id, game_id, version, type, data, metadata) FROM STDIN"
    ) as copy:
        for i, (club, game_id, version, kind, data) in enumerate(rows):
            copy.write_row((first + i, club, game_id, version, kind, data, '{"actor": "bench"}'))


class Club:
    """A real club played through the API: a league of finished Pig games and a
    game in progress, with the table's dice from a seeded generator, so that
    both logs hold the same club and their reads compare like with like."""

    def __init__(self, client):
        self.client = client
        club = client.post("/clubs", json={"name": "real"}).get_json()
        self.id, self.token = club["id"], club["admin_token"]
        self.auth = {"Authorization": f"Bearer {self.token}"}
        self.players = [
            client.post(f"/clubs/{self.id}/players", json={"name": f"P{i}"}, headers=self.auth).get_json()[
                "id"
            ]
            for i in range(4)
        ]
        self.league = client.post(
            f"/clubs/{self.id}/leagues",
            json={"name": "league", "engine": "pig", "points_table": [3, 1]},
            headers=self.auth,
        ).get_json()["id"]
        rng = random.Random(3)
        for i in range(12):
            self.play(rng, self.players[i % 3 : i % 3 + 2], until_over=True)
        self.game, self.steps = self.play(rng, self.players[:2], until_over=False)

    def play(self, rng: random.Random, seats: list[str], until_over: bool) -> tuple[str, int]:
        game = self.client.post(
            f"/clubs/{self.id}/games",
            json={
                "engine": "pig",
                "seats": seats,
                "league": self.league,
                "options": {"target": 30},
                "dealer": "table",
            },
            headers=self.auth,
        ).get_json()
        actions = 0
        while True:
            view = self.client.get(f"/games/{game['id']}", headers=self.auth).get_json()
            if view["status"] != "active" or (not until_over and actions >= 60):
                return game["id"], view["version"]
            kind = "Hold" if view["state"]["turn_total"] >= rng.choice((6, 10)) else "Roll"
            self.client.post(
                f"/games/{game['id']}/actions",
                json={"seat": view["state"]["turn"], "command": {"type": kind}},
                headers=self.auth,
            )
            if kind == "Roll":
                self.client.post(
                    f"/games/{game['id']}/actions",
                    json={"seat": None, "command": {"type": "ResolveRoll", "dice": [rng.randint(1, 6)]}},
                    headers=self.auth,
                )
            actions += 1

    def feed_head(self) -> int:
        after = 0
        while True:
            page = self.client.get(
                f"/clubs/{self.id}/events?after_position={after}&limit=1000", headers=self.auth
            ).get_json()
            if not page["events"]:
                return after
            after = page["next_after_position"]

    def reads(self) -> dict[str, object]:
        head = self.feed_head()
        rng = random.Random(5)
        return {
            "GET state": f"/games/{self.game}",
            "legal-actions": f"/games/{self.game}/legal-actions",
            "a game's events page": f"/games/{self.game}/events",
            "club feed from position 0": f"/clubs/{self.id}/events?after_position=0",
            "club feed from the head": f"/clubs/{self.id}/events?after_position={head}",
            "standings": f"/leagues/{self.league}/standings",
            "a replay step": lambda: f"/games/{self.game}/replay/steps/{rng.randint(1, self.steps)}",
        }


class Site:
    """One schema of the run: other clubs' events, a real club and an app to read it through."""

    def __init__(self, url: str):
        self.url = url
        self.pool = make_pool(url, max_size=4)
        settings = replace(Settings.from_env(), database_url=url, broker_url=None, rate_limit_enabled=False)
        self.client = create_app(settings, pool=self.pool).test_client()
        self.others = OtherClubs(url)
        self.club: Club | None = None

    def play(self) -> None:
        self.club = Club(self.client)

    def get(self, path: str) -> float:
        start = time.perf_counter()
        response = self.client.get(path, headers=self.club.auth)
        elapsed = time.perf_counter() - start
        if response.status_code != 200:
            raise RuntimeError(f"{path}: {response.status_code} {response.get_data(as_text=True)[:200]}")
        return elapsed * 1000


def measure(sites: list[Site]) -> list[dict[str, tuple[float, float]]]:
    """p50/p99 ms per read and site, the sites' calls interleaved (so a change
    in the machine's load touches both alike), after enough calls for
    prepared statements' generic plans."""
    reads = [site.club.reads() for site in sites]
    figures: list[dict[str, tuple[float, float]]] = [{} for _ in sites]
    for label in reads[0]:
        samples: list[list[float]] = [[] for _ in sites]
        for i in range(REPEAT + 10):
            for site, paths, kept in zip(sites, reads, samples, strict=True):
                path = paths[label]
                elapsed = site.get(path() if callable(path) else path)
                if i >= 10:
                    kept.append(elapsed)
        for found, kept in zip(figures, samples, strict=True):
            found[label] = (percentile(kept, 50), percentile(kept, 99))
    return figures


def catch_up_all(url: str) -> dict[str, tuple[int, float]]:
    """(log events passed, seconds) per projection, each catching up alone."""
    done = {}
    with psycopg.connect(url, autocommit=True, row_factory=dict_row) as conn:
        for name, projection in PROJECTIONS.items():
            before = checkpoint(conn, name)
            started = time.perf_counter()
            while catch_up(conn, projection, budget=600).status == "more":
                pass
            seconds = time.perf_counter() - started
            passed = conn.execute(
                "SELECT count(*) AS n FROM events WHERE position > %s AND position <= %s",
                (before, checkpoint(conn, name)),
            ).fetchone()["n"]
            done[name] = (passed, seconds)
    return done


def sizes(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c"
            " WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'"
        ).fetchall()
    return dict(rows)


def main() -> None:
    with bench_databases(2) as (small_url, large_url):
        started = time.perf_counter()
        small, large = Site(small_url), Site(large_url)
        small.others.fill_to(SMALL)
        small.play()
        catch_up_all(small_url)
        large.others.fill_to(CATCHUP)
        large.play()
        caught = catch_up_all(large_url)
        table = sizes(large_url)
        with large.pool.connection() as conn:
            total = conn.execute("SELECT count(*) AS n FROM events").fetchone()["n"]
        large.others.fill_to(LARGE)
        with large.pool.connection() as conn:
            head = store.head_position(conn)
            conn.execute("UPDATE projection_checkpoints SET position = %s", (head,))
        small_figures, large_figures = measure([small, large])
        print(
            f"3. reads of one club beside other clubs' events ({REPEAT} calls each, the two logs"
            f" interleaved; set-up and loads took {time.perf_counter() - started:.0f} s)"
        )
        print(
            f"   {'read':28} {f'{small.others.events:,} events p50/p99':>24}"
            f" {f'{large.others.events:,} events p50/p99':>26}  ratio p50/p99"
        )
        for label, (s50, s99) in small_figures.items():
            l50, l99 = large_figures[label]
            print(
                f"   {label:28} {s50:10.2f} / {s99:6.2f} ms {l50:12.2f} / {l99:6.2f} ms"
                f"   {l50 / s50:5.2f} / {l99 / s99:5.2f}"
            )
        print("   (goal: every ratio <= 1.2)")
        print(f"4. projections over {total:,} events: catch-up from zero and storage")
        events_bytes = table["events"]
        print(
            f"   baseline: events table (with indexes) {events_bytes / total * 1000 / 1024:8.1f} KiB per 1,000 events"
        )
        replay_bytes = sum(v for k, v in table.items() if k.startswith("replay_"))
        print(
            f"   replays (with indexes)                {replay_bytes / total * 1000 / 1024:8.1f} KiB per 1,000 events"
            f"  ({replay_bytes / events_bytes:.0%} of the events table; goal <= 50%)"
        )
        for name, (applied, seconds) in caught.items():
            print(
                f"   catch-up {name:12} {applied:9,} events in {seconds:6.1f} s: {applied / seconds:8,.0f} events/s"
            )
        small.pool.close()
        large.pool.close()


if __name__ == "__main__":
    main()
