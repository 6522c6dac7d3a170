"""Names are data, never markup: every page renders players, clubs, leagues and
catalog cards named to break out of HTML, attributes and the JSON in script
tags, and shows them only as text."""

from __future__ import annotations

import copy
import json
from html.parser import HTMLParser

from service.records.club.catalogs import default_catalog
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory, post_as_admin
from tests.web.helpers import csrf_token, sign_in
from tests.workers.helpers import drain, play_pig

HOSTILE = "</script><img src=x onerror=alert(1)>\"'&"


class _Page(HTMLParser):
    """A page as a browser parses it: its elements, its text and its scripts' contents."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._script: dict[str, str | None] | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag == "script":
            self._script = dict(attrs)
            self.scripts.append((self._script, ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            attrs, body = self.scripts[-1]
            self.scripts[-1] = (attrs, body + data)
        else:
            self.text.append(data)


def _only_as_text(html: str, shown: list[str]) -> None:
    page = _Page(html)
    for tag, attrs in page.elements:
        assert not (tag == "img" and attrs.get("src") == "x"), "a name became an element"
        assert not [a for a in attrs if a.startswith("on")], f"an event handler attribute on <{tag}>"
    for attrs, body in page.scripts:
        if attrs.get("src"):
            assert not body.strip()
            continue
        assert attrs.get("type") == "application/json", attrs
        json.loads(body)  # the whole block is one JSON value: no name closed it early
    text = "".join(page.text)
    for name in shown:
        assert name in text, f"{name!r} is not shown as text"


def test_every_page_shows_hostile_names_only_as_text(client, database_url):
    club = ClubFactory(client=client, name=f"Club {HOSTILE}")
    api = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club, name=f"{HOSTILE} {i}") for i in range(2)]
    league = LeagueFactory(client=client, club=club, name=f"League {HOSTILE}", public=True, min_games=1)
    for i in range(2):
        game = GameFactory(
            client=client,
            club=club,
            players=players,
            league=league["id"],
            public=True,
            options={"target": 12},
        )
        play_pig(client, game, hold_at=4 + i)
    drain(database_url)
    catalog = copy.deepcopy(default_catalog("house-of-cronies"))
    catalog.update(id="hostile", version=1, reconstruction=False)
    for crony in catalog["cronies"]:
        crony["name"] = f"{HOSTILE} {crony['id']}"
    assert (
        api.post(
            f"/clubs/{club['id']}/catalogs", {"kind": "house-of-cronies", "content": catalog}
        ).status_code
        == 201
    )
    cronies = post_as_admin(
        client,
        club,
        "games",
        {
            "engine": "house-of-cronies",
            "seats": [
                PlayerFactory(client=client, club=club, name=f"{HOSTILE} c{i}")["id"] for i in range(3)
            ],
            "dealer": "table",
            "catalog": {"id": "hostile", "version": 1},
        },
    )
    names = [p["name"] for p in players]
    pages = {
        f"/league/{league['id']}": [league["name"], *names],
        f"/league/{league['id']}/statistics": [league["name"], *names],
        f"/game/{game['id']}": names,
        f"/game/{game['id']}/replay": names,
    }
    for path, shown in pages.items():
        response = client.get(path)
        assert response.status_code == 200, path
        _only_as_text(response.get_data(as_text=True), shown)
    chart = _Page(client.get(f"/league/{league['id']}").get_data(as_text=True)).scripts
    data = [json.loads(body) for attrs, body in chart if attrs.get("type") == "application/json"]
    charted = {line["name"] for block in data for line in block["series"]}
    assert charted and charted <= set(names), "the chart names its players as they are"

    sign_in(client, club["admin_token"])
    admin_pages = {
        f"/club/{club['id']}": [club["name"], league["name"], *names],
        f"/club/{club['id']}/new-game?engine=pig": [*names, league["name"]],
        f"/game/{cronies['id']}": [],
        f"/game/{cronies['id']}/scorepad": [],
    }
    texts = []
    for path, shown in admin_pages.items():
        response = client.get(path)
        assert response.status_code == 200, path
        html = response.get_data(as_text=True)
        _only_as_text(html, shown)
        texts.append("".join(_Page(html).text))
    assert any(f"{HOSTILE} crony-01" in text for text in texts), "the catalog's card names are not shown"

    form = client.get(f"/club/{club['id']}/new-game?engine=pig").get_data(as_text=True)
    created = client.post(
        f"/club/{club['id']}/new-game",
        data={"csrf_token": csrf_token(form), "engine": "pig", "seat": [p["id"] for p in players]},
    )
    assert created.status_code == 200
    _only_as_text(created.get_data(as_text=True), names)
