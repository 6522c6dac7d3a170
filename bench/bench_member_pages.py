"""The pages a member reads about results: a league's standings page, its
statistics page, a player's profile, the club's page and the game search
(unfiltered, by two players, by winner), rendered server-side for a club of
10,000 finished games among 50 players, beside a minimal Flask endpoint
rendering a trivial template in the same run.

The statistics page is also measured as the first read of a new process: a
fresh Python process builds the app and times its first request for the page
(the league summed by PostgreSQL, the templates compiled), several times.

The club's games are written with bulk inserts (``bench_projections.generate``)
and the projections rebuilt from the log, as a running service would have them.
Times are measured through Flask's test client: the whole request inside the
server (routing, domain reads on PostgreSQL, Jinja), without a network.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time

import psycopg

from bench.bench_projections import generate
from bench.bench_web import baseline_client, line, measure
from bench.support import ROOT, bench_database, percentile
from service.app import create_app
from service.config import Settings
from service.records.access import new_token
from workers.projections.rebuild import rebuild

GAMES = int(os.environ.get("BENCH_WEB_GAMES", "10000"))
PLAYERS = 50
FIRST_READS = 5

FIRST_READ = textwrap.dedent(
    """
    import sys, time
    from service.app import create_app
    from service.config import Settings
    app = create_app(Settings(database_url=sys.argv[1], rate_limit_enabled=False))
    client = app.test_client()
    start = time.perf_counter()
    assert client.get(sys.argv[2]).status_code == 200
    print(time.perf_counter() - start)
    app.extensions["tablerecord.records"].pool.close()
    """
)


def signed_in(client, token: str):
    page = client.get("/").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert client.post("/sign-in", data={"token": token, "csrf_token": csrf}).status_code == 303
    return client


def first_reads(url: str, path: str) -> list[float]:
    runs = []
    for _ in range(FIRST_READS):
        out = subprocess.run(
            [sys.executable, "-c", FIRST_READ, url, path],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(float(out.stdout.strip().splitlines()[-1]))
    return runs


def main() -> None:
    with bench_database() as url:
        started = time.perf_counter()
        club, players, events = generate(url, GAMES, PLAYERS)
        print(
            f"generated {GAMES:,} Pig games among {PLAYERS} players ({events:,} events) in {time.perf_counter() - started:.1f}s"
        )
        for projection in ("standings", "statistics"):
            print(f"rebuild {projection}: {rebuild(url, projection).seconds:.1f}s")
        token, digest = new_token("admin")
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("INSERT INTO tokens (hash, club_id, kind) VALUES (%s, %s, 'admin')", (digest, club))
            league = conn.execute("SELECT id FROM leagues WHERE club_id = %s", (club,)).fetchone()[0]
        app = create_app(Settings(database_url=url, rate_limit_enabled=False))
        client = signed_in(app.test_client(), token)
        a, b = players[0], players[1]
        pages = [
            ("league standings page", f"/league/{league}"),
            ("league statistics page", f"/league/{league}/statistics"),
            ("a player's profile", f"/player/{a}"),
            ("the club's page", f"/club/{club}"),
            ("game search, everything", f"/club/{club}/games"),
            ("game search, two players", f"/club/{club}/games?player={a}&player={b}"),
            ("game search, by winner, page 3", f"/club/{club}/games?winner={a}&page=3"),
        ]
        print(line("baseline: minimal Flask endpoint, trivial template", measure(baseline_client(), "/")))
        for label, path in pages:
            print(line(f"{label}, {GAMES:,} games (goal p95 < 100 ms)", measure(client, path)))
        runs = first_reads(url, f"/league/{league}/statistics")
        print(
            f"league statistics page, first read by a new process (goal < 100 ms): median"
            f" {percentile(runs, 50) * 1000:.1f} ms, max {max(runs) * 1000:.1f} ms over {len(runs)} processes"
        )
        app.extensions["tablerecord.records"].pool.close()


if __name__ == "__main__":
    main()
