"""The scorepad at the speed of the table: the same seeded random game of every
engine recorded on the scorepad by clicking only (Chromium through
Playwright, a 390×844 screen), printing taps per game, taps per log line and
the server's time per tap (p50/p95: every request one tap causes, summed),
beside the scorepad before entries were sets (``scorepad_baseline.json``,
measured once on that code with this module: ``python -m bench.bench_scorepad
--baseline``); ``--tally`` also prints each engine's taps by what they entered.

The game is chosen by the engine, not by the page: at each step a seeded
generator picks the next entry among every seat's legal commands (or deals the
chance the game awaits, each card the lowest-numbered copy of its name, as
the pad enters it), and the clicker taps the buttons that enter exactly that
entry (a command and the die rolled on it with one button, where the pad
offers one: the die dealt as the next step would deal it; every seat's pass
with "Nobody else reacts" when the next entries are those passes and leave
the same game; an entry the pad records by itself, the only one possible,
with no tap). Both pads therefore record the same game; ``--engine=ID``
records one engine's game alone.
"""

from __future__ import annotations

import json
import logging
import random
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from werkzeug.serving import make_server

from bench.support import bench_database, percentile
from engines import registry
from engines.chance import deal
from service.app import create_app
from service.config import Settings
from service.records import choices, states
from service.records.games import get_game

BASELINE = Path(__file__).with_name("scorepad_baseline.json")
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
SEED = 26
#: A game of each engine short enough to record by clicking, and its seats.
GAMES = {
    "pig": ({"target": 20}, 2),
    "chancellors": ({"target": 10}, 3),
    "house-of-cronies": ({}, 4),
    "political-divide-and-conquer": ({}, 4),
    "final-decrees": ({"decline_discards": 20}, 5),
    "maccreedys-mansion": ({"max_rounds": 1}, 2),
}
#: Entries a table may make at any time without moving the game on: never chosen.
FREE = {"OfferTrade"}
MAX_ENTRIES = 1500


class Timed:
    """WSGI middleware: the server time of every request but the static files', in order."""

    def __init__(self, app):
        self.app = app
        self.times: list[float] = []
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO", "").startswith("/assets/"):
            return self.app(environ, start_response)
        started = time.perf_counter()
        try:
            return list(self.app(environ, start_response))
        finally:
            with self.lock:
                self.times.append(time.perf_counter() - started)


