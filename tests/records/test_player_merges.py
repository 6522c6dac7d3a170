"""Merging two players: every figure afterwards is the one the same history
gives when recorded under one player from the start, an un-merge gives both
records back exactly, and two players who met are never merged."""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.workers.helpers import drain

#: The people of the club; the first is recorded as "Ana" or "Anna" in the club of two records.
PEOPLE = ("Anna", "Bo", "Cy", "Dee")
TWICE = "Ana"

#: A game of Pig logged by its result: the people seated (2 to 4, in seat order), the seat that won
#: (Pig has one winner, every other player comes second), and which record the first person used.
_games = st.lists(
    st.tuples(
        st.permutations(range(len(PEOPLE))).flatmap(
            lambda order: st.integers(2, len(PEOPLE)).map(lambda n: list(order[:n]))
        ),
        st.integers(0, 3),
        st.booleans(),
    ),
    min_size=1,
    max_size=5,
)


class _Club:
    """A club with a league, its players by name, read through the API."""

    def __init__(self, client, names: tuple[str, ...]):
        club = ClubFactory(client=client)
        self.id, self.admin = club["id"], Api(client, club["admin_token"])
        self.players = {n: PlayerFactory(client=client, club=club, name=n)["id"] for n in names}
        self.league = LeagueFactory(client=client, club=club, engine="pig", name="Tuesdays")["id"]
        self.names = {v: k for k, v in self.players.items()}

    def record(self, seated: list[str], winner: int, day: int) -> None:
        places = [1 if seat == winner % len(seated) else 2 for seat in range(len(seated))]
        answer = self.admin.post(
            f"/clubs/{self.id}/results",
            {
                "engine": "pig",
                "league": self.league,
                "played_on": (dt.date(2024, 1, 1) + dt.timedelta(days=day)).isoformat(),
                "players": [
                    {"player": self.players[n], "place": p} for n, p in zip(seated, places, strict=False)
                ],
            },
        )
        assert answer.status_code == 201, answer.get_json()

    def get(self, path: str) -> Any:
        answer = self.admin.get(path)
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    def figures(self, profile_of: tuple[str, ...]) -> dict[str, Any]:
        """Standings, statistics and profiles, with every player id as its name
        and what differs between any two clubs (ids, positions, moments) left out."""
        standings = self.get(f"/leagues/{self.league}/standings")["standings"]
        statistics = self.get(f"/leagues/{self.league}/statistics")["statistics"]
        profiles = {n: self.get(f"/players/{self.players[n]}/profile") for n in profile_of}
        for pair in statistics["head_to_head"]:  # each pair once, the lower player id first: by name here
            if self.names[pair["player"]] > self.names[pair["opponent"]]:
                pair["player"], pair["opponent"] = pair["opponent"], pair["player"]
                pair["name"], pair["opponent_name"] = pair["opponent_name"], pair["name"]
                pair["ahead"], pair["behind"] = pair["behind"], pair["ahead"]
        return self._named(
            {"standings": standings, "statistics": statistics, "profiles": profiles, "list": self.listed()}
        )

    def listed(self) -> list[str]:
        return [p["name"] for p in self.get(f"/clubs/{self.id}/players")]

    def _named(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {
                self.names.get(k, k): self._named(v)
                for k, v in value.items()
                if k
                not in {"id", "game", "league", "club", "position", "ended_at", "created_at", "player_id"}
            }
        if isinstance(value, list):  # lists ordered by player id are compared as sets of rows
            rows = [self._named(v) for v in value]
            return sorted(rows, key=repr) if rows and all(isinstance(r, dict) for r in rows) else rows
        return self.names.get(value, value) if isinstance(value, str) else value


def _history(club: _Club, games, twice: bool) -> None:
    for day, (seated, winner, as_ana) in enumerate(games):
        names = [TWICE if twice and i == 0 and as_ana else PEOPLE[i] for i in seated]
        club.record(names, winner, day)


@settings(
    max_examples=6,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@example(games=[([0, 1], 0, True), ([0, 2, 1], 1, False)])
@given(games=_games)
def test_a_merge_gives_the_figures_of_one_player_from_the_start_and_an_unmerge_gives_both_back(
    client, database_url, games
):
    one = _Club(client, PEOPLE)
    two = _Club(client, (TWICE, *PEOPLE))
    _history(one, games, twice=False)
    _history(two, games, twice=True)
    drain(database_url)
    before = two.figures((TWICE, "Anna"))

    merged = two.admin.post(
        f"/clubs/{two.id}/players/{two.players[TWICE]}/merge", {"into": two.players["Anna"]}
    )
    assert merged.status_code == 201, merged.get_json()
    drain(database_url)
    after = two.figures(("Anna",))
    assert after == one.figures(("Anna",))
    assert TWICE not in two.listed()
    # The merged-in player's profile is the kept player's.
    assert two._named(two.get(f"/players/{two.players[TWICE]}/profile")) == after["profiles"]["Anna"]

    unmerged = two.admin.post(f"/clubs/{two.id}/players/{two.players[TWICE]}/unmerge")
    assert unmerged.status_code == 201, unmerged.get_json()
    drain(database_url)
    assert two.figures((TWICE, "Anna")) == before


def test_two_players_who_sat_in_the_same_game_are_not_merged(client, database_url):
    club = _Club(client, (TWICE, *PEOPLE))
    club.record([TWICE, "Bo"], 0, 0)
    club.record(["Anna", "Bo"], 1, 1)
    drain(database_url)
    standings = club.get(f"/leagues/{club.league}/standings")

    refused = club.admin.post(
        f"/clubs/{club.id}/players/{club.players['Bo']}/merge", {"into": club.players[TWICE]}
    )
    assert refused.status_code == 409
    assert refused.get_json()["code"] == "players-met" and "Ana" in refused.get_json()["detail"]
    # Nor through a third player merged first: Ana follows Anna, who never met Bo, but Ana did.
    assert (
        club.admin.post(
            f"/clubs/{club.id}/players/{club.players[TWICE]}/merge", {"into": club.players["Cy"]}
        ).status_code
        == 201
    )
    again = club.admin.post(
        f"/clubs/{club.id}/players/{club.players['Bo']}/merge", {"into": club.players["Cy"]}
    )
    assert again.get_json()["code"] == "players-met"
    # A live game counts too.
    GameFactory(
        client=client,
        club={"id": club.id, "admin_token": club.admin.token},
        players=[{"id": club.players["Anna"]}, {"id": club.players["Dee"]}],
    )
    live = club.admin.post(
        f"/clubs/{club.id}/players/{club.players['Dee']}/merge", {"into": club.players["Anna"]}
    )
    assert live.get_json()["code"] == "players-met"
    assert club.get(f"/clubs/{club.id}/players") and "Bo" in club.listed() and "Dee" in club.listed()
    club.admin.post(f"/clubs/{club.id}/players/{club.players[TWICE]}/unmerge")
    drain(database_url)
    assert club.get(f"/leagues/{club.league}/standings")["standings"] == standings["standings"]


def test_a_merged_in_players_sign_in_acts_as_the_kept_player(client, database_url):
    club = _Club(client, (TWICE, *PEOPLE))
    club.record([TWICE, "Bo"], 0, 0)
    sign_in = club.admin.post(f"/clubs/{club.id}/players/{club.players[TWICE]}/sign-in").get_json()["token"]
    game = GameFactory(
        client=client,
        club={"id": club.id, "admin_token": club.admin.token},
        players=[{"id": club.players["Anna"]}, {"id": club.players["Cy"]}],
    )
    member = Api(client, sign_in)
    assert (
        member.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}}).status_code
        == 404
    )
    club.admin.post(f"/clubs/{club.id}/players/{club.players[TWICE]}/merge", {"into": club.players["Anna"]})
    acted = member.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}})
    assert acted.status_code == 201, acted.get_json()
    club.admin.post(f"/clubs/{club.id}/players/{club.players[TWICE]}/unmerge")
    assert (
        member.post(f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Hold"}}).status_code
        == 404
    )


def test_a_merged_in_player_takes_no_seat_in_new_games(client):
    club = _Club(client, (TWICE, *PEOPLE))
    club.admin.post(f"/clubs/{club.id}/players/{club.players[TWICE]}/merge", {"into": club.players["Anna"]})
    seats = [club.players[TWICE], club.players["Bo"]]
    refused = club.admin.post(f"/clubs/{club.id}/games", {"engine": "pig", "seats": seats, "options": {}})
    assert refused.status_code == 422 and refused.get_json()["code"] == "player-merged"


def test_a_result_naming_a_merged_in_player_is_refused(client):
    club = _Club(client, (TWICE, *PEOPLE))
    club.admin.post(f"/clubs/{club.id}/players/{club.players[TWICE]}/merge", {"into": club.players["Anna"]})
    body = {
        "engine": "pig",
        "players": [
            {"player": club.players[TWICE], "place": 1},
            {"player": club.players["Anna"], "place": 2},
        ],
    }
    refused = club.admin.post(f"/clubs/{club.id}/results", body)
    assert refused.status_code == 422 and refused.get_json()["code"] == "player-merged", refused.get_json()


def test_searching_for_a_kept_player_finds_the_merged_in_records_games(client, database_url):
    club = _Club(client, ("Anna", TWICE, "Bo", "Cy"))
    club.record(["Anna", "Bo"], 1, 0)
    club.record([TWICE, "Bo"], 0, 1)
    club.record(["Cy", "Bo"], 0, 2)
    merged = club.admin.post(
        f"/clubs/{club.id}/players/{club.players[TWICE]}/merge", {"into": club.players["Anna"]}
    )
    assert merged.status_code == 201, merged.get_json()
    drain(database_url)

    def found(query: str) -> list[list[str]]:
        games = club.get(f"/clubs/{club.id}/games/search?{query}")["games"]
        return sorted(sorted(club.names[p["player"]] for p in g["players"]) for g in games)

    for who in ("Anna", TWICE):  # the kept player, or the merged-in one followed to the kept
        anna = club.players[who]
        assert found(f"player={anna}") == [["Ana", "Bo"], ["Anna", "Bo"]]
        assert found(f"player={anna}&player={club.players['Bo']}") == [["Ana", "Bo"], ["Anna", "Bo"]]
        assert found(f"winner={anna}") == [["Ana", "Bo"]]
    assert found(f"player={club.players['Cy']}") == [["Bo", "Cy"]]


def test_a_game_created_while_its_players_are_merged_waits_and_is_refused(client, database_url):
    """A merge not yet committed holds the club's row: a game seating both its
    players waits for it before it checks its seats, then is refused; so no
    game seats a player and the one merged into them."""
    import threading

    import psycopg
    from psycopg.rows import dict_row

    from service.records.access import Principal
    from service.records.club import merges

    club = _Club(client, ("Anna", TWICE, "Bo"))
    seats = [club.players[TWICE], club.players["Anna"]]
    answers: list[Any] = []
    with psycopg.connect(database_url, row_factory=dict_row) as merging:
        merging.execute("SELECT id FROM clubs WHERE id = %s FOR UPDATE", (club.id,))
        data = {"merged": seats[0], "kept": seats[1]}
        merges.store_carried(merging, club.id, [(merges.PLAYERS_MERGED, data)], Principal(club.id, "admin"))
        creating = threading.Thread(
            target=lambda: answers.append(
                club.admin.post(f"/clubs/{club.id}/games", {"engine": "pig", "seats": seats, "options": {}})
            )
        )
        creating.start()
        with psycopg.connect(database_url, autocommit=True) as watching:
            while (
                creating.is_alive()
                and not watching.execute(
                    "SELECT 1 FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                    (merging.info.backend_pid,),
                ).fetchone()
            ):
                creating.join(0.01)
        merging.commit()
    creating.join()
    (answer,) = answers
    assert answer.status_code == 422 and answer.get_json()["code"] == "player-merged", answer.get_json()
