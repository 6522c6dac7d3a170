"""The day each game was played is part of its record: from a logged result,
a history file, a whole-game import and a restore; shown wherever a game is
listed; and the order its league rates it in, so history logged after newer
games takes its own place."""

from __future__ import annotations

import datetime as dt
import io
import json
import re

import pytest

from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.web.helpers import sign_in
from tests.workers.helpers import drain, play_pig

TODAY = dt.date.today()


def day(value: dt.date) -> str:
    """A day as the pages write it: "1 Sep 2026"."""
    return f"{value.day} {value:%b %Y}"


def history_csv(*plays: tuple[str, list[tuple[str, int]]]) -> bytes:
    """A plays CSV of Pig games to 12: each play its day and (name, score) per seat."""
    lines = ["date,game,player,score,options"]
    for played_on, seats in plays:
        lines += [f'{played_on},pig,{name},{score},"{{""target"": 12}}"' for name, score in seats]
    return ("\n".join(lines) + "\n").encode()


def upload(api: Api, club: dict, content: bytes, **form):
    data = {"file": (io.BytesIO(content), "plays.csv"), **form}
    return api.client.post(
        f"/clubs/{club['id']}/history", data=data, headers=api.headers(), content_type="multipart/form-data"
    )


def rated_days(api: Api, league: dict) -> list[str]:
    return [g["played_on"] for g in api.get(f"/leagues/{league['id']}/rating-history").get_json()["games"]]


@pytest.fixture
def club(client):
    return ClubFactory(client=client)


def test_history_imported_after_newer_games_takes_its_place_in_the_rating_order(client, club, database_url):
    api = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, engine="pig")
    ann, ben = (PlayerFactory(client=client, club=club, name=n) for n in ("Ann", "Ben"))
    game = GameFactory(
        client=client, club=club, players=[ann, ben], league=league["id"], options={"target": 12}
    )
    play_pig(client, game)  # played today
    drain(database_url)
    assert rated_days(api, league) == [TODAY.isoformat()]

    older = history_csv(("2024-01-05", [("Ann", 3), ("Ben", 12)]), ("2024-02-10", [("Ann", 12), ("Ben", 5)]))
    r = upload(api, club, older, league=league["id"])
    assert r.status_code == 201, r.get_json()
    drain(database_url)
    assert rated_days(api, league) == ["2024-01-05", "2024-02-10", TODAY.isoformat()]

    # The ratings are those of the games rated in the order they were played:
    # the same as a league that received them in that order.
    fresh = ClubFactory(client=client)
    fresh_api = Api(client, fresh["admin_token"])
    fresh_league = LeagueFactory(client=client, club=fresh, engine="pig")
    assert upload(fresh_api, fresh, older, league=fresh_league["id"]).status_code == 201
    drain(database_url)
    first_two = fresh_api.get(f"/leagues/{fresh_league['id']}/rating-history").get_json()["games"]
    after_import = api.get(f"/leagues/{league['id']}/rating-history").get_json()["games"]
    assert [[c["mu_after"] for c in g["changes"]] for g in after_import[:2]] == [
        [c["mu_after"] for c in g["changes"]] for g in first_two
    ]

    sign_in(client, club["admin_token"])
    html = client.get(f"/league/{league['id']}").get_data(as_text=True)
    said = re.search(r'<p class="note" id="recomputed">(.*?)</p>', html).group(1)
    assert said == (
        f"On {day(TODAY)} ratings were recomputed: 2 games played from 5 Jan 2024"
        " arrived after later games and took their place in the order."
    )
    table_days = re.findall(r'<td class="date">([^<]*)</td>', html)
    assert table_days == ["5 Jan 2024", "10 Feb 2024", day(TODAY)]
    results = re.search(r'<ul class="games" id="results">(.*?)</ul>', html, re.S).group(1)
    assert re.findall(r">(\d+ \w{3} \d{4})</a>", results) == [day(TODAY), "10 Feb 2024", "5 Jan 2024"]


def test_a_league_whose_games_arrive_in_the_order_played_says_nothing_was_recomputed(
    client, club, database_url
):
    api = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, engine="pig")
    older = history_csv(("2024-01-05", [("Ann", 3), ("Ben", 12)]), ("2024-02-10", [("Ann", 12), ("Ben", 5)]))
    assert upload(api, club, older, league=league["id"]).status_code == 201
    drain(database_url)
    sign_in(client, club["admin_token"])
    html = client.get(f"/league/{league['id']}").get_data(as_text=True)
    assert 'id="recomputed"' not in html
    assert re.findall(r'<td class="date">([^<]*)</td>', html) == ["5 Jan 2024", "10 Feb 2024"]


