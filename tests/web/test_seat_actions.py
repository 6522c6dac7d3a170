"""The game page's seat actions: whoever may act for the seat the page shows
(a member for their own seat alone) plays it there, each action worded as the
log will read it, answered in place (htmx); a refusal stores nothing and says
why in plain words."""

from __future__ import annotations

import html
import json
import re

import pytest

from service.records.scorepad import seats
from tests.factories import Api, ClubFactory, GameFactory, PlayerFactory
from tests.helpers import event_count
from tests.web.helpers import csrf_token, sign_in

NAMES = ("Ada", "Bea", "Cy", "Dee")
ACTIONS = re.compile(r'<section class="pad seat-actions".*?</section>', re.S)
FORM = re.compile(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', re.S)
FIELD = re.compile(r"name=\"(\w+)\" value='([^']*)'|name=\"(\w+)\" value=\"([^\"]*)\"")
BUTTON = re.compile(r'<button type="submit" class="choice final">([^<]*)</button>')
LINK = re.compile(r'<a class="button choice" href="[^"]+" hx-get="([^"]+)">([^<]*)</a>')
LOG = re.compile(r'<ol class="log"[^>]*>(.*?)</ol>', re.S)
SWAP = {"HX-Request": "true"}


@pytest.fixture
def dealt(client):
    """A server-dealt game of House of Cronies between Ada, Bea, Cy and Dee,
    its players listed from the one to act first (the dealt Speaker)."""
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club, name=n) for n in NAMES]
    game = GameFactory(client=client, club=club, players=players, engine="house-of-cronies", options={})
    legal = Api(client, club["admin_token"]).get(f"/games/{game['id']}/legal-actions").get_json()
    first = next(int(seat) for seat, commands in legal["seats"].items() if commands)
    return club, players[first:] + players[:first], game


def member(client, club, player) -> None:
    admin = Api(client, club["admin_token"])
    token = admin.post(f"/clubs/{club['id']}/players/{player['id']}/sign-in").get_json()["token"]
    sign_in(client, token)


def actions(page: str) -> tuple[list[tuple[str, dict[str, str], str]], list[tuple[str, str]]]:
    """The seat's actions on a page: each form (its action, fields and button's
    words) and each narrowing link (its address and words)."""
    found = ACTIONS.search(page)
    if not found:
        return [], []
    forms = []
    for action, body in FORM.findall(found.group(0)):
        fields = {}
        for f in FIELD.finditer(body):
            name, raw = (f.group(1), f.group(2)) if f.group(1) else (f.group(3), f.group(4))
            fields[name] = html.unescape(raw)
        button = BUTTON.search(body)  # none: a form asking for a number
        forms.append((html.unescape(action), fields, html.unescape(button.group(1)) if button else ""))
    links = [(html.unescape(u), html.unescape(t)) for u, t in LINK.findall(found.group(0))]
    return forms, links


def first_action(client, game) -> tuple[str, dict[str, str], str]:
    """The page's first whole action, its questions answered with their first answer."""
    forms, links = actions(client.get(f"/game/{game['id']}").get_data(as_text=True))
    while not forms:
        forms, links = actions(client.get(links[0][0], headers=SWAP).get_data(as_text=True))
    return forms[0]


def log_line(page: str, version: int) -> str:
    """The log's line for the event at ``version``."""
    found = re.search(rf'<li class="[^"]*" value="{version}">(.*?)</li>', LOG.search(page).group(1))
    return html.unescape(found.group(1)).strip()


def test_a_member_plays_their_own_seat_from_the_game_page_worded_as_the_log_reads(client, dealt, pool):
    club, players, game = dealt
    member(client, club, players[0])
    page = client.get(f"/game/{game['id']}").get_data(as_text=True)
    name, seat = players[0]["name"], str(NAMES.index(players[0]["name"]))
    assert f"Your move, {name}" in page
    action, fields, words = first_action(client, game)
    assert fields["actor"] == seat and fields["csrf_token"]
    assert words.startswith(f"{name} ")
    before = event_count(pool, game["id"])
    answer = client.post(action, data=fields, headers=SWAP)
    fragment = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "<html" not in fragment and 'id="live"' in fragment
    assert event_count(pool, game["id"]) > before
    written = log_line(fragment, int(fields["version"]) + 1)
    assert words.startswith(written.rstrip(".")), "the button reads as the log line it wrote"
    now = re.search(r'id="live" data-version="(\d+)"', fragment).group(1)
    assert int(now) > int(fields["version"]) and 'id="seat-actions"' in fragment
    assert all(f["version"] == now for _, f, _ in actions(fragment)[0]), "the next actions are the game's now"


def test_a_member_is_refused_another_seat_and_nothing_is_stored(client, dealt, pool):
    club, players, game = dealt
    member(client, club, players[1])  # who waits for the first to act
    page = client.get(f"/game/{game['id']}").get_data(as_text=True)
    assert f"Not your move, {players[1]['name']}" in page and not actions(page)[0]
    first = str(NAMES.index(players[0]["name"]))
    legal = Api(client, club["admin_token"]).get(f"/games/{game['id']}/legal-actions").get_json()
    command, version = legal["seats"][first][0]["command"], legal["version"]
    before = event_count(pool, game["id"])
    answer = client.post(
        f"/game/{game['id']}/act",
        data={
            "csrf_token": csrf_token(page),
            "actor": first,
            "version": str(version),
            "command": json.dumps(command),
        },
        headers=SWAP,
    )
    assert answer.status_code == 200
    assert "You may act only for your own seat." in answer.get_data(as_text=True)
    assert event_count(pool, game["id"]) == before