def _flat(command: dict[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {"type": command.get("type")}
    for key, value in command.items():
        if key in ("type", "seat"):
            continue
        if isinstance(value, list | tuple):
            for i, item in enumerate(value):
                flat[f"{key}.{i}"] = item
            flat[f"{key}.count"] = len(value)
        else:
            flat[key] = value
    return flat


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    def norm(c):
        return {k: sorted(v) if k == "cards" else v for k, v in c.items() if k != "seat"}

    return norm(a) == norm(b)


class Clicker:
    def __init__(self, page, timed: Timed):
        self.page = page
        self.timed = timed
        self.taps = 0
        self.tap_times: list[float] = []
        self.kinds: Counter[str] = Counter()

    def window(self) -> list | None:
        """The entries the pad's "Nobody else reacts" would make, when it offers it."""
        found = self.page.locator("#pad-window form[data-entries]")
        return json.loads(found.first.get_attribute("data-entries")) if found.count() else None

    def window_with_roll(self, roll: dict[str, Any]) -> bool:
        """Tap the one button that enters every seat's pass and ``roll``, when the pad has one."""
        thens = self.page.evaluate(
            """() => Array.from(document.querySelectorAll('#pad-window .choice')).map(
                 el => { const t = el.closest('form').querySelector('input[name=then]'); return t ? t.value : null; })"""
        )
        for i, then in enumerate(thens):
            if then and _same(json.loads(then), roll):
                self.tap(self.page.locator("#pad-window .choice").nth(i), "nobody else reacts, and the dice")
                return True
        return False

    def tap(self, locator, kind: str) -> None:
        before = len(self.timed.times)
        swapped = self.page.locator("#scorepad[hx-boost]").count() > 0
        if swapped:
            swaps = int(self.page.evaluate("() => document.body.dataset.swaps || 0"))
            locator.click()
            self.page.wait_for_function(f"() => Number(document.body.dataset.swaps || 0) > {swaps}")
        else:
            with self.page.expect_navigation():
                locator.click()
        self.taps += 1
        self.kinds[kind] += 1
        self.tap_times.append(sum(self.timed.times[before:]))

    def options(self, key: str) -> list[dict[str, Any]]:
        return self.page.evaluate(
            """key => {
              const pad = document.getElementById('pad-' + key);
              if (!pad) return [];
              return Array.from(pad.querySelectorAll('.choice')).map((el, i) => {
                const form = el.closest('form');
                const then = form ? form.querySelector('input[name=then]') : null;
                return {i, href: el.getAttribute('href'), name: (el.closest('[data-name]') || el).dataset.name || null,
                        command: form ? form.querySelector('input[name=command]').value : null,
                        then: then ? then.value : null};
              });
            }""",
            key,
        )

    def enter(self, actor: int | None, command: dict[str, Any], card_words: list[str], left_words=()) -> None:
        """Tap the buttons that enter ``command`` for ``actor`` (a draw of most
        of the pool: the cards that stay, when the pad asks for those)."""
        key = "table" if actor is None else str(actor)
        flat = _flat({**command, "cards": sorted(command["cards"])} if "cards" in command else command)
        stays = self.page.locator(f"#pad-{key} [data-stays]").count() > 0
        needed = Counter(left_words if stays else card_words)
        for _ in range(200):
            options = self.options(key)
            final = next(
                (
                    o
                    for o in options
                    if o["command"] and not o["then"] and _same(json.loads(o["command"]), command)
                ),
                None,
            )
            kind = ("the table: " if actor is None else "") + str(command.get("type"))
            if final is not None:
                self.tap(self.page.locator(f"#pad-{key} .choice").nth(final["i"]), kind)
                return
            for option in options:
                if not option["href"]:
                    continue
                picks = [p.partition("=") for p in parse_qs(urlsplit(option["href"]).query)["p"]]
                card_of_set = (
                    picks[-1][0] == "card" and actor is None
                )  # a seat's "card" is a field of its command
                fits = (
                    needed[option["name"]] > 0
                    if card_of_set
                    else all(flat.get(path) == json.loads(raw) for path, _, raw in picks)
                )
                if fits:
                    if card_of_set:
                        needed[option["name"]] -= 1
                    self.tap(self.page.locator(f"#pad-{key} .choice").nth(option["i"]), kind)
                    break
            else:
                raise AssertionError(f"no button enters {command} for {key}: {options}")
        raise AssertionError(f"{command} was not entered")

    def enter_with_roll(self, actor: int, command: dict[str, Any], roll: dict[str, Any]) -> bool:
        """Tap the one button that enters ``command`` and the die rolled on it, when the pad has one."""
        for option in self.options(str(actor)):
            if (
                option["then"]
                and _same(json.loads(option["command"]), command)
                and _same(json.loads(option["then"]), roll)
            ):
                self.tap(
                    self.page.locator(f"#pad-{actor} .choice").nth(option["i"]),
                    f"{command['type']} and its chance",
                )
                return True
        return False


def _canonical(request, command: dict[str, Any], words) -> tuple[dict[str, Any], list[str]]:
    """The dealt cards as the pad enters them: of copies that read alike, the lowest-numbered."""
    if "cards" not in command:
        return command, []
    left = Counter(request.pool)
    by_words: dict[str, list[str]] = {}
    for card in sorted(left.elements()):
        by_words.setdefault(words("cards", card), []).append(card)
    cards = []
    for card in command["cards"]:
        copies = by_words[words("cards", card)]
        cards.append(copies.pop(0))
    text = [words("cards", c).lower() for c in cards]
    return {**command, "cards": cards}, text


def _next_entry(engine, state, seats: int, rng: random.Random, names) -> tuple[int | None, dict, list[str]]:
    """The seeded generator's next entry: one among every seat's legal commands,
    or the chance the game awaits dealt (each card the lowest-numbered copy of
    its name, as the pad enters it)."""
    words = choices.engine_value_labels(engine, state, names)
    request = engine.chance(state)
    if request is not None:
        dealt = deal(request, rng)
        command, card_words = _canonical(request, {k: v for k, v in dealt.items() if k != "seat"}, words)
        return None, command, card_words
    legal = [(s, c) for s in range(seats) for c in engine.legal_commands(state, s)]
    kept = [(s, c) for s, c in legal if c["type"] not in FREE] or legal
    actor, chosen = rng.choice(kept)
    return actor, {k: v for k, v in chosen.items() if k != "seat"}, []


def _roll_after(engine, state, actor: int, command: dict[str, Any]):
    """The one die the game awaits once ``command`` is entered, or None."""
    for event in engine.decide(state, {**command, "seat": actor}):
        state = engine.evolve(state, event)
    request = engine.chance(state)
    return request if request is not None and request.dice == 1 and not request.draw else None


@dataclass(frozen=True)
class Planned:
    """One entry of the seeded game: who makes it, the command, the cards'
    words (a draw), and the state before and after it."""

    actor: int | None
    command: dict[str, Any]
    card_words: list[str]
    before: Any
    after: Any
    left_words: tuple[str, ...] = ()  # a draw's cards that stay in the pool


def _apply(engine, state, actor, command):
    for event in engine.decide(state, {**command, "seat": actor}):
        state = engine.evolve(state, event)
    return state


def plan(engine, state, seats: int, rng: random.Random) -> list[Planned]:
    """The whole seeded game from ``state``: each entry chosen on the game as
    it stands, and a command's die, when it rolls one, dealt by the generator
    as the next entry would be (the scorepad may enter both with one tap)."""
    names = [f"P{i}" for i in range(seats)]
    out: list[Planned] = []
    while not engine.outcome(state).finished:
        if len(out) >= MAX_ENTRIES:
            raise AssertionError("the game did not end")
        actor, command, card_words = _next_entry(engine, state, seats, rng, names)
        if actor is None and "cards" in command:  # the pad enters a set's cards in sorted order
            command = {**command, "cards": sorted(command["cards"])}
        request = None if actor is None else _roll_after(engine, state, actor, command)
        after = _apply(engine, state, actor, command)
        out.append(
            Planned(actor, command, card_words, state, after, left_words=_left(engine, state, command, names))
        )
        state = after
        if request is not None:
            roll = {k: v for k, v in deal(request, rng).items() if k != "seat"}
            after = _apply(engine, state, None, roll)
            out.append(Planned(None, roll, [], state, after))
            state = after
    return out


def _left(engine, state, command: dict[str, Any], names: list[str]) -> tuple[str, ...]:
    """The words of the cards a draw leaves in its pool (the pad may ask for those instead)."""
    request = engine.chance(state)
    if request is None or "cards" not in command:
        return ()
    words = choices.engine_value_labels(engine, state, names)
    left = Counter(request.pool) - Counter(command["cards"])
    return tuple(words("cards", c).lower() for c in left.elements())


def _window_fits(engine, steps: list[Planned], entries: list) -> bool:
    """Do the next planned entries pass exactly the seats the pad's "Nobody
    else reacts" passes for (in whatever order), leaving the same game?"""
    ahead = steps[: len(entries)]
    if len(ahead) < len(entries) or any(s.actor is None for s in ahead):
        return False
    wanted = sorted((seat, json.dumps(c, sort_keys=True)) for seat, c in entries)
    planned = sorted((s.actor, json.dumps(s.command, sort_keys=True)) for s in ahead)
    if wanted != planned:
        return False
    state = ahead[0].before
    for seat, command in entries:
        state = _apply(engine, state, seat, command)
    return engine.dump_state(state) == engine.dump_state(ahead[-1].after)


def record(page, timed: Timed, pool, game_id: str, rng: random.Random) -> dict[str, Any]:
    """Record the seeded game: the planned entries tapped in order, several
    with one tap where the pad offers a button that enters them all (a
    command and its die; every seat's pass); after each tap the game as
    stored must be the planned game some entries on (entries the pad made by
    itself, being the only ones possible, are skipped over)."""
    clicker = Clicker(page, timed)
    page.goto(f"/game/{game_id}/scorepad")
    with pool.connection() as conn:
        game = get_game(conn, game_id)
        engine, state = game.engine, states.load_state(conn, game)
    steps = plan(engine, state, len(game.seats), rng)
    at = 0
    while at < len(steps):
        step = steps[at]
        window = clicker.window()
        if window is not None and _window_fits(engine, steps[at:], window):
            after = steps[at + len(window)] if at + len(window) < len(steps) else None
            if after is None or after.actor is not None or not clicker.window_with_roll(after.command):
                clicker.tap(page.locator("#nobody-else"), "nobody else reacts")
        elif (
            at + 1 < len(steps)
            and step.actor is not None
            and steps[at + 1].actor is None  # the chance the entry leads to: a die, a card drawn
            and clicker.enter_with_roll(step.actor, step.command, steps[at + 1].command)
        ):
            pass
        else:
            clicker.enter(step.actor, step.command, step.card_words, step.left_words)
        at = _recorded(engine, pool, game_id, steps, at)
    with pool.connection() as conn:
        game = get_game(conn, game_id)
    assert game.status != "active", f"{game_id}: the game did not end"
    return {
        "taps": clicker.taps,
        "log_lines": game.version,
        "tap_times": clicker.tap_times,
        "kinds": dict(clicker.kinds),
    }


def _recorded(engine, pool, game_id: str, steps: list[Planned], at: int) -> int:
    """How many planned entries the stored game has reached (more than one
    past ``at`` when a tap entered several)."""
    with pool.connection() as conn:
        stored = engine.dump_state(states.load_state(conn, get_game(conn, game_id)))
    for i in range(at, min(at + 64, len(steps))):
        if engine.dump_state(steps[i].after) == stored:
            return i + 1
    near = [(s.actor, s.command, engine.dump_state(s.after)) for s in steps[max(at - 2, 0) : at + 3]]
    raise AssertionError(f"{game_id}: the pad recorded {stored}, not the planned entries {at}..: {near}")


def _club(client) -> dict[str, Any]:
    response = client.post("/clubs", json={"name": "Bench club"})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _post(client, club, path: str, body: dict) -> dict:
    response = client.post(
        f"/clubs/{club['id']}/{path}", json=body, headers={"Authorization": f"Bearer {club['admin_token']}"}
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def measure() -> dict[str, dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    figures = {}
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with bench_database() as url:
        app = create_app(Settings(database_url=url, rate_limit_enabled=False))
        pool = app.extensions["tablerecord.records"].pool
        client = app.test_client()
        club = _club(client)
        players = [_post(client, club, "players", {"name": n}) for n in ("Ana", "Ben", "Cat", "Dan", "Eve")]
        timed = Timed(app.wsgi_app)
        app.wsgi_app = timed
        http = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=http.serve_forever, daemon=True)
        thread.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox"], headless=True
                )
                context = browser.new_context(viewport=PHONE, base_url=f"http://127.0.0.1:{http.server_port}")
                context.set_default_timeout(30_000)
                page = context.new_page()
                page.goto("/")
                page.fill("#token", club["admin_token"])
                with page.expect_navigation():
                    page.click("button:has-text('Sign in')")
                for engine_id in _engines():
                    options, seats = GAMES[engine_id]
                    game = _post(
                        client,
                        club,
                        "games",
                        {
                            "engine": engine_id,
                            "seats": [p["id"] for p in players[:seats]],
                            "dealer": "table",
                            "options": options,
                        },
                    )
                    started = time.perf_counter()
                    figures[engine_id] = record(page, timed, pool, game["id"], random.Random(SEED))
                    figures[engine_id]["seconds"] = time.perf_counter() - started
                    print(f"  recorded {engine_id}: {figures[engine_id]['taps']} taps", flush=True)
                browser.close()
        finally:
            http.shutdown()
            pool.close()
    return figures


def _engines() -> list[str]:
    """The engines to record: every one, or those named after ``--engine``."""
    named = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--engine=")]
    return [e for e in registry.available() if not named or e in named]


def _summary(run: dict[str, Any]) -> dict[str, float]:
    times = [t * 1000 for t in run["tap_times"]]
    return {
        "taps": run["taps"],
        "log_lines": run["log_lines"],
        "taps_per_line": run["taps"] / run["log_lines"],
        "p50_ms": percentile(times, 50),
        "p95_ms": percentile(times, 95),
    }


def main() -> None:
    if not Path(CHROMIUM).exists():
        print(f"skipped: the scorepad bench needs Chromium at {CHROMIUM}")
        return
    runs = measure()
    now = {engine: _summary(run) for engine, run in runs.items()}
    if "--baseline" in sys.argv and set(now) == set(registry.available()):
        BASELINE.write_text(json.dumps(now, indent=2, sort_keys=True) + "\n")
        print(f"baseline written to {BASELINE.name}")
    before = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    print(
        f"{'engine':<30} {'taps':>11} {'fewer':>6} {'taps/line':>11} {'p50 ms':>13} {'p95 ms':>13}"
        "   (scorepad now / baseline; goal: ≥ 40% fewer taps, p95 < 150 ms)"
    )
    for engine, fig in now.items():
        base = before.get(engine)
        if base is None:
            print(f"{engine:<30} {fig['taps']:>11} {'':>6} {fig['taps_per_line']:>11.2f}")
            continue
        fewer = 1 - fig["taps"] / base["taps"]
        print(
            f"{engine:<30} {fig['taps']:>5}/{base['taps']:<5} {fewer:>6.0%} "
            f"{fig['taps_per_line']:>5.2f}/{base['taps_per_line']:<5.2f} "
            f"{fig['p50_ms']:>6.1f}/{base['p50_ms']:<6.1f} {fig['p95_ms']:>6.1f}/{base['p95_ms']:<6.1f}"
        )

    if "--tally" in sys.argv:
        print("taps by what they entered:")
        for engine, run in runs.items():
            tally = ", ".join(f"{kind} {n}" for kind, n in Counter(run["kinds"]).most_common())
            print(f"  {engine}: {tally}")


if __name__ == "__main__":
    main()
