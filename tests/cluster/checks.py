"""What the fault checks read back from the log, and how figures are printed."""

from __future__ import annotations

from collections import defaultdict

import psycopg

from tests.cluster.load import Acknowledged


def lost_and_duplicated(url: str, acknowledged: list[Acknowledged]) -> tuple[int, int]:
    """(acknowledged actions missing from the log, actions in the log beyond the
    acknowledged ones). A game's events are its set-up events and the events of
    its acknowledged actions, at the versions their answers gave; anything more
    is an action appended twice, anything less one lost."""
    by_game: dict[str, set[int]] = defaultdict(set)
    for ack in acknowledged:
        by_game[ack.game].update(ack.versions)
    lost = extra = 0
    with psycopg.connect(url, autocommit=True) as conn:
        for game, versions in by_game.items():
            stored = {
                v
                for (v,) in conn.execute(
                    "SELECT version FROM events"
                    " WHERE game_id = %s AND NOT coalesce((metadata->>'setup')::boolean, false)",
                    (game,),
                )
            }
            lost += len(versions - stored)
            extra += len(stored - versions)
    return lost, extra


def figure(name: str, value: str, baseline: str = "") -> None:
    print(f"\nfigure  {name}: {value}" + (f"   (baseline: {baseline})" if baseline else ""), flush=True)