def test_an_action_without_the_forms_token_is_refused(client, dealt, pool):
    club, players, game = dealt
    member(client, club, players[0])
    _, fields, _ = first_action(client, game)
    before = event_count(pool, game["id"])
    answer = client.post(f"/game/{game['id']}/act", data={**fields, "csrf_token": "forged"}, headers=SWAP)
    assert answer.status_code == 400 and event_count(pool, game["id"]) == before


def test_an_action_on_a_game_that_moved_on_is_refused_in_words(client, dealt, pool):
    club, players, game = dealt
    member(client, club, players[0])
    action, fields, _ = first_action(client, game)
    assert client.post(action, data=fields, headers=SWAP).status_code == 200
    moved = event_count(pool, game["id"])
    again = client.post(action, data=fields, headers=SWAP).get_data(as_text=True)
    refusal = re.search(r'<p class="flash refused" role="alert">([^<]*)</p>', again)
    assert refusal and refusal.group(1).strip(), "the refusal is said on the page"
    assert event_count(pool, game["id"]) == moved


def test_without_scripts_an_action_returns_to_the_game_page(client, dealt):
    club, players, game = dealt
    member(client, club, players[0])
    action, fields, _ = first_action(client, game)
    answer = client.post(action, data=fields)
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/game/{game['id']}")
    refused = client.post(action, data=fields, follow_redirects=True).get_data(as_text=True)
    assert 'class="flash refused"' in refused


def test_a_question_narrows_the_seats_actions_in_place(client, dealt, monkeypatch):
    monkeypatch.setattr(seats, "FINAL_AT", 2)  # more actions than fit as buttons come sooner
    club, _, game = dealt
    sign_in(client, club["admin_token"])
    admin = Api(client, club["admin_token"])
    for k in range(60):  # until a seat has more actions than fit as buttons, and a question asks on
        legal = admin.get(f"/games/{game['id']}/legal-actions").get_json()
        seat, options = next((s, c) for s, c in legal["seats"].items() if c)
        if len(options) > seats.FINAL_AT:
            forms, links = actions(client.get(f"/game/{game['id']}?seat={seat}").get_data(as_text=True))
            if links:
                break
        body = {**options[k % len(options)], "expected_version": legal["version"]}
        assert admin.post(f"/games/{game['id']}/actions", body).status_code == 201
    else:
        pytest.fail("no seat was ever asked a question")
    url, words = links[0]
    narrowed = client.get(url, headers=SWAP).get_data(as_text=True)
    forms, links = actions(narrowed)
    assert forms or links
    assert f": {words}" in narrowed, "the answer given is shown above the actions left"
    assert f"seat={seat}" in url and all(f["actor"] == seat for _, f, _ in forms)


def test_only_a_seat_the_caller_may_act_for_has_actions(client, dealt):
    club, players, game = dealt
    sign_in(client, club["admin_token"])
    assert "seat-actions" not in client.get(f"/game/{game['id']}").get_data(as_text=True)
    seat = NAMES.index(players[0]["name"])
    forms, links = actions(client.get(f"/game/{game['id']}?seat={seat}").get_data(as_text=True))
    assert all(f["actor"] == str(seat) and f"seat={seat}" in a for a, f, _ in forms)
    assert (forms or links) and all(f"seat={seat}" in u for u, _ in links)
    other = NAMES.index(players[1]["name"])
    assert not actions(client.get(f"/game/{game['id']}?seat={other}").get_data(as_text=True))[0]


def test_a_member_enters_the_number_their_company_buys_and_a_refused_number_stays_typed(client, pool):
    """MacCreedy's Mansion's game page asks "Buy how many stone?" beside its buttons."""
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club, name=n) for n in NAMES[:2]]
    game = GameFactory(client=client, club=club, players=players, engine="maccreedys-mansion", options={})
    legal = Api(client, club["admin_token"]).get(f"/games/{game['id']}/legal-actions").get_json()
    first = next(int(seat) for seat, commands in legal["seats"].items() if commands)
    member(client, club, players[first])

    def buy(amount: str) -> str:
        forms = actions(client.get(f"/game/{game['id']}").get_data(as_text=True))[0]
        action, fields = next(
            (a, f)
            for a, f, _ in forms
            if "amount_field" in f and json.loads(f["command"])["resource"] == "stone"
        )
        answer = client.post(action, data={**fields, "amount": amount}, headers=SWAP)
        assert answer.status_code == 200
        return answer.get_data(as_text=True)

    before = event_count(pool, game["id"])
    refused = buy("-2")
    assert "That entry is not possible" in refused and 'value="-2"' in refused
    assert event_count(pool, game["id"]) == before, "a refusal stores nothing"
    bought = buy("4")
    assert f"{NAMES[first]} buys 4 stone." in html.unescape(bought)
    assert event_count(pool, game["id"]) > before
