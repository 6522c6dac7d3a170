"""A game's current state: the latest snapshot plus its tail, or a state
folded recently by this process."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import psycopg

from engines.base import GameConfig
from service.records import fold
from service.records.games import Game, config_of


class StateCache:
    """Recently folded states by (game, version, engine version).

    The state at a stream version is a pure function of the events up to it
    and states are immutable, so an entry can never go stale; the cache only
    spares re-reading a hot game's tail on every action.
    """

    def __init__(self, size: int = 1024):
        self.size = size
        self.entries: OrderedDict[tuple, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> Any:
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
                return self.entries[key]
        return None

    def put(self, key: tuple, state: Any) -> None:
        with self.lock:
            self.entries[key] = state
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)


STATES = StateCache()


def load_state(conn: psycopg.Connection, game: Game, use_snapshots: bool = True) -> Any:
    """The game's state at its current version (``use_snapshots=False``: a full fold, no cache)."""
    config = config_of(conn, game)
    if not use_snapshots:
        return fold.current_state(conn, game.engine, config, game.id, game.version, use_snapshots=False)
    return state_at(conn, game, config)


def state_at(conn: psycopg.Connection, game: Game, config: GameConfig) -> Any:
    key = (game.id, game.version, game.engine.version)
    state = STATES.get(key)
    if state is None:
        state = fold.current_state(conn, game.engine, config, game.id, game.version)
        STATES.put(key, state)
    return state


def remember(game: Game, version: int, state: Any) -> None:
    """A state just committed at ``version`` (never before the commit: a
    rolled-back version may later hold other events)."""
    STATES.put((game.id, version, game.engine.version), state)
