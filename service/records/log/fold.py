"""A game's state is the fold of its live events through its engine.

``ActionsRetracted`` (table games) takes the game back to a version: the
events after it stay in the log but leave the live line. Service events
(``GameCreated``, ``GameEnded``, ...) are facts about the game record, not
moves, and are not folded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from engines.base import Engine, Event, GameConfig
from service.records.log import store
from service.records.log.store import StoredEvent

GAME_CREATED = "GameCreated"
GAME_ENDED = "GameEnded"
GAME_ABANDONED = "GameAbandoned"
ACTIONS_RETRACTED = "ActionsRetracted"
RESULT_RECORDED = "ResultRecorded"  # a result-only game's result (service/records/recording/results.py)
SERVICE_EVENTS = frozenset({GAME_CREATED, GAME_ENDED, GAME_ABANDONED, ACTIONS_RETRACTED, RESULT_RECORDED})


def live_line(events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The events still in force, in order: retracted ones dropped."""
    line: list[StoredEvent] = []
    for event in events:
        if event.type == ACTIONS_RETRACTED:
            target = event.data["to_version"]
            while line and line[-1].version > target:
                line.pop()
        else:
            line.append(event)
    return line


def fold_stored(engine: Engine, config: GameConfig, events: Sequence[StoredEvent], state: Any = None) -> Any:
    if state is None:
        state = engine.initial_state(config)
    for event in live_line(events):
        if event.type not in SERVICE_EVENTS:
            state = engine.evolve(state, Event(event.type, event.data))
    return state


def current_state(
    conn: psycopg.Connection,
    engine: Engine,
    config: GameConfig,
    game_id,
    version: int,
    use_snapshots: bool = True,
) -> Any:
    """The state at the stream's ``version``: the latest snapshot plus the tail."""
    state, after = None, 0
    if use_snapshots:
        snap = store.latest_snapshot(conn, game_id, engine.version, version)
        if snap is not None:
            after, data = snap
            state = engine.load_state(data, config)
    tail = store.read_stream(conn, game_id, after_version=after, to_version=version)
    return fold_stored(engine, config, tail, state)
