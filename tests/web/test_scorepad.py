"""The scorepad, through the app's test client: every engine can be recorded
by choosing among the offered entries only; what is refused stores nothing."""

from __future__ import annotations

import html
import json
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from engines import registry
from engines.chancellors.cards import CARDS
from engines.chancellors.cards import label as card_label
from service.records.pages import entries
from tests.factories import Api
from tests.helpers import event_count
from tests.web.helpers import csrf_token, play_table_game, sign_in, table_game

PAD = re.compile(r'<section class="pad" id="pad-(\w+)">(.*?)</section>', re.S)
FORM = re.compile(r'<form method="post" action="([^"]+/scorepad(?:/nobody-else)?)"[^>]*>(.*?)</form>', re.S)
FIELD = re.compile(r"name=\"(\w+)\" value='([^']*)'|name=\"(\w+)\" value=\"([^\"]*)\"")
LINK = re.compile(r'<a class="button choice" href="([^"]+)"[^>]*>')
#: A number field, sent with the number it holds (as a browser sends it untouched).
NUMBER = re.compile(r'<input type="number"[^>]*?name="(\w+)"[^>]*?value="([^"]*)"', re.S)

#: Entries a table may make at any moment without moving the game on
#: (Final Decrees' deals: every seat may offer one to every other at any time).
FREE = {"OfferTrade"}
#: The odds that the chooser keeps a free entry it drew.
FREE_ODDS = 0.1


def pads(page: str) -> dict[str, list[tuple[str, dict | str]]]:
    """Each pad's options by actor ("table", a seat, or "window" for "Nobody else reacts"):
    ("post", form fields and its action) or ("get", link)."""
    return {key: _options(pad) for key, pad in PAD.findall(page)}


def _options(pad: str) -> list[tuple[str, dict | str]]:
    options = []
    for _position, kind, value in sorted(
        [(m.start(), "post", m) for m in FORM.finditer(pad)]
        + [(m.start(), "get", html.unescape(m.group(1))) for m in LINK.finditer(pad)]
    ):
        if kind == "post":
            fields = {"action": html.unescape(value.group(1))}
            for f in FIELD.finditer(value.group(2)):
                name, raw = (f.group(1), f.group(2)) if f.group(1) else (f.group(3), f.group(4))
                fields[name] = html.unescape(raw)
            fields.update((name, html.unescape(raw)) for name, raw in NUMBER.findall(value.group(2)))
            options.append(("post", fields))
        else:
            options.append(("get", value))
    return options


def _free(kind: str, value: dict | str) -> bool:
    """Whether an option is (or leads only to) a free entry."""
    if kind == "post":
        return "command" in value and json.loads(value["command"])["type"] in FREE
    picks = parse_qs(urlsplit(value).query).get("p", [])
    return any(p == f'type="{t}"' for t in FREE for p in picks)


def record_by_choosing(client, game_id: str, max_entries: int) -> tuple[int, bool]:
    """Enter what is offered only, until the game ends or ``max_entries`` were
    made; each entry must be accepted. The chooser is seeded (runs repeat):
    it picks one actor's pad at random among those offered, then one of the
    pad's options at random, question after question, and posts the button
    it ends on. A free entry (``FREE``) it drew is kept one time in ten and
    drawn again otherwise: at random, a table's deals would fill the game.
    Returns (entries made, whether the game ended)."""
    path = f"/game/{game_id}/scorepad"
    page = client.get(path).get_data(as_text=True)
    rng = random.Random(7)
    entries = 0
    actor = None
    while 'id="finished"' not in page and entries < max_entries:
        offered = pads(page)
        assert offered, "a live game offers something to enter"
        if actor not in offered:
            actor = rng.choice(sorted(offered))
        kind, value = rng.choice(offered[actor])
        if _free(kind, value) and rng.random() >= FREE_ODDS:
            actor = None
            continue
        if kind == "get":
            page = client.get(value).get_data(as_text=True)
            continue
        response = client.post(value.pop("action"), data=value)
        assert response.status_code == 303
        page = client.get(path).get_data(as_text=True)
        assert 'class="flash refused"' not in page, page
        entries += 1
        actor = None
    return entries, 'id="finished"' in page


