"""No page shows an identifier or a raw value: the game page (during play and
at the end), the replay page and its steps (every table and line), for every
engine, in both dealing modes, for every kind of viewer (the recorder, each
seat, a spectator of a public game, the recorder through each seat's eyes).
The visible text may hold no catalog id, engine slug, UUID, 0-based seat or
Python/JSON literal."""

from __future__ import annotations

import html
import random
import re

import pytest

from engines import registry
from service.records.club.catalogs import default_catalog
from tests.engines.test_table_views import catalog_ids
from tests.factories import Api, ClubFactory, GameFactory, PlayerFactory
from tests.web.helpers import sign_in
from tests.workers.helpers import drain

#: Shorter games than a game's first trial, where one exists: every registered game is rendered.
SHORTER = {"pig": ({"target": 20}, 2), "chancellors": ({"target": 20}, 3)}
OPTIONS = {
    game.id: SHORTER.get(game.id) or (dict(game.trial.options), game.trial.seats) for game in registry.games()
}
NAMES = ["Ann Lee", "Bob Okafor", "Cat Moreau", "Dan Sato", "Eve Park", "Fay Ruiz"]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
LITERAL = re.compile(r"\b(None|True|False|null|true|false)\b|[{}\[\]]|'\w+':")
ZERO_SEAT = re.compile(r"\b[Ss]eat 0\b|^0\.", re.MULTILINE)
#: An engine's words joined by hyphens ("take-over", "human-resources"): never how a page speaks.
SLUG = re.compile(r"(?<![\w-])[a-z]+(?:-[a-z0-9]+)+(?![\w-])")
ENGLISH = {
    "face-down",
    "set-aside",
    "main-deck",
    "co-op",
    "no-confidence",
    "re-open",
    "re-opens",
    "one-off",
    "make-up",
    "well-being",
}


def visible_text(page: str) -> str:
    page = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<[^>]*>", " ", page)
    return html.unescape(page)


def offences(text: str, ids: re.Pattern | None) -> list[str]:
    """Each offending word with the words around it."""
    found = [*UUID.finditer(text), *LITERAL.finditer(text), *ZERO_SEAT.finditer(text)]
    found += [m for m in SLUG.finditer(text) if m.group(0) not in ENGLISH]
    if ids is not None:
        found += list(ids.finditer(text))
    return [" ".join(text[max(m.start() - 60, 0) : m.end() + 20].split()) for m in found]


def id_pattern(engine_id: str) -> re.Pattern | None:
    ids = catalog_ids(default_catalog(engine_id)) if registry.get(engine_id).catalog_kind else set()
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(ids))) + r")(?![\w-])") if ids else None


def play(api: Api, game_id: str, rng: random.Random, steps: int | None) -> None:
    for _ in range(steps or 5000):
        legal = api.get(f"/games/{game_id}/legal-actions").get_json()
        choices = [a for actions in legal["seats"].values() for a in actions]
        if not choices:
            return
        r = api.post(
            f"/games/{game_id}/actions", {**rng.choice(choices), "expected_version": legal["version"]}
        )
        assert r.status_code == 201, r.get_json()


def check_pages(app, game: dict, token: str | None, seats: int, ids, replay: bool, as_seats: bool) -> None:
    client = app.test_client()  # a browser of its own: no one else's cookie
    if token is not None:
        sign_in(client, token)
    gid = game["id"]
    paths = [f"/game/{gid}"]
    if token is not None and game["dealer"] == "table":
        paths.append(f"/game/{gid}/scorepad")  # its details opened or not, the same text
    if replay:
        paths += [f"/game/{gid}/replay?step=1", f"/game/{gid}/replay?step=100000"]
    if as_seats:
        paths += [f"/game/{gid}?seat={s}" for s in range(seats)]
        if replay:
            paths += [
                f"/game/{gid}/replay?seat=0&step=100000"
            ]  # a seat's eyes (every seat's: the pages above)
    steps_paths = []
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        text = visible_text(response.get_data(as_text=True))
        assert not offences(text, ids), (path, offences(text, ids)[:10])
        steps_path = path.split("?")[0] + "/steps" + ("?seat=0" if "seat=0" in path else "")
        if "/replay" in path and steps_path not in steps_paths:  # the steps are the same for every step asked
            steps_paths.append(steps_path)
    for path in steps_paths:
        # every step's line and table, read a hundred steps at a time as the viewer may ask for them
        first, last = 1, 1
        while first <= last:
            sep = "&" if "?" in path else "?"
            steps = client.get(f"{path}{sep}from={first}&to={first + 99}").get_json()
            assert steps["steps"] and steps["tables"], (path, first)
            text = "\n".join(
                [line for _, line, _, _ in steps["steps"]]
                + [visible_text(t) for t in [*steps["tables"].values(), *steps["parts"].values()]]
            )
            assert not offences(text, ids), (path, first, offences(text, ids)[:10])
            first, last = first + 100, steps["last"]


@pytest.mark.parametrize("dealer", ["server", "table"])
@pytest.mark.parametrize("engine_id", list(OPTIONS))
def test_no_page_shows_an_identifier_or_a_raw_value(app, client, database_url, engine_id, dealer):
    options, seats = OPTIONS[engine_id]
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club, name=NAMES[s]) for s in range(seats)]
    game = GameFactory(
        client=client,
        club=club,
        engine=engine_id,
        options=options,
        dealer=dealer,
        players=players,
        public=True,
    )
    api = Api(client, club["admin_token"])
    ids = id_pattern(engine_id)
    rng = random.Random(11)
    viewers = [club["admin_token"], None, *(t["token"] for t in game.get("seat_tokens", []))]

    play(api, game["id"], rng, 40)  # during play: hands hidden from all but their seat
    drain(database_url, ["replays"])
    for token in viewers:
        check_pages(
            app, game, token, seats, ids, replay=token is not None, as_seats=token == club["admin_token"]
        )
    play(api, game["id"], rng, None)  # the end: everything shown
    drain(database_url, ["replays"])
    check_pages(app, game, club["admin_token"], seats, ids, replay=True, as_seats=True)