def test_every_list_shows_the_day_a_game_was_played(client, club, database_url):
    api = Api(client, club["admin_token"])
    ann = PlayerFactory(client=client, club=club, name="Ann")
    PlayerFactory(client=client, club=club, name="Ben")
    r = upload(api, club, history_csv(("2026-09-01", [("Ann", 12), ("Ben", 4)])))
    assert r.status_code == 201, r.get_json()
    drain(database_url)

    found = api.get(f"/clubs/{club['id']}/games/search").get_json()["games"]
    assert [g["played_on"] for g in found] == ["2026-09-01"]
    profile = api.get(f"/players/{ann['id']}/profile").get_json()
    assert [g["played_on"] for g in profile["played"]["games"]] == ["2026-09-01"]
    assert (
        api.get(f"/clubs/{club['id']}/games/search?since=2026-09-01&until=2026-09-01").get_json()["total"]
        == 1
    )
    assert api.get(f"/clubs/{club['id']}/games/search?since=2026-09-02").get_json()["total"] == 0

    sign_in(client, club["admin_token"])
    for page in (f"/club/{club['id']}", f"/club/{club['id']}/games", f"/player/{ann['id']}"):
        html = client.get(page).get_data(as_text=True)
        assert "1 Sep 2026" in html, page
        assert day(TODAY) not in html, page


def test_a_whole_game_import_keeps_the_day_it_was_played(client, club, database_url):
    api = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club) for _ in range(2)]
    game = GameFactory(client=client, club=club, players=players, options={"target": 12})
    play_pig(client, game)
    document = api.get(f"/games/{game['id']}/export").get_json()
    assert dt.datetime.fromisoformat(document["played_at"]).date() == TODAY

    elsewhere = ClubFactory(client=client)
    other = Api(client, elsewhere["admin_token"])
    played = {**document, "played_at": "2026-09-01T19:30:00+00:00"}
    played["seats"] = [{"seat": s["seat"], "name": s["name"]} for s in document["seats"]]
    r = other.post(f"/clubs/{elsewhere['id']}/games/import", played)
    assert r.status_code == 201, r.get_json()
    imported = r.get_json()["id"]
    assert other.get(f"/games/{imported}/export").get_json()["played_at"] == "2026-09-01T19:30:00+00:00"
    drain(database_url)
    (found,) = other.get(f"/clubs/{elsewhere['id']}/games/search").get_json()["games"]
    assert found["played_on"] == "2026-09-01"
    sign_in(client, elsewhere["admin_token"])
    html = client.get(f"/game/{imported}").get_data(as_text=True)
    assert '<p id="played-on">Played on 1 Sep 2026.</p>' in html


def test_a_restore_keeps_every_game_s_day_and_minutes(client, club, database_url):
    api = Api(client, club["admin_token"])
    league = LeagueFactory(client=client, club=club, engine="pig")
    ann, ben = (PlayerFactory(client=client, club=club, name=n) for n in ("Ann", "Ben"))
    body = {
        "engine": "pig",
        "league": league["id"],
        "options": {"target": 12},
        "played_on": "2026-09-01",
        "minutes": 45,
        "players": [{"player": ann["id"], "score": 12}, {"player": ben["id"], "score": 3}],
    }
    assert api.post(f"/clubs/{club['id']}/results", body).status_code == 201
    game = GameFactory(
        client=client, club=club, players=[ann, ben], league=league["id"], options={"target": 12}
    )
    play_pig(client, game)
    drain(database_url)
    backup = api.get(f"/clubs/{club['id']}/backup.ndjson").get_data()

    restored = client.post(
        "/clubs/restore",
        data={"file": (io.BytesIO(backup), "club.ndjson")},
        content_type="multipart/form-data",
    )
    assert restored.status_code == 201, restored.get_json()
    copy = restored.get_json()
    copy_api = Api(client, copy["admin_token"])
    drain(database_url)
    (result,) = copy_api.get(f"/clubs/{copy['id']}/results").get_json()
    assert (result["played_on"], result["minutes"]) == ("2026-09-01", 45)
    found = copy_api.get(f"/clubs/{copy['id']}/games/search").get_json()["games"]
    original = api.get(f"/clubs/{club['id']}/games/search").get_json()["games"]
    assert (
        [g["played_on"] for g in found]
        == [g["played_on"] for g in original]
        == [TODAY.isoformat(), "2026-09-01"]
    )
    (copy_league,) = copy_api.get(f"/clubs/{copy['id']}/leagues").get_json()
    assert rated_days(copy_api, copy_league) == rated_days(api, league) == ["2026-09-01", TODAY.isoformat()]
    lines = [json.loads(line) for line in backup.decode().splitlines()]
    assert [line["game"]["played_at"][:10] for line in lines if "game" in line] == [TODAY.isoformat()]
