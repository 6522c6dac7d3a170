"""The worker logs what an operator needs (each projection's progress,
errors, set-aside tasks), not every wake-up of the beat."""

from __future__ import annotations

import time

import pytest

from tests.factories import ClubFactory, LeagueFactory, PlayerFactory
from tests.workers.helpers import wait_for
from tests.workers.test_worker import caught_up, league_game, ready

IDLE_SECONDS = 6


@pytest.mark.slow
def test_an_idle_worker_logs_no_wake_ups_and_a_busy_one_logs_progress(worker, broker_client, database_url):
    worker.start()  # the beat wakes the runners every second here
    ready(worker)
    started = len(worker.log().splitlines())
    time.sleep(IDLE_SECONDS)
    idle = worker.log().splitlines()[started:]
    assert idle == [], "\n".join(idle[:10])

    club = ClubFactory(client=broker_client)
    league = LeagueFactory(client=broker_client, club=club, min_games=1)
    league_game(
        broker_client, club, league, [PlayerFactory(client=broker_client, club=club) for _ in range(2)]
    )
    caught_up(database_url, 30, worker)
    progress = wait_for(
        lambda: [line for line in worker.log().splitlines() if "projection standings:" in line],
        10,
        what="a progress line",
    )
    assert "events applied" in progress[-1]
    chatter = [line for line in worker.log().splitlines() if "Sending due task" in line or "received" in line]
    assert chatter == []
