"""The table view in a browser: every engine's finished game stepped from the
first step to the last with the keyboard, each step's table as the API gives it;
a seat's-eye replay never shows another seat's hand; no page scrolls sideways
on a 390-pixel phone."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

import pytest

from engines import registry
from engines.base import fold
from engines.chance import deal
from tests.engines.test_table_views import config_of
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.web.conftest import PHONE
from tests.web.helpers import play_table_game, table_game
from tests.web.test_browser import replay_ready, sign_in

NAMES = ["Ann Lee", "Bob Okafor", "Cat Moreau", "Dan Sato"]
#: Shorter games than a game's first trial, where one exists: every registered game is walked.
SHORTER = {"chancellors": (3, {"target": 10})}
GAMES = {
    game.id: SHORTER.get(game.id) or (game.trial.seats, dict(game.trial.options)) for game in registry.games()
}

#: What a step shows, read from the page: the caption, then each seat's and area's card names in order.
SHOWN = """() => {
  const host = document.getElementById('table-host');
  const caption = host.querySelector('.caption');
  return {
    step: Number(document.getElementById('step-number').textContent),
    caption: caption ? caption.textContent : '',
    line: document.getElementById('step-line').textContent,
    seats: [...host.querySelectorAll('.seat')].map(s => [...s.querySelectorAll('.card .name')].map(n => n.textContent)),
    areas: [...host.querySelectorAll('.areas .card .name')].map(n => n.textContent),
  };
}"""


#: Resolves once the step the viewer is on is drawn (a step outside the window it holds is fetched first).
DRAWN = """() => new Promise(done => {
  const stepper = document.getElementById('stepper');
  const check = () => {
    if (stepper.dataset.drawn !== stepper.dataset.step) return false;
    document.removeEventListener('replay:drawn', check);
    done();
    return true;
  };
  if (!check()) document.addEventListener('replay:drawn', check);
})"""

WALK = (
    "async (n) => { const shown = ("
    + SHOWN
    + "); const drawn = ("
    + DRAWN
    + """); const out = [];
  for (let i = 0; i < n; i++) {
    document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    await drawn();
    out.push(shown());
  }
  return out; }"""
)


def press(page, key: str) -> dict:
    """A key pressed, and what the step it leads to shows once drawn."""
    page.keyboard.press(key)
    page.evaluate(DRAWN)
    return page.evaluate(SHOWN)


def expected(step: dict) -> dict:
    table = step["table"]
    return {
        "step": step["step"],
        "caption": table["caption"],
        "line": step["description"],
        "seats": [[c["name"] for g in s["groups"] for c in g["cards"]] for s in table["seats"]],
        "areas": [c["name"] for g in table["areas"] for c in g["cards"]],
    }


def random_commands(engine_id: str, seats: int, options: dict, seed: int = 5) -> list[dict]:
    """A whole random game's commands, played on the engine alone (fast), as an import lists them."""
    engine = registry.get(engine_id)
    config = config_of(engine_id, seats, options, "table")
    rng = random.Random(seed)
    state = fold(engine, config, engine.setup(config))
    commands = []
    while not engine.outcome(state).finished:
        request = engine.chance(state)
        if request is not None:
            command = deal(request, rng)
        else:
            command = rng.choice([c for s in range(seats) for c in engine.legal_commands(state, s)])
        state = fold(engine, config, engine.decide(state, command), state)
        commands.append(
            {"seat": command.get("seat"), "command": {k: v for k, v in command.items() if k != "seat"}}
        )
    return commands


def finished_game(client, engine: str):
    """A finished table game of ``engine``, imported in one request, and its replay projected."""
    seats, options = GAMES[engine]
    club = ClubFactory(client=client)
    document = {
        "engine": engine,
        "seats": [{"name": name} for name in NAMES[:seats]],
        "options": options,
        "commands": random_commands(engine, seats, options),
    }
    response = Api(client, club["admin_token"]).post(f"/clubs/{club['id']}/games/import", document)
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    replay_ready(client, game["id"], club["admin_token"])
    return club, game


@pytest.mark.parametrize("engine", list(GAMES))
def test_a_finished_games_replay_steps_first_to_last_by_keyboard_as_the_api_shows_it(
    page, broker_client, projections, engine
):
    club, game = finished_game(broker_client, engine)
    steps = (
        Api(broker_client, club["admin_token"])
        .get(f"/games/{game['id']}/replay/export?view=table")
        .get_json()["steps"]
    )
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{game['id']}/replay?step=1")
    page.wait_for_selector("body[data-replay-ready]")
    assert page.evaluate(SHOWN) == expected(steps[0])
    assert press(page, "ArrowRight") == expected(steps[1])
    # every further step by its key, read in the page (one round trip for the whole game)
    shown = page.evaluate(WALK, len(steps) - 2)
    for seen, step in zip(shown, steps[2:], strict=True):
        assert seen == expected(step), step["step"]
    assert page.url.endswith(f"step={len(steps)}")
    assert press(page, "Home") == expected(steps[0])
    assert press(page, "End") == expected(steps[-1])
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], ("the replay scrolls sideways", width)


#: The steps the replay page shipped with itself.
SHIPPED = "() => JSON.parse(document.getElementById('replay-window').textContent).steps.map(s => s[0])"


