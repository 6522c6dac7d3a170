"""The replay viewer: how long a step of a 1,000-step game takes to be on the
screen (goal < 50 ms, p95), in Chromium through Playwright, beside a static
page's render in the same run.

A step is timed in the page from the key press (a ``keydown`` for the arrow
key, Home or End) to the second animation frame after the step is drawn, when
the new table has been laid out and painted; a step outside the window the
viewer holds is fetched first, and counted. Jumps to any step with the slider
(most of them fetched) are timed the same way and printed apart. The baseline
is a static HTML page holding the same table (the same stylesheet rules
inline), from navigation start to its load event. The replay page's own load
(the step asked for and the steps near it shipped with it) is printed too,
with its size; and the server's time for it, drawn cold and drawn before,
beside the game page's.
"""

from __future__ import annotations

import random
import re
import threading
import time
from pathlib import Path

from werkzeug.serving import WSGIRequestHandler, make_server

from bench.support import bench_database, percentile
from engines import registry
from engines.base import GameConfig, fold
from engines.chance import deal
from service.app import create_app
from service.config import Settings
from service.records.club.catalogs import default_catalog
from service.records.pages import replay_viewer
from service.web import game_pages
from workers.projections.rebuild import rebuild

#: A long game by the rulebook: MacCreedy's Mansion ends only when the mansion is restored or the
#: companies fail (the engine's default options stop it after round 20, a house rule that can only
#: shorten it); four companies playing at random run past a thousand steps. Political Divide &
#: Conquer's deck ends near 700 at any number of seats.
ENGINE = "maccreedys-mansion"
SEATS = 4
STEPS = 1000
SAMPLES = 300
JUMPS = 40
LOADS = 5
SEEDS = 12
SERVED = 7
CHROMIUM = "/usr/bin/chromium"

#: A key pressed (or the slider moved to a step), then until the step it leads to is drawn
#: (fetched first when it lay outside the steps the viewer holds) and two animation frames
#: later, when it has been laid out and painted: the time, whether the step was fetched, and
#: of the time, the key's handler (which draws a step it holds) and the layout (forced at once).
MOVE = """async ([key, to]) => {
  const stepper = document.getElementById('stepper');
  const slider = document.getElementById('slider');
  const start = performance.now();
  if (key) document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
  else { slider.value = String(to); slider.dispatchEvent(new Event('input', {bubbles: true})); }
  const handled = performance.now() - start;
  const fetched = stepper.dataset.drawn !== stepper.dataset.step;
  if (fetched) await new Promise(done => document.addEventListener('replay:drawn', function drawn() {
    if (stepper.dataset.drawn !== stepper.dataset.step) return;
    document.removeEventListener('replay:drawn', drawn);
    done();
  }));
  const before = performance.now();
  document.body.offsetHeight;
  const laid = performance.now() - before;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return [performance.now() - start, fetched, handled, laid];
}"""


def long_game() -> tuple[list[dict], int]:
    """Commands of the first random game with at least ``STEPS`` events (else the longest
    of ``SEEDS`` random games), and its event count."""
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
        http = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
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
                loads, sizes = [], []
                for _ in range(LOADS):
                    response = page.goto(f"{base}/game/{game['id']}/replay?step=1")
                    page.wait_for_selector("body[data-replay-ready]")
                    loads.append(page.evaluate("() => performance.now()") / 1000)
                    sizes.append(len(response.body()))
                last = page.evaluate("() => Number(document.getElementById('stepper').dataset.last)")
                page.wait_for_load_state("networkidle")  # the first and last chunks, asked for at once
                rng = random.Random(1)
                steps, fetched, handled, laid = [], [], [], []
                for _ in range(SAMPLES):
                    key = rng.choice(["ArrowRight"] * 8 + ["ArrowLeft", "End", "Home"])
                    took, far, handler, layout = page.evaluate(MOVE, [key, None])
                    (fetched if far else steps).append(took / 1000)
                    if not far:
                        handled.append(handler / 1000)
                        laid.append(layout / 1000)
                jumps = []
                for _ in range(JUMPS):
                    took, *_ = page.evaluate(MOVE, [None, rng.randint(1, last)])
                    jumps.append(took / 1000)
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
            served = server_times(app, club["admin_token"], game["id"], last)
        finally:
            http.shutdown()
            app.extensions["tablerecord.records"].pool.close()
        base_median = percentile(statics, 50)
        stepped = steps + fetched
        print(f"a {ENGINE} game of {events:,} events ({last:,} steps), imported and projected")
        print(
            line("baseline: a static page holding one step's table, navigation to load", statics, base_median)
        )
        print(
            line(f"replay step on screen by key, {last:,}-step game (goal < 50 ms p95)", stepped, base_median)
            + f"; {len(fetched)} of {len(stepped)} steps were fetched first"
        )
        if fetched:
            print(line("  of which, steps fetched first", fetched, base_median))
        print(line("  of a step held, the key's handler drawing it", handled, base_median))
        print(line("  of a step held, its layout", laid, base_median))
        print(line("replay step on screen by the slider, to any step", jumps, base_median))
        print(
            line(
                "replay page load, the step and those near it shipped (first load drawn cold)",
                loads,
                base_median,
            )
            + f"; first {loads[0] * 1000:.0f} ms; {sizes[-1] / 1024:,.0f} KiB"
        )
        page_median = percentile(served["game page"], 50)
        print(
            line(
                "server time, baseline: the game's own page (its last step's table)",
                served["game page"],
                page_median,
            )
        )
        for label in ("replay page, drawn cold", "replay page, drawn before"):
            print(line(f"server time, {label} (a middle step)", served[label], page_median))


def server_times(app, token: str, game_id: str, last: int) -> dict[str, list[float]]:
    """The server's time for the replay page of a middle step, drawn cold (no
    drawing of the replay kept: its lines and headings for every step, its tables
    for the steps shipped) and drawn before, beside the game page's."""
    client = app.test_client()
    home = client.get("/").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', home).group(1)
    client.post("/sign-in", data={"token": token, "csrf_token": csrf})
    path = f"/game/{game_id}/replay?step={last // 2}"
    times: dict[str, list[float]] = {
        "game page": [],
        "replay page, drawn cold": [],
        "replay page, drawn before": [],
    }

    def timed(label: str, url: str) -> None:
        started = time.perf_counter()
        assert client.get(url).status_code == 200, url
        times[label].append(time.perf_counter() - started)

    for _ in range(SERVED):
        replay_viewer._DRAWN.clear()
        game_pages._SENT.clear()
        timed("replay page, drawn cold", path)
        timed("replay page, drawn before", path)
        timed("game page", f"/game/{game_id}")
    return times


class Quiet(WSGIRequestHandler):
    """The server's requests go unlogged: the figures are the output."""

    def log_request(self, *args: object) -> None:
        pass


def line(label: str, runs: list[float], baseline: float) -> str:
    median, p95 = percentile(runs, 50), percentile(runs, 95)
    return (
        f"{label}: median {median * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"
        f" ({median / baseline:.2f}× / {p95 / baseline:.2f}× the baseline's median)"
    )


if __name__ == "__main__":
    main()
