"""The replay viewer: how long a step of a 1,000-step game takes to be on the
screen (goal < 50 ms, p95), in Chromium through Playwright, beside a static
page's render in the same run.

A step is timed in the page from the key press (a ``keydown`` for the arrow
key) to the second animation frame after it, when the new table has been laid
out and painted. The baseline is a static HTML page holding the same table
(the same stylesheet rules inline), from navigation start to its load event.
The replay page's own first load, which fetches every step once, is printed
too.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

from werkzeug.serving import make_server

from bench.support import bench_database, percentile
from engines import registry
from engines.base import GameConfig, fold
from engines.chance import deal
from service.app import create_app
from service.config import Settings
from service.records.catalogs import default_catalog
from workers.projections.rebuild import rebuild

#: A long game by the rulebook: MacCreedy's Mansion played over its usual twenty rounds by four
#: companies runs past a thousand steps (Political Divide & Conquer's deck ends near 700).
ENGINE = "maccreedys-mansion"
SEATS = 4
STEPS = 1000
SAMPLES = 300
SEEDS = 12
CHROMIUM = "/usr/bin/chromium"

STEP = """async (key) => {
  const start = performance.now();
  document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - start;
}"""


def long_game() -> tuple[list[dict], int]:
    """Commands of a random game with at least ``STEPS`` events (else the longest of
    ``SEEDS`` random games: random play rarely lasts that long), and its event count."""
    engine = registry.get(ENGINE)
    config = GameConfig(seats=SEATS, options={}, dealer="table", catalog=default_catalog(ENGINE))
    longest: tuple[list[dict], int] = ([], 0)
    for seed in range(SEEDS):
        rng = random.Random(seed)
        events = engine.setup(config)
        state = fold(engine, config, events)
        commands, count = [], len(events)
        while not engine.outcome(state).finished:
            request = engine.chance(state)
            command = (
                deal(request, rng)
                if request is not None
                else rng.choice([c for s in range(SEATS) for c in engine.legal_commands(state, s)])
            )
            new = engine.decide(state, command)
            state, count = fold(engine, config, new, state), count + len(new)
            commands.append(
                {"seat": command.get("seat"), "command": {k: v for k, v in command.items() if k != "seat"}}
            )
        if count >= STEPS:
            return commands, count
        longest = max(longest, (commands, count), key=lambda found: found[1])
    return longest


def main() -> None:
    from playwright.sync_api import sync_playwright

    with bench_database() as url:
        app = create_app(Settings(database_url=url, rate_limit_enabled=False))
        api = app.test_client()
        club = api.post("/clubs", json={"name": "Bench club"}).get_json()
        auth = {"Authorization": f"Bearer {club['admin_token']}"}
        commands, events = long_game()
        document = {
            "engine": ENGINE,
            "seats": [{"name": f"Player {chr(65 + i)}"} for i in range(SEATS)],
            "commands": commands,
        }
        game = api.post(f"/clubs/{club['id']}/games/import", json=document, headers=auth).get_json()
        rebuild(url, "replays")
        http = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=http.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{http.server_port}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
                page = browser.new_page(viewport={"width": 390, "height": 844})
                page.goto(f"{base}/")
                page.fill("#token", club["admin_token"])
                with page.expect_navigation():
                    page.click("button:has-text('Sign in')")
                loads = []
                for _ in range(5):
                    page.goto(f"{base}/game/{game['id']}/replay?step=1")
                    page.wait_for_selector("body[data-replay-ready]")
                    loads.append(page.evaluate("() => performance.now()") / 1000)
                last = page.evaluate("() => Number(document.getElementById('stepper').dataset.last)")
                rng = random.Random(1)
                steps = []
                for _ in range(SAMPLES):
                    key = rng.choice(["ArrowRight"] * 8 + ["ArrowLeft", "End", "Home"])
                    steps.append(page.evaluate(STEP, key) / 1000)
                fragment = page.inner_html("#table-host")
                css = Path("service/web/static/table.css").read_text()
                static = f"<!doctype html><meta charset=utf-8><style>{css}</style><main>{fragment}</main>"
                statics = []
                for _ in range(30):
                    page.goto("data:text/html;charset=utf-8," + static.replace("#", "%23"))
                    statics.append(
                        page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
                        / 1000
                    )
                browser.close()
        finally:
            http.shutdown()
            app.extensions["tablerecord.records"].pool.close()
        print(f"a {ENGINE} game of {events:,} events ({last:,} steps), imported and projected")
        print(line("baseline: a static page holding one step's table, navigation to load", statics))
        print(line(f"replay step on screen, {last:,}-step game (goal: 1,000 steps, < 50 ms p95)", steps))
        print(line("replay page first load with every step fetched once", loads))


def line(label: str, runs: list[float]) -> str:
    return f"{label}: median {percentile(runs, 50) * 1000:.1f} ms, p95 {percentile(runs, 95) * 1000:.1f} ms"


if __name__ == "__main__":
    main()