def new_table_game(client, engine: str):
    trial = registry.game(engine).trial
    options, seats = dict(trial.options), trial.seats
    club, _, _, game = table_game(client, engine=engine, seats=seats, league=False, **options)
    sign_in(client, club["admin_token"])
    return club, game


@pytest.mark.parametrize("engine", registry.available())
def test_a_whole_game_is_recorded_on_the_scorepad_by_choosing_only(client, engine):
    club, game = new_table_game(client, engine)
    assert record_by_choosing(client, game["id"], max_entries=1000)[1], "the game did not end"
    view = Api(client, club["admin_token"]).get(f"/games/{game['id']}").get_json()
    assert view["status"] == "finished"


BUTTON = re.compile(r'<button type="submit" class="choice final">([^<]*)</button>')


def test_a_button_names_the_card_it_enters_as_the_log_names_it(client):
    club, players, _, game = table_game(client, target=10, league=False)
    sign_in(client, club["admin_token"])
    view = play_table_game(client, game, club["admin_token"], until=lambda v: v["state"]["phase"] == "choose")
    hand = view["state"]["hands"][0]
    page = client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    pad = dict(PAD.findall(page))["0"]
    shown = [html.unescape(b) for b in BUTTON.findall(pad)]
    assert sorted(shown) == sorted(f"{players[0]['name']} chooses {card_label(c)} face down" for c in hand)


def test_the_table_s_pad_names_the_chance_it_awaits_as_the_log_will(client):
    club, _, _, game = table_game(client, target=10, league=False)
    sign_in(client, club["admin_token"])
    page = client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    assert ">The table: Problem 1 is rolled</h2>" in dict(PAD.findall(page))["table"]
    kind, form = pads(page)["table"][2]  # the first die by row, the second by column
    assert client.post(f"/game/{game['id']}/scorepad", data=form).status_code == 303
    page = client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    assert re.search(r'<li class="" value="\d+">Problem 1 is rolled: 1 and 3\.</li>', page)


def test_a_command_that_is_not_legal_now_is_refused_and_stores_nothing(client, pool):
    club, _, _, game = table_game(client, target=10, league=False)
    sign_in(client, club["admin_token"])
    page = client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    before = event_count(pool, game["id"])
    response = client.post(
        f"/game/{game['id']}/scorepad",
        data={
            "csrf_token": csrf_token(page),
            "seat": "0",
            "command": json.dumps({"type": "ChooseCard", "card": "author"}),
            "version": str(game["version"]),
        },
    )
    assert response.status_code == 303
    assert 'class="flash refused"' in client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    assert event_count(pool, game["id"]) == before


def test_an_entry_made_again_on_a_page_the_game_has_moved_past_is_refused_saying_what_changed(client, pool):
    club, _, _, game = table_game(client, target=10, league=False)
    sign_in(client, club["admin_token"])
    page = client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    entry = {"seat": "table", "command": json.dumps({"type": "RollDice", "problem": 0, "dice": [3, 4]})}
    first = client.post(
        f"/game/{game['id']}/scorepad",
        data={**entry, "csrf_token": csrf_token(page), "version": game["version"]},
    )
    assert first.status_code == 303
    after_first = event_count(pool, game["id"])
    again = client.post(
        f"/game/{game['id']}/scorepad",
        data={**entry, "csrf_token": csrf_token(page), "version": game["version"]},
    )
    assert again.status_code == 303
    refused = client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    assert "Meanwhile: Problem 1 is rolled: 3 and 4. Choose again." in html.unescape(refused)
    assert event_count(pool, game["id"]) == after_first