def test_a_long_games_replay_ships_a_window_and_fetches_a_far_step_drawn_as_the_api_shows_it(
    page, broker_client, projections
):
    """The page carries the steps around the one asked for, not the whole game; a step
    far from them is fetched when it is jumped to (End, the contents) and shows the API's
    table at that step."""
    club, game = finished_game(broker_client, "house-of-cronies")
    steps = (
        Api(broker_client, club["admin_token"])
        .get(f"/games/{game['id']}/replay/export?view=table")
        .get_json()["steps"]
    )
    assert len(steps) > 200, len(steps)
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{game['id']}/replay?step=1")
    page.wait_for_selector("body[data-replay-ready]")
    shipped = page.evaluate(SHIPPED)
    assert shipped == list(range(1, len(shipped) + 1)) and len(shipped) <= 25, shipped
    assert press(page, "End") == expected(steps[-1])
    assert page.url.endswith(f"step={len(steps)}")

    far = len(steps) // 2
    chunk = int(page.get_attribute("#stepper", "data-chunk"))
    link = page.locator(f"#contents a[data-step='{far}']")
    if not link.is_visible():
        link.locator("xpath=ancestor::details/summary").click()
    first = (far - 1) // chunk * chunk + 1
    with page.expect_response(
        lambda r: "/replay/steps" in r.url and parse_qs(urlsplit(r.url).query)["from"] == [str(first)]
    ):
        link.click()
    page.evaluate(DRAWN)
    assert page.evaluate(SHOWN) == expected(steps[far - 1])
    assert page.url.endswith(f"step={far}")
    assert press(page, "ArrowLeft") == expected(steps[far - 2])
    assert press(page, "Home") == expected(steps[0])


HIDDEN_ELSEWHERE = """(own) => [...document.querySelectorAll('#table-host .seat')]
  .filter((s, i) => i !== own)
  .flatMap(s => [...s.querySelectorAll('.group[data-title=Hand] .card:not(.down)')]).length"""


def test_a_seats_eye_replay_never_shows_another_seats_hand(page, broker_client, projections):
    club, game = finished_game(broker_client, "chancellors")
    steps = (
        Api(broker_client, club["admin_token"]).get(f"/games/{game['id']}/replay/export?seat=1").get_json()
    )
    sign_in(page, club["admin_token"])
    page.goto(f"/game/{game['id']}/replay?seat=1&step=1")
    page.wait_for_selector("body[data-replay-ready]")
    for step in steps["steps"][:-1]:
        if step["state"].get("finished"):  # the end shows every hand, to every seat
            break
        assert page.evaluate(HIDDEN_ELSEWHERE, 1) == 0, step["step"]
        press(page, "ArrowRight")
    assert (
        page.locator("#table-host .seat").nth(1).locator(".group[data-title=Hand] .card:not(.down)").count()
    )


def test_no_game_page_scrolls_sideways_on_a_phone(page, broker_client):
    for engine, (seats, options) in GAMES.items():
        club, _, _, game = table_game(broker_client, engine, seats, league=False, **options)
        entries = iter(range(20))
        play_table_game(
            broker_client, game, club["admin_token"], until=lambda _, left=entries: next(left, None) is None
        )
        page.context.clear_cookies()
        sign_in(page, club["admin_token"])
        for path in (f"/game/{game['id']}", f"/game/{game['id']}?seat=0"):
            page.goto(path)
            width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], (engine, path, width)


SIDEWAYS = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def test_no_page_type_scrolls_sideways_on_a_phone(page, broker_client, projections):
    """Every page type a member opens, on a 390-pixel screen: the game page for a
    spectator and a seat, the replay, the scorepad, the club, the league, its
    statistics and a profile."""
    club = ClubFactory(client=broker_client)
    players = [PlayerFactory(client=broker_client, club=club, name=n) for n in NAMES[:3]]
    league = LeagueFactory(client=broker_client, club=club, public=True)
    game = GameFactory(
        client=broker_client,
        club=club,
        engine="chancellors",
        options={"target": 10},
        dealer="table",
        players=players,
        public=True,
        league=league["id"],
    )
    gid = game["id"]
    play_table_game(broker_client, game, club["admin_token"], until=lambda view: view["version"] >= 30)
    page.goto(f"/game/{gid}")  # a spectator of a public game, signed out
    assert page.locator("#table-host, .table-view").count(), "the spectator sees no table"
    assert page.evaluate(SIDEWAYS)[0] <= PHONE["width"], ("spectator", page.evaluate(SIDEWAYS))
    sign_in(page, club["admin_token"])
    for path in (f"/game/{gid}?seat=0", f"/game/{gid}/scorepad"):
        page.goto(path)
        assert page.evaluate(SIDEWAYS)[0] <= PHONE["width"], (path, page.evaluate(SIDEWAYS))
    play_table_game(broker_client, game, club["admin_token"])  # to the end: a replay, standings, figures
    replay_ready(broker_client, gid, club["admin_token"])
    for path in (
        f"/game/{gid}/replay?step=1",
        f"/club/{club['id']}",
        f"/league/{league['id']}",
        f"/league/{league['id']}/statistics",
        f"/player/{players[0]['id']}",
    ):
        response = page.goto(path)
        assert response.status == 200, path
        assert page.evaluate(SIDEWAYS)[0] <= PHONE["width"], (path, page.evaluate(SIDEWAYS))
