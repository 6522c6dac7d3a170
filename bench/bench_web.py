"""The members' web pages: server-side render time of a league's page (its
standings, a page of its rating history and its latest results) and of its
statistics page (figures, a page of head-to-head records, the engine's own
figures over a window of games) for a league of 10,000 games, beside a minimal
Flask endpoint rendering a trivial template in the same process.

The statistics page keeps its figures as sums a later game adds to: it is
measured as read again (nothing changed), right after a game ended (one game
added to the kept sums) and by a process that has not read the league yet
(the whole league summed by PostgreSQL).

Times are measured through Flask's test client: the whole request inside the
server (routing, domain reads on PostgreSQL, Jinja), without a network.
"""

from __future__ import annotations

import os
import time

import psycopg
from flask import Flask, render_template_string

from bench.bench_projections import generate
from bench.support import bench_database, percentile
from service.app import create_app
from service.config import Settings
from service.records.pages import league_figures_page
from service.records.reading.league_figures import FIELDS
from workers.projections.rebuild import rebuild

GAMES = int(os.environ.get("BENCH_WEB_GAMES", "10000"))
REPEAT = 30


def measure(client, path: str, before=lambda: None) -> list[float]:
    for _ in range(3):
        assert client.get(path).status_code == 200, path
    runs = []
    for _ in range(REPEAT):
        before()
        start = time.perf_counter()
        response = client.get(path)
        runs.append(time.perf_counter() - start)
        assert response.status_code == 200, path
    return runs


def end_one_more(conn: psycopg.Connection, league) -> None:
    """A copy of the league's latest finished game, as the statistics projection
    writes it when a game ends (with the next end position)."""
    conn.execute(
        f"INSERT INTO stats_games ({FIELDS}) SELECT gen_random_uuid(), club_id, league_id, engine, seats, status, created_at,"
        " ended_at, end_version, end_position + 1, events, turns, first_seat, places, scores, ended_by,"
        " engine_stats, luck FROM stats_games WHERE league_id = %s AND status = 'finished'"
        " ORDER BY end_position DESC LIMIT 1",
        (league,),
    )


def baseline_client():
    app = Flask("baseline")

    @app.get("/")
    def trivial():
        return render_template_string(
            "<!doctype html><title>{{ title }}</title><p>{{ title }}</p>", title="ok"
        )

    return app.test_client()


def line(label: str, runs: list[float]) -> str:
    return f"{label}: median {percentile(runs, 50) * 1000:.1f} ms, p95 {percentile(runs, 95) * 1000:.1f} ms"


def main() -> None:
    with bench_database() as url:
        started = time.perf_counter()
        club, _, events = generate(url, GAMES)
        print(f"generated {GAMES:,} Pig games ({events:,} events) in {time.perf_counter() - started:.1f}s")
        for projection in ("standings", "statistics"):
            done = rebuild(url, projection)
            print(f"rebuild {projection}: {done.seconds:.1f}s")
        with psycopg.connect(url) as conn:
            league = conn.execute("SELECT id FROM leagues WHERE club_id = %s", (club,)).fetchone()[0]
        app = create_app(Settings(database_url=url, rate_limit_enabled=False))
        client = app.test_client()
        print(line("baseline: minimal Flask endpoint, trivial template", measure(baseline_client(), "/")))
        print(
            line(f"league page, {GAMES:,}-game league (goal < 100 ms)", measure(client, f"/league/{league}"))
        )
        statistics = f"/league/{league}/statistics"
        print(
            line(
                f"league statistics page, {GAMES:,}-game league (goal < 100 ms)", measure(client, statistics)
            )
        )
        with psycopg.connect(url, autocommit=True) as conn:
            print(
                line(
                    "league statistics page, right after a game ended",
                    measure(client, statistics, before=lambda: end_one_more(conn, league)),
                )
            )
        print(
            line(
                "league statistics page, first read by a process",
                measure(client, statistics, before=league_figures_page.TALLIES.clear),
            )
        )
        app.extensions["tablerecord.records"].pool.close()


if __name__ == "__main__":
    main()
