"""One rating scale everywhere: the league page, the API's standings and
rating history, and standings.csv all give 1500 + 42 × (mu − 3 sigma), and
the API gives the change in the player's last game the page shows."""

from __future__ import annotations

import csv
import io
import re

from tests.factories import Api, ClubFactory
from tests.web.helpers import sign_in
from tests.workers.helpers import drain, league_with_games


def test_the_page_the_api_and_the_csv_give_the_same_rating_and_change(client, database_url):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    league, members, _ = league_with_games(client, club, 3, players=3)
    drain(database_url)

    sign_in(client, club["admin_token"])
    html = client.get(f"/league/{league['id']}").get_data(as_text=True)
    board = re.search(r'<table class="board" id="standings">(.*?)</table>', html, re.S).group(1)
    page = {}
    for player, row in re.findall(r'<tr data-player="([^"]+)"[^>]*>(.*?)</tr>', board, re.S):
        value = int(re.search(r'<span class="value">(\d+)</span>', row).group(1))
        change = re.search(r'<small class="change[^"]*">([^<]*)</small>', row).group(1)
        spread = int(re.search(r'<small class="spread">±(\d+)</small>', row).group(1))
        page[player] = (value, change, spread)
    assert len(page) == 3

    standings = api.get(f"/leagues/{league['id']}/standings").get_json()["standings"]
    signed = {0: "±0"}
    from_api = {
        r["player"]: (
            r["rating"],
            signed.get(r["rating_change"], f"{r['rating_change']:+d}".replace("-", "\u2212")),
            r["rating_uncertainty"],
        )
        for r in standings
    }
    assert from_api == page
    assert all(1000 < value < 2500 for value, _, _ in page.values())

    history = api.get(f"/leagues/{league['id']}/rating-history").get_json()["games"]
    last = {}
    for game in history:
        for change in game["changes"]:
            assert change["change"] == change["rating_after"] - change["rating_before"]
            last[change["player"]] = change
    assert {p: (c["rating_after"], c["change"]) for p, c in last.items()} == {
        r["player"]: (r["rating"], r["rating_change"]) for r in standings
    }

    rows = list(
        csv.DictReader(io.StringIO(api.get(f"/leagues/{league['id']}/standings.csv").get_data(as_text=True)))
    )
    names = {m["id"]: m["name"] for m in members}
    assert {r["player"]: int(r["rating"]) for r in rows} == {names[p]: v for p, (v, _, _) in page.items()}
