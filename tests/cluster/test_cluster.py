"""The service on several hosts: every API host serves every club, the workers
share the projections, and the replica follows the primary."""

from __future__ import annotations

import pytest

from tests.cluster.client import ok
from tests.cluster.servers import wait_until

pytestmark = pytest.mark.cluster


def new_club(host: str, players: int = 2) -> tuple[dict, list[dict]]:
    club = ok(host, "POST", "/clubs", {"name": "Cluster club"})
    token = club["admin_token"]
    members = [
        ok(host, "POST", f"/clubs/{club['id']}/players", {"name": f"Player {i}"}, token)
        for i in range(players)
    ]
    return club, members


def test_a_game_created_on_one_api_host_is_played_on_the_other_and_reaches_the_replica(cluster):
    one, two = cluster.api_hosts
    club, members = new_club(one)
    game = ok(
        one,
        "POST",
        f"/clubs/{club['id']}/games",
        {"engine": "pig", "options": {"target": 10}, "dealer": "server", "seats": [m["id"] for m in members]},
        club["admin_token"],
    )
    seat = game["seat_tokens"][0]["token"]
    answer = ok(two, "POST", f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}}, seat)
    position = answer["events"][-1]["position"]
    wait_until(
        lambda: cluster.replica.query("SELECT max(position) FROM events")[0][0] >= position, 10, "the replica"
    )
