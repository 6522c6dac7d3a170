"""Each engine adds its own league statistics through its ``statistics``
hook: Chancellors' problems solved whole and in part and services held, House
of Cronies' cronies most often won and tactics played and cancelled — per
player and over everyone — and luck beside results."""

import random
from collections import Counter

import pytest

from engines import registry
from engines.base import Event, GameConfig, fold
from service.records.club.catalogs import default_catalog
from service.records.log.fold import SERVICE_EVENTS
from tests.api.test_full_games import play_through_api
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.workers.helpers import drain


def _league_of(client, engine, options, games=2, seats=3):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    players = [PlayerFactory(client=client, club=club) for _ in range(seats)]
    league = LeagueFactory(client=client, club=club, engine=engine)
    ids = []
    for i in range(games):
        game = GameFactory(
            client=client, club=club, engine=engine, options=options, players=players, league=league["id"]
        )
        play_through_api(api, game["id"], random.Random(i))
        ids.append(game["id"])
    return api, league, players, ids


def _seat_rows(api, game_ids):
    """(player, per-seat figures) of each game, from the engine's hook on the final state."""
    rows = []
    for gid in game_ids:
        view = api.get(f"/games/{gid}").get_json()
        engine = registry.get(view["engine"])
        events = api.get(f"/games/{gid}/events?limit=1000").get_json()["events"]
        config = GameConfig(
            seats=len(view["seats"]),
            options=view["options"],
            dealer=view["dealer"],
            catalog=default_catalog(view["engine"]) if engine.catalog_kind else None,
        )
        state = fold(
            engine,
            config,
            [Event(e["type"], e["data"]) for e in events if e["type"] not in SERVICE_EVENTS],
        )
        for seat, row in enumerate(engine.statistics(state)["seats"]):
            rows.append((view["seats"][seat]["player"], row))
    return rows


@pytest.mark.parametrize(
    ("engine", "options", "total_key", "counted_key"),
    [
        ("chancellors", {"target": 30}, "solved_whole", "services_held"),
        ("house-of-cronies", {}, "tactics_played", "cronies_won_names"),
        ("final-decrees", {}, "personal_blame", "departments_headed"),
        ("maccreedys-mansion", {"max_rounds": 2}, "workers_hired", "jobs"),
    ],
)
def test_an_engines_own_figures_add_up_per_player_and_over_everyone(
    client, database_url, engine, options, total_key, counted_key
):
    api, league, players, game_ids = _league_of(
        client, engine, options, seats=registry.game(engine).trial.seats
    )
    drain(database_url)
    stats = api.get(f"/leagues/{league['id']}/statistics").get_json()["statistics"]
    seats = stats["engine"]["seats"]
    rows = _seat_rows(api, game_ids)
    assert seats["all"][total_key]["total"] == sum(r[total_key] for _, r in rows)
    expected_counts = Counter(item for _, r in rows for item in r[counted_key])
    assert seats["all"][counted_key]["counts"] == dict(expected_counts)
    for player in players:
        mine = [r for p, r in rows if p == player["id"]]
        assert seats["by_player"][player["id"]][total_key]["total"] == sum(r[total_key] for r in mine)
        assert seats["by_player"][player["id"]][total_key]["games"] == len(mine)
    luck = {p["player"]: p["luck"] for p in stats["players"]}
    assert all(0 <= (luck[p["id"]]["average_percentile"] or 0) <= 1 for p in players)
    assert any(luck[p["id"]]["chance_events"] for p in players)