def test_undo_takes_back_the_whole_last_entry_and_nothing_before_it(client):
    club, _, _, game = table_game(client, target=10, league=False)
    sign_in(client, club["admin_token"])
    api = Api(client, club["admin_token"])
    for dice in ([3, 4], [2, 5]):
        legal = api.get(f"/games/{game['id']}/legal-actions").get_json()
        command = {**legal["seats"]["dealer"][0]["command"], "dice": dice}
        assert api.post(f"/games/{game['id']}/actions", {"seat": None, "command": command}).status_code == 201
    version = api.get(f"/games/{game['id']}").get_json()["version"]
    page = client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    response = client.post(
        f"/game/{game['id']}/undo", data={"csrf_token": csrf_token(page), "version": version}
    )
    assert response.status_code == 303
    problems = api.get(f"/games/{game['id']}").get_json()["state"]["problems"]
    assert [p["dice"] for p in problems[:2]] == [[3, 4], []]


@pytest.mark.parametrize("tail", [1, 150])
def test_each_undo_takes_back_one_more_entry_however_long_the_game(client, monkeypatch, tail):
    """The scorepad reads the stream's newest events only (``SCOREPAD_TAIL``), and
    the whole stream when an entry or a retraction reaches further back."""
    monkeypatch.setattr(entries, "SCOREPAD_TAIL", tail)
    club, _, _, game = table_game(client, engine="pig", seats=2, league=False, target=100)
    sign_in(client, club["admin_token"])
    api = Api(client, club["admin_token"])
    seen = []
    for _ in range(12):
        view = api.get(f"/games/{game['id']}").get_json()
        seen.append(view["state"])
        legal = api.get(f"/games/{game['id']}/legal-actions").get_json()
        option = next(c[0] for c in legal["seats"].values() if c)
        if option["seat"] is None:
            option["command"]["dice"] = [1]  # a bust: one entry, two events
        assert api.post(f"/games/{game['id']}/actions", option).status_code == 201
    for expected in reversed(seen[-4:]):
        page = client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
        version = api.get(f"/games/{game['id']}").get_json()["version"]
        response = client.post(
            f"/game/{game['id']}/undo", data={"csrf_token": csrf_token(page), "version": version}
        )
        assert response.status_code == 303
        assert api.get(f"/games/{game['id']}").get_json()["state"] == expected
    page = client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    assert page.count('class="retracted"') >= 4


def test_a_form_without_its_csrf_token_is_refused(client, pool):
    club, _, _, game = table_game(client, target=10, league=False)
    sign_in(client, club["admin_token"])
    before = event_count(pool, game["id"])
    response = client.post(
        f"/game/{game['id']}/scorepad",
        data={
            "seat": "table",
            "command": json.dumps({"type": "RollDice", "problem": 0, "dice": [3, 4]}),
            "version": 2,
        },
    )
    assert response.status_code == 400
    assert event_count(pool, game["id"]) == before


def test_the_sign_in_cookie_is_http_only_and_same_site(client):
    club = table_game(client, league=False)[0]
    page = client.get("/").get_data(as_text=True)
    response = client.post("/sign-in", data={"token": club["admin_token"], "csrf_token": csrf_token(page)})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_a_token_that_is_not_one_does_not_sign_in(client):
    page = client.get("/").get_data(as_text=True)
    response = client.post("/sign-in", data={"token": "tr_admin_nope", "csrf_token": csrf_token(page)})
    assert response.status_code == 401
    assert "Set-Cookie" not in response.headers or "tablerecord_token" not in response.headers["Set-Cookie"]


CHOICE_LINK = re.compile(
    r'<a class="button choice" href="([^"]+)"[^>]*>([^<]*?)(?: <span class="count">[^<]*</span>)?</a>'
)


