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

Each game is then recorded again at a table where every player has a phone
(a browser context of its own, signed in with the player's member sign-in):
each seat enters its own secrets there (the cards dealt into its hand, a
command of its own that the engine redacts from the other seats: a sealed bid,
a card chosen face down), the recorder's phone everything else; and once more
with the recorder seeing only public information (``admin_spectator``), where
every seat enters all of its own commands. Taps are counted per phone (the
recorder's, the busiest seat's, all of them), and after each tap of a phone
that must not see them, its screen is read for the names of the cards another
seat holds hidden (each seat's engine view is the truth). ``--one-phone``
records the first way alone.
"""

from __future__ import annotations

import json
import logging
import random
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from werkzeug.serving import make_server

from bench.support import bench_database, percentile
from engines import registry
from engines.base import RuleViolation
from engines.chance import deal
from service.app import create_app
from service.config import Settings
from service.records.pages import entries, game_page, scorepad_page
from service.records.recording import states
from service.records.recording.games import get_game
from service.records.scorepad import labels

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


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    def norm(c):
        return {k: sorted(v) if k == "cards" else v for k, v in c.items() if k != "seat"}

    return norm(a) == norm(b)


class Clicker:
    """One phone's taps on the scorepad; ``check`` (when given) looks at its
    screen after each of them."""

    def __init__(self, page, timed: Timed, check: Callable[[Clicker], None] | None = None):
        self.page = page
        self.timed = timed
        self.check = check
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
        if self.check is not None:
            self.check(self)

    def version(self) -> int:
        """The game's version as this phone's page shows it."""
        return int(self.page.locator("#status").get_attribute("data-version"))

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
        flat = labels.answers(
            {**command, "cards": sorted(command["cards"])} if "cards" in command else command
        )
        stays = self.page.locator(f"#pad-{key} [data-stays]").count() > 0
        needed = Counter(left_words if stays else card_words)

        def last_of_set(option) -> bool:
            """The set's last card by name (a player's own pad names copies
            of the cards it cannot see, which the service takes from the deck)."""
            return (
                actor is None and option["name"] is not None and needed.total() == needed[option["name"]] == 1
            )

        for _ in range(200):
            options = self.options(key)
            final = next(
                (
                    o
                    for o in options
                    if o["command"]
                    and not o["then"]
                    and (_same(json.loads(o["command"]), command) or last_of_set(o))
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
    """The seeded generator's next entry: one among every seat's legal commands
    (of commands that read alike, the first, as the pad offers it), or the
    chance the game awaits dealt (each card the lowest-numbered copy of its
    name, as the pad enters it)."""
    words = labels.engine_value_labels(engine, state, names)
    request = engine.chance(state)
    if request is not None:
        dealt = deal(request, rng)
        command, card_words = _canonical(request, {k: v for k, v in dealt.items() if k != "seat"}, words)
        return None, command, card_words
    legal = [(s, c) for s in range(seats) for c in engine.legal_commands(state, s)]
    kept = [(s, c) for s, c in legal if c["type"] not in FREE] or legal
    actor, chosen = rng.choice(kept)
    read = labels.reading(chosen, words)
    chosen = next(c for s, c in legal if s == actor and labels.reading(c, words) == read)
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
    words = labels.engine_value_labels(engine, state, names)
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


RECORDER = "recorder"


def own_phone(engine, step: Planned, seats: int) -> int | None:
    """The seat that enters ``step`` on its own phone at a table where each
    player enters their own secrets, or None (the recorder's entry): the cards
    a chance deals into that seat's hidden hand (its ``dealt_to``), and a
    seat's command whose events the engine redacts from the other seats (a
    sealed bid, a card chosen face down, its hidden side of a trade)."""
    if step.actor is None:
        request = engine.chance(step.before)
        return request.dealt_to if request is not None else None
    events = engine.decide(step.before, {**step.command, "seat": step.actor})
    hides = any(engine.redact(e, other) != e for e in events for other in range(seats) if other != step.actor)
    return step.actor if hides else None


@dataclass(frozen=True)
class Table:
    """The phones recording one game and who taps what: one phone (the
    recorder's) for everything; or the recorder's and one per seat, each seat
    entering its own secrets (``own_phone``), and, where the recorder sees
    only public information (``sealed``: the game's ``admin_spectator``), every
    command of its own, since that recorder enters no seat's command."""

    phones: dict[str | int, Clicker]
    seats: int
    sealed: bool = False

    def phone_of(self, engine, step: Planned) -> str | int:
        if len(self.phones) == 1:
            return RECORDER
        if self.sealed and step.actor is not None:
            return step.actor
        seat = own_phone(engine, step, self.seats)
        return RECORDER if seat is None else seat


def record(table: Table, pool, game_id: str, rng: random.Random) -> dict[str, Any]:
    """Record the seeded game: the planned entries tapped in order, each on the
    phone that enters it (a phone whose page another phone's entry left
    behind shows the game anew first: not a tap), several with one tap where
    the pad offers a button that enters them all (a command and its die;
    every seat's pass); after each tap the game as stored must be the planned
    game some entries on (entries the pad made by itself, being the only ones
    possible, are skipped over)."""
    for clicker in table.phones.values():
        clicker.page.goto(f"/game/{game_id}/scorepad")
    with pool.connection() as conn:
        game = get_game(conn, game_id)
        engine, state = game.engine, states.load_state(conn, game)
    version = game.version
    steps = plan(engine, state, len(game.seats), rng)
    at = 0
    while at < len(steps):
        step = steps[at]
        key = table.phone_of(engine, step)
        clicker = table.phones[key]
        page = clicker.page
        if clicker.version() != version:
            page.goto(f"/game/{game_id}/scorepad")
        window = clicker.window()
        if (
            window is not None
            and _window_fits(engine, steps[at:], window)
            and all(table.phone_of(engine, s) == key for s in steps[at : at + len(window)])
        ):
            after = steps[at + len(window)] if at + len(window) < len(steps) else None
            if (
                after is None
                or after.actor is not None
                or table.phone_of(engine, after) != key
                or not clicker.window_with_roll(after.command)
            ):
                clicker.tap(page.locator("#nobody-else"), "nobody else reacts")
        elif (
            at + 1 < len(steps)
            and step.actor is not None
            and steps[at + 1].actor is None  # the chance the entry leads to: a die, a card drawn
            and table.phone_of(engine, steps[at + 1]) == key
            and clicker.enter_with_roll(step.actor, step.command, steps[at + 1].command)
        ):
            pass
        else:
            clicker.enter(step.actor, step.command, step.card_words, step.left_words)
        at, version = _recorded(engine, pool, game_id, steps, at)
    with pool.connection() as conn:
        game = get_game(conn, game_id)
    assert game.status != "active", f"{game_id}: the game did not end"
    clickers = table.phones.values()
    return {
        "taps": sum(c.taps for c in clickers),
        "phones": {str(k): c.taps for k, c in table.phones.items()},
        "log_lines": game.version,
        "tap_times": [t for c in clickers for t in c.tap_times],
        "kinds": dict(sum((c.kinds for c in clickers), Counter())),
    }


def _recorded(engine, pool, game_id: str, steps: list[Planned], at: int) -> tuple[int, int]:
    """How many planned entries the stored game has reached (more than one
    past ``at`` when a tap entered several), and its version."""
    with pool.connection() as conn:
        game = get_game(conn, game_id)
        stored = engine.dump_state(states.load_state(conn, game))
    for i in range(at, min(at + 64, len(steps))):
        if engine.dump_state(steps[i].after) == stored:
            return i + 1, game.version
    near = [(s.actor, s.command, engine.dump_state(s.after)) for s in steps[max(at - 2, 0) : at + 3]]
    raise AssertionError(f"{game_id}: the pad recorded {stored}, not the planned entries {at}..: {near}")


def _strings(value: Any) -> set[str]:
    """Every string in a JSON value (the ids of the cards a view shows, among others)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *(_strings(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(set(), *(_strings(v) for v in value))
    return set()


def hidden_names(engine, state, seats: int, viewer: int | None, names: list[str]) -> set[str]:
    """The cards another seat sees and ``viewer`` (a seat; None: a spectator)
    may not, the engine's view for each seat being the truth: their ids, and
    their names as the pad names them, less any name ``viewer`` sees on a card
    it may see (another copy of the same card) or among the cards of a draw it
    enters."""
    hook = getattr(engine, "label_value", None)
    if hook is None:
        return set()

    def name(value: str) -> str | None:
        return hook(state, "cards", value, names)

    theirs = set().union(set(), *(_strings(engine.view(state, s)) for s in range(seats) if s != viewer))
    mine = _strings(engine.view(state, viewer)) | _offered_pools(engine, state, viewer)
    hidden = {v for v in theirs - mine if name(v)}
    return hidden | ({name(v) for v in hidden} - {name(v) for v in mine})


def _offered_pools(engine, state, viewer: int | None) -> set[str]:
    """The cards ``viewer``'s pad offers for a draw it may enter, each copy
    of a name among them (every card it cannot see, by name): the draw
    awaited, or one that a command of its own leads to (both in one tap)."""
    requests = [engine.chance(state)]
    if requests[0] is None and viewer is not None:
        for command in engine.legal_commands(state, viewer):
            try:
                requests.append(engine.chance(_apply(engine, state, viewer, command)))
            except RuleViolation:
                continue
    return {c for r in requests if r is not None and r.dealt_to == viewer for c in r.unseen or r.pool}


class Screens:
    """What the phones' screens showed: after each tap of a phone that must
    not see the others' hidden cards, its page's text (its details opened)
    holds none of their ids or names but in the log's public lines (else the
    recording stops, showing where)."""

    def __init__(self, pool, names: list[str]):
        self.pool = pool
        self.names = names
        self.looks = 0
        self.hidden = 0

    def watcher(self, game_id: str, viewer: int | None) -> Callable[[Clicker], None]:
        def look(clicker: Clicker) -> None:
            with self.pool.connection() as conn:
                game = get_game(conn, game_id)
                state = states.load_state(conn, game)
                events = entries.newest_events(conn, game)
            names = self.names[: len(game.seats)]
            secret = hidden_names(game.engine, state, len(game.seats), viewer, names)
            clicker.page.evaluate(  # the game's details too, read opened
                "() => document.querySelectorAll('details').forEach(d => { d.open = true; })"
            )
            text = clicker.page.locator("body").inner_text()
            # a line of the log that everyone reads tells no secret, whatever
            # card it names ("No Hawks investigation follows.")
            for line in game_page.log_lines(game, events, None, names, scorepad_page.SCOREPAD_LINES):
                text = text.replace(line["text"], "")
            shown = [
                text[max(m.start() - 60, 0) : m.end() + 20]
                for n in secret
                if (m := re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text, re.I))
            ]
            who = "the recorder" if viewer is None else names[viewer]
            assert not shown, f"{game.engine.id}: {who}'s phone shows another seat's hidden cards: {shown}"
            self.looks += 1
            self.hidden += len(secret)

        return look


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


#: The recordings of each engine's seeded game: on one phone; at a table where
#: each player enters their own secrets on their own phone; and the same where
#: the recorder sees only public information (the game's ``admin_spectator``).
RECORDINGS = ("one phone", "own phones", "recorder sees public only")


def measure() -> tuple[dict[str, dict[str, dict[str, Any]]], Screens]:
    from playwright.sync_api import sync_playwright

    figures: dict[str, dict[str, dict[str, Any]]] = {r: {} for r in RECORDINGS}
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with bench_database() as url:
        app = create_app(Settings(database_url=url, rate_limit_enabled=False))
        pool = app.extensions["tablerecord.records"].pool
        client = app.test_client()
        club = _club(client)
        names = ["Ana", "Ben", "Cat", "Dan", "Eve"]
        players = [_post(client, club, "players", {"name": n}) for n in names]
        screens = Screens(pool, names)
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

                def phone(token: str):
                    context = browser.new_context(
                        viewport=PHONE, base_url=f"http://127.0.0.1:{http.server_port}"
                    )
                    context.set_default_timeout(30_000)
                    page = context.new_page()
                    page.goto("/")
                    page.fill("#token", token)
                    with page.expect_navigation():
                        page.click("button:has-text('Sign in')")
                    return page

                recorder = phone(club["admin_token"])
                # each player's own phone, signed in with their member sign-in
                own = [phone(_post(client, club, f"players/{p['id']}/sign-in", {})["token"]) for p in players]
                for engine_id in _engines():
                    options, seats = GAMES[engine_id]
                    for recording in RECORDINGS[:1] if "--one-phone" in sys.argv else RECORDINGS:
                        sealed = recording == RECORDINGS[2]
                        game = _post(
                            client,
                            club,
                            "games",
                            {
                                "engine": engine_id,
                                "seats": [p["id"] for p in players[:seats]],
                                "dealer": "table",
                                "options": options,
                                **({"admin_spectator": True} if sealed else {}),
                            },
                        )
                        if recording == RECORDINGS[0]:
                            phones: dict[str | int, Clicker] = {RECORDER: Clicker(recorder, timed)}
                        else:
                            watch = screens.watcher(game["id"], None) if sealed else None
                            phones = {RECORDER: Clicker(recorder, timed, watch)}
                            for seat in range(seats):
                                phones[seat] = Clicker(own[seat], timed, screens.watcher(game["id"], seat))
                        started = time.perf_counter()
                        run = record(Table(phones, seats, sealed), pool, game["id"], random.Random(SEED))
                        run["seconds"] = time.perf_counter() - started
                        figures[recording][engine_id] = run
                        print(f"  recorded {engine_id} ({recording}): {run['taps']} taps", flush=True)
                browser.close()
        finally:
            http.shutdown()
            pool.close()
    return figures, screens


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
    recordings, screens = measure()
    runs = recordings[RECORDINGS[0]]
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
    if recordings[RECORDINGS[1]]:
        _print_table(recordings, now, before, screens)

    if "--tally" in sys.argv:
        print("taps by what they entered:")
        for recording, engines in recordings.items():
            for engine, run in engines.items():
                tally = ", ".join(f"{kind} {n}" for kind, n in Counter(run["kinds"]).most_common())
                print(f"  {engine} ({recording}): {tally}")


def _print_table(recordings, now, before, screens: Screens) -> None:
    """The same games with each player's secrets entered on their own phone:
    where the taps went (the recorder's phone, the busiest seat's, all of them)."""
    print(
        "\nthe same games, each player's secrets entered on their own phone: taps on the recorder's phone,"
        " the busiest seat's phone, all phones; one phone; baseline"
    )
    print(
        f"{'engine':<30} {'recording':<26} {'recorder':>8} {'busiest seat':>12} {'all':>5} {'one':>5} {'base':>5}"
    )
    for engine, one in now.items():
        for recording in RECORDINGS[1:]:
            run = recordings[recording].get(engine)
            if run is None:
                continue
            seats = [n for k, n in run["phones"].items() if k != RECORDER]
            base = before.get(engine, {}).get("taps", "")
            print(
                f"{engine:<30} {recording:<26} {run['phones'][RECORDER]:>8} {max(seats):>12} "
                f"{run['taps']:>5} {one['taps']:>5} {base:>5}"
            )
    print(
        f"screens checked after a tap: {screens.looks}, none showing any of the {screens.hidden} ids and names"
        " of cards another seat held hidden at that moment"
    )


if __name__ == "__main__":
    main()
