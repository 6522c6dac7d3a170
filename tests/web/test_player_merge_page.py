"""The organiser merges two records of one player on the players page, and
takes the merge back there: the list, the kept player's profile and the
refusal all say so in plain words."""

from __future__ import annotations

import re

from tests.factories import Api, ClubFactory, LeagueFactory, PlayerFactory
from tests.web.helpers import csrf_token, sign_in
from tests.workers.helpers import drain

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", "", html, flags=re.S))


def test_a_merge_and_its_undoing_from_the_players_page(client, database_url):
    club = ClubFactory(client=client)
    admin = Api(client, club["admin_token"])
    ana, anna, bo = (PlayerFactory(client=client, club=club, name=n) for n in ("Ana", "Anna", "Bo"))
    league = LeagueFactory(client=client, club=club, engine="pig")
    for first, day in ((ana, "2024-01-02"), (anna, "2024-01-03"), (anna, "2024-01-04")):
        body = {
            "engine": "pig",
            "league": league["id"],
            "played_on": day,
            "players": [{"player": first["id"], "place": 1}, {"player": bo["id"], "place": 2}],
        }
        assert admin.post(f"/clubs/{club['id']}/results", body).status_code == 201
    drain(database_url)
    sign_in(client, club["admin_token"])
    players = f"/club/{club['id']}/players"
    page = client.get(players).get_data(as_text=True)
    assert page.count('<li class="card') == 3
    assert "2 games finished" in client.get(f"/player/{anna['id']}").get_data(as_text=True)

    refused = client.post(
        f"{players}/{bo['id']}/merge", data={"into": anna["id"], "csrf_token": csrf_token(page)}
    )
    html = refused.get_data(as_text=True)
    assert refused.status_code == 409
    assert "Bo and Anna played in the same game, so they are two people." in html
    assert f'<option value="{anna["id"]}" selected>' in html  # the form keeps its choice

    merged = client.post(
        f"{players}/{ana['id']}/merge", data={"into": anna["id"], "csrf_token": csrf_token(page)}
    )
    assert merged.status_code == 303
    drain(database_url)
    page = client.get(players).get_data(as_text=True)
    assert page.count('<li class="card') == 2
    assert "Ana's games are counted as Anna's." in page
    assert not UUID.search(_text(page))
    assert "3 games finished, 3 wins" in client.get(f"/player/{anna['id']}").get_data(as_text=True)

    undone = client.post(f"{players}/{ana['id']}/unmerge", data={"csrf_token": csrf_token(page)})
    assert undone.status_code == 303
    drain(database_url)
    assert client.get(players).get_data(as_text=True).count('<li class="card') == 3
    assert "2 games finished" in client.get(f"/player/{anna['id']}").get_data(as_text=True)


def test_the_merge_form_refuses_without_its_csrf_token(client):
    club = ClubFactory(client=client)
    ana, anna = (PlayerFactory(client=client, club=club, name=n) for n in ("Ana", "Anna"))
    sign_in(client, club["admin_token"])
    refused = client.post(f"/club/{club['id']}/players/{ana['id']}/merge", data={"into": anna["id"]})
    assert refused.status_code in (400, 403)
    assert client.get(f"/club/{club['id']}/players").get_data(as_text=True).count('<li class="card') == 2