def test_the_table_s_draw_offers_each_card_by_the_name_the_log_gives_it(client):
    club, _, _, game = table_game(client, target=10, league=False)
    sign_in(client, club["admin_token"])
    view = play_table_game(
        client,
        game,
        club["admin_token"],
        until=lambda v: (v["waiting_for_chance"] or {}).get("command") == "DrawCards",
    )
    assert view["waiting_for_chance"]["draw"] > 1  # card by card
    page = client.get(f"/game/{game['id']}/scorepad").get_data(as_text=True)
    pad = dict(PAD.findall(page))["table"]
    links = [(html.unescape(href), html.unescape(text)) for href, text in CHOICE_LINK.findall(pad)]
    names = {card_label(c)[0].upper() + card_label(c)[1:]: c for c in CARDS}
    assert links and all(text in names for _, text in links), links
    assert [text for _, text in links] == sorted((text for _, text in links), key=str.casefold)
    href, text = links[0]
    assert parse_qs(urlsplit(href).query)["p"] == [f'card="{names[text]}"']  # the pick is the card itself
    page = client.get(href).get_data(as_text=True)
    assert f"Take back one {text}" in html.unescape(dict(PAD.findall(page))["table"])


def test_a_roll_and_its_die_are_entered_with_one_tap_and_undone_one_entry_at_a_time(client):
    club, game = new_table_game(client, "pig")
    path = f"/game/{game['id']}/scorepad"
    offered = pads(client.get(path).get_data(as_text=True))
    assert list(offered) == ["0"], "no die is asked apart from the roll"
    four = next(f for _, f in offered["0"] if f.get("then") and json.loads(f["then"])["dice"] == [4])
    assert json.loads(four["command"]) == {"type": "Roll"}
    assert client.post(path, data=four).status_code == 303
    api = Api(client, club["admin_token"])
    events = api.get(f"/games/{game['id']}/events").get_json()["events"]
    assert [(e["type"], e["data"].get("value")) for e in events[-2:]] == [
        ("RollStarted", None),
        ("DieRolled", 4),
    ]

    page = client.get(path).get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', page).group(1)
    undo = {"csrf_token": csrf_token(page), "version": version}
    assert client.post(f"/game/{game['id']}/undo", data=undo).status_code == 303
    assert "table" in pads(client.get(path).get_data(as_text=True)), "the die alone is taken back"


def test_a_company_buys_any_number_of_one_resource_in_one_entry_and_a_refused_number_stays_typed(client):
    """MacCreedy's Mansion lists one of each resource as a button; the pad
    also asks "Buy how many stone?" and takes the number typed."""
    club, game = new_table_game(client, "maccreedys-mansion")
    play_table_game(client, game, club["admin_token"], until=lambda view: view["waiting_for_chance"] is None)
    path = f"/game/{game['id']}/scorepad"
    api = Api(client, club["admin_token"])
    version = api.get(f"/games/{game['id']}").get_json()["version"]

    def stone_form(page: str) -> dict:
        forms = [f for options in pads(page).values() for kind, f in options if kind == "post"]
        return next(
            f for f in forms if "amount_field" in f and json.loads(f["command"]).get("resource") == "stone"
        )

    def post(amount: str) -> str:
        form = {**stone_form(client.get(path).get_data(as_text=True)), "amount": amount}
        response = client.post(form.pop("action"), data=form, headers={"HX-Request": "true"})
        assert response.status_code == 200
        return response.get_data(as_text=True)

    assert "Buy how many stone?" in client.get(path).get_data(as_text=True)
    for typed, why in (
        (
            "0",
            "That entry is not possible: must be greater than or equal to 1 and less than or equal to 1000.",
        ),
        ("1001", "That entry is not possible: must be greater than or equal to 1"),
        ("2.5", "Type a whole number."),
    ):
        pad = post(typed)
        assert why in pad and stone_form(pad)["amount"] == typed, "the number typed stays in its field"
        assert api.get(f"/games/{game['id']}").get_json()["version"] == version, "a refusal stores nothing"
    tampered = {**stone_form(client.get(path).get_data(as_text=True)), "amount": "3", "amount_field": "type"}
    answer = client.post(tampered.pop("action"), data=tampered, headers={"HX-Request": "true"})
    assert "The entry is not a command." in answer.get_data(as_text=True)
    assert api.get(f"/games/{game['id']}").get_json()["version"] == version, (
        "a number never names the command"
    )
    pad = post("3")
    assert re.search(r"\w+ buys 3 stone\.", pad), "the log reads the number bought"
    assert api.get(f"/games/{game['id']}").get_json()["version"] == version + 1
