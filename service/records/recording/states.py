"""A game's current state: the latest snapshot plus its tail, or a state
folded recently by this process; and the game as this process last wrote it,
which a writer may decide on without first locking the game (``acting``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, NamedTuple
from uuid import UUID

import psycopg

from engines.base import GameConfig
from engines.kit.frozen import replace
from service.records.log import fold
from service.records.recording.games import Game, config_of


class Known(NamedTuple):
    """A game's row, configuration and state as this process committed them."""

    game: Game
    config: GameConfig
    state: Any


class StateCache:
    """A bounded map that forgets its least recently used entries (thread-safe)."""

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


#: Recently folded states by (game, version, engine version). The state at a
#: stream version is a pure function of the events up to it and states are
#: immutable, so an entry can never go stale; the cache only spares re-reading
#: a hot game's tail on every action.
STATES = StateCache()
#: By game id: the last write this process committed to it. It may be stale
#: (another process wrote since); an append decided on it then fails whole
#: (``store.append``), so a stale entry costs a retry, never a wrong record.
LATEST = StateCache()


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


def remember(game: Game, config: GameConfig, state: Any, version: int, status: str) -> None:
    """A state just committed at ``version`` (never before the commit: a
    rolled-back version may later hold other events)."""
    STATES.put((game.id, version, game.engine.version), state)
    known = LATEST.get(game.id)
    if known is None or known.game.version < version:  # a slower writer never winds it back
        LATEST.put(game.id, Known(replace(game, version=version, status=status), config, state))


def latest(game_id: UUID) -> Known | None:
    """The game as this process last committed it, if it still has it."""
    return LATEST.get(game_id)
