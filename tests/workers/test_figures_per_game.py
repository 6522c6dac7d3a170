"""A league open to any game keeps each game's own figures apart: Pig's
target and Chancellors' are never averaged together, on the page or in the API."""

from __future__ import annotations

import random
import re

from engines import registry
from tests.api.test_full_games import play_through_api
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.web.helpers import sign_in
from tests.workers.helpers import drain, play_pig


def test_a_league_of_several_games_gives_each_game_s_own_figures_apart(client, database_url):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, engine=None)
    seats = registry.game("chancellors").trial.seats
    players = [PlayerFactory(client=client, club=club) for _ in range(seats)]
    pig = GameFactory(
        client=client, club=club, players=players[:2], league=league["id"], options={"target": 12}
    )
    play_pig(client, pig)
    chancellors = GameFactory(
        client=client,
        club=club,
        engine="chancellors",
        options={"target": 30},
        players=players,
        league=league["id"],
    )
    play_through_api(api, chancellors["id"], random.Random(1))
    drain(database_url)

    stats = api.get(f"/leagues/{league['id']}/statistics").get_json()["statistics"]
    assert stats["engine"] == {}
    assert stats["by_engine"]["pig"]["engine"]["target"] == {"total": 12, "mean": 12, "games": 1}
    assert stats["by_engine"]["chancellors"]["engine"]["target"] == {"total": 30, "mean": 30, "games": 1}

    sign_in(client, club["admin_token"])
    html = client.get(f"/league/{league['id']}/statistics").get_data(as_text=True)
    parts = html.split('<div class="engine-figures" data-title="')[1:]  # each game's part, up to the next
    sections = {part.split('"', 1)[0]: part for part in parts}
    assert set(sections) == {registry.get("pig").title, registry.get("chancellors").title}
    target = re.compile(r"<dt>Target</dt><dd>([^<]*)</dd>")
    assert target.search(sections[registry.get("pig").title]).group(1) == "12 a game (12 in 1 game)"
    assert target.search(sections[registry.get("chancellors").title]).group(1) == "30 a game (30 in 1 game)"
    assert sorted(target.findall(html)) == ["12 a game (12 in 1 game)", "30 a game (30 in 1 game)"]
