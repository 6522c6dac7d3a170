"""History import: 10,000 result-only plays (a CSV of House of Cronies and
Chancellors results, 3 or 4 players each) imported in one request through the
service's WSGI app (upload parsed, every play's players matched, its result
judged by its engine's outcome rule, all stored in one transaction), beside
raw COPY of the same rows (games, events, result rows) into the same tables,
in the same run. Goal: under 30 s."""

from __future__ import annotations

import io
import os
import random
import time
import uuid

import psycopg

from bench.support import bench_database
from service.app import create_app
from service.config import Settings
from service.records.log.db import make_pool

PLAYS = int(os.environ.get("BENCH_HISTORY_PLAYS", "10000"))
NAMES = [f"Member {i}" for i in range(24)]


def history_csv(plays: int) -> bytes:
    """``plays`` results with scores that follow each game's ranking rule."""
    rng = random.Random(27)
    lines = ["date,game,player,score,place,play"]
    for n in range(plays):
        day = f"20{18 + n * 8 // plays:02d}-{1 + n % 12:02d}-{1 + n % 28:02d}"
        players = rng.sample(NAMES, rng.choice((3, 4)))
        if n % 2:
            scores = [rng.randint(0, 40) for _ in players]
            places = [1 + sum(other > mine for other in scores) for mine in scores]
            game = "House of Cronies"
        else:
            scores = [rng.randint(0, 99) for _ in players]
            scores[0] = rng.randint(100, 130)
            places = [1 + sum(other > mine for other in scores) for mine in scores]
            game = "Chancellors"
        lines += [f"{day},{game},{p},{s},{pl},{n}" for p, s, pl in zip(players, scores, places, strict=True)]
    return ("\n".join(lines) + "\n").encode()


def import_request(url: str, content: bytes) -> tuple[float, dict]:
    settings = Settings(database_url=url, rate_limit_enabled=False)
    pool = make_pool(url, max_size=2)
    try:
        app = create_app(settings, pool=pool)
        client = app.test_client()
        club = client.post("/clubs", json={"name": "History"}).get_json()
        start = time.perf_counter()
        answer = client.post(
            f"/clubs/{club['id']}/history",
            data={"file": (io.BytesIO(content), "history.csv")},
            headers={"Authorization": f"Bearer {club['admin_token']}"},
            content_type="multipart/form-data",
        )
        seconds = time.perf_counter() - start
        assert answer.status_code == 201, answer.get_json()
        return seconds, answer.get_json()
    finally:
        pool.close()


def raw_copy(url: str) -> tuple[float, int]:
    """The import's rows (games, events, result rows) COPYed again under fresh game ids."""
    with psycopg.connect(url) as conn:
        games = conn.execute(
            "SELECT id, club_id, engine, seats, options, dealer, seed, status, version FROM games"
        ).fetchall()
        events = conn.execute("SELECT club_id, game_id, version, type, data, metadata FROM events").fetchall()
        results = conn.execute(
            "SELECT game_id, club_id, played_on, minutes, note FROM result_games"
        ).fetchall()
        new = {g[0]: uuid.uuid4() for g in games}
        conn.commit()
        start = time.perf_counter()
        cur = conn.cursor()
        with cur.copy(
            "COPY games (id, club_id, engine, seats, options, dealer, seed, status, version) FROM STDIN"
        ) as c:
            for g in games:
                c.write_row(
                    (
                        new[g[0]],
                        g[1],
                        g[2],
                        psycopg.types.json.Jsonb(g[3]),
                        psycopg.types.json.Jsonb(g[4]),
                        *g[5:],
                    )
                )
        (first,) = conn.execute("SELECT events_claim_positions(%s)", (len(events),)).fetchone()
        with cur.copy(
            "COPY events (position, club_id, game_id, version, type, data, metadata) FROM STDIN"
        ) as c:
            for i, (club, game, version, type_, data, metadata) in enumerate(events):
                c.write_row(
                    (
                        first + i,
                        club,
                        new[game],
                        version,
                        type_,
                        psycopg.types.json.Jsonb(data),
                        psycopg.types.json.Jsonb(metadata),
                    )
                )
        with cur.copy("COPY result_games (game_id, club_id, played_on, minutes, note) FROM STDIN") as c:
            for game, *rest in results:
                c.write_row((new[game], *rest))
        conn.commit()
        return time.perf_counter() - start, len(games) + len(events) + len(results)


def main() -> None:
    content = history_csv(PLAYS)
    with bench_database() as url:
        seconds, report = import_request(url, content)
        print(
            f"history import: {report['imported']} result-only plays ({len(content) / 1e6:.1f} MB of CSV,"
            f" {len(report['players_added'])} players added) in one request: {seconds:.2f} s"
            f" = {report['imported'] / seconds:,.0f} plays/s (goal: under 30 s)"
        )
        copy_seconds, rows = raw_copy(url)
        print(
            f"raw COPY of the same {rows} rows (games, events, result rows): {copy_seconds:.2f} s"
            f" = {report['imported'] / copy_seconds:,.0f} plays/s; the import takes {seconds / copy_seconds:.1f}x as long"
        )


if __name__ == "__main__":
    main()
