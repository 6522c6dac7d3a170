"""One write to one game: accumulate events, append them in the caller's
transaction, and tell the listeners once it has committed.

Every write runs in one transaction: lock the game row (so writers of one game
never interleave), fold its state, let the engine decide, deal any chance the
game then waits for (server dealer), and append all resulting events. A
rejected action raises before anything is written.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import orjson
import psycopg

from engines.base import Event, GameConfig
from engines.chance import deal
from service.records import access
from service.records.access import Principal
from service.records.log import fold, notify, store
from service.records.log.context import Records
from service.records.log.store import NewEvent, StoredEvent
from service.records.recording import copies
from service.records.recording.games import Game

MAX_CHANCE_STEPS = 10_000


@dataclass(frozen=True)
class WriteResult:
    """The answer to a write: the events as the writer may see them."""

    status: int
    body: dict[str, Any]
    replayed: bool = False


def chance_rng(seed: str, version: int) -> random.Random:
    """The generator for chance dealt after stream ``version``: derived from the
    game's secret seed, so a finished game's chance can be re-derived and checked."""
    digest = hashlib.sha256(f"{seed}:{version}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def metadata(principal: Principal | None, request_id: str | None, game: Game, **extra: Any) -> dict:
    engine = game.engine
    meta = {
        "actor": principal.label() if principal else "service",
        "request_id": request_id,
        "engine": engine.id,
        "engine_version": engine.version,
    }
    if game.catalog:
        meta["catalog"] = game.catalog_ref
    meta.update({k: v for k, v in extra.items() if v is not None})
    return meta


class UnitOfWork:
    """One write to one game: accumulates events, then appends them."""

    def __init__(
        self,
        conn: psycopg.Connection | None,
        game: Game,
        config: GameConfig,
        state: Any,
        meta: dict[str, Any],
    ):
        """``conn`` may be None for a write judged before its connection is
        chosen; it is set before ``commit``."""
        self.conn, self.game, self.config, self.state, self.meta = conn, game, config, state, meta
        self.pending: list[NewEvent] = []
        self.stored: Sequence[StoredEvent] = ()

    @property
    def version(self) -> int:
        return self.game.version + len(self.pending)

    def record(self, events: list[Event], **meta: Any) -> None:
        engine = self.game.engine
        for event in events:
            kept = _as_stored(engine.id, event)
            self._keep(kept, meta)
            self.state = engine.evolve(self.state, kept)

    def _keep(self, event: Event, meta: dict[str, Any]) -> None:
        """Keep an event to append, as a copy of its own: evolving can never alter it."""
        self.pending.append(
            NewEvent(event.type, orjson.loads(orjson.dumps(event.data)), {**self.meta, **meta})
        )

    def record_service(self, type_: str, data: dict[str, Any]) -> None:
        self.pending.append(NewEvent(type_, data, dict(self.meta)))

    def decide(self, command: dict[str, Any], **meta: Any) -> None:
        """Judge ``command`` and record its events; the first of them keeps the
        command and how many events it made, so the game can be exported as
        the commands that built it (``service.records.history.interchange``)."""
        engine = self.game.engine
        command = copies.from_pool(engine, self.state, command)
        start = len(self.pending)
        # The engine settles the command's events as they will be stored and
        # returns the state they leave: each event is evolved once.
        events, self.state = engine.decide_settled(
            self.state, command, functools.partial(_as_stored, engine.id)
        )
        for event in events:
            self._keep(event, meta)
        made = len(self.pending) - start
        if made:
            first = self.pending[start]
            kept = {**first.metadata, "command": dict(command), "command_events": made}
            self.pending[start] = NewEvent(first.type, first.data, kept)

    def act(self, command: dict[str, Any], snapshot_every: int) -> str:
        """A seat's (or the table's) command judged and appended; returns the
        game's status after it."""
        status = self.judge(command)
        self.commit(status, snapshot_every)
        return status

    def judge(self, command: dict[str, Any]) -> str:
        """Decide ``command``, deal any chance the game then waits for, and end
        the game if it is over (nothing touches the database); returns the
        game's status after it."""
        self.decide(command)
        self.deal_chance()
        return self.finish_if_over()

    def snapshot_due(self, snapshot_every: int) -> bool:
        """Does this write cross a multiple of ``snapshot_every``?"""
        return bool(snapshot_every) and self.version // snapshot_every > self.game.version // snapshot_every

    def deal_chance(self) -> None:
        """Server dealer: answer every chance request at once, in this transaction."""
        if self.game.dealer != "server":
            return
        engine = self.game.engine
        for _ in range(MAX_CHANCE_STEPS):
            if engine.outcome(self.state).finished:
                return
            request = engine.chance(self.state)
            if request is None:
                return
            command = deal(request, chance_rng(self.game.seed, self.version))
            self.decide(command, dealt=True)
        raise RuntimeError("chance requests did not settle")

    def finish_if_over(self) -> str:
        outcome = self.game.engine.outcome(self.state)
        if not outcome.finished:
            return "active"
        self.record_service(
            fold.GAME_ENDED,
            {
                "places": list(outcome.places),
                "scores": list(outcome.scores),
                "ended_by": outcome.ended_by,
                "seed": self.game.seed if self.game.dealer == "server" else None,
            },
        )
        return "finished"

    def result(self, status: str, principal: Principal) -> WriteResult:
        """The answer to the writer: the committed events as it may see them."""
        seat = access.viewer(self.game, principal)
        body = {
            "game": str(self.game.id),
            "version": self.version,
            "status": status,
            "events": [redact(self.game, e, seat) for e in self.stored],
        }
        return WriteResult(201, body)

    def commit(self, status: str, snapshot_every: int) -> None:
        """Append the pending events, move the game's version and save any
        snapshot due, in the caller's transaction (nothing is visible until it
        commits). A snapshot must commit with its events: one saved after them
        could outlive a retraction that commits in between."""
        self.stored = store.append(
            self.conn, self.game.club_id, self.game.id, self.game.version, self.pending, status
        )
        if self.snapshot_due(snapshot_every):
            store.save_snapshot(self.conn, *self.snapshot())

    def snapshot(self) -> tuple[UUID, str, int, Any]:
        """The state after the pending events as a snapshot: game, engine
        version, version and the dumped state."""
        return self.game.id, self.game.engine.version, self.version, self.game.engine.dump_state(self.state)

    def committed(self, records: Records) -> None:
        """Called once the transaction has committed: tell the listeners."""
        if self.stored:
            notify.publish(records.listeners, self.stored[-1].position)


def _as_stored(engine_id: str, event: Event) -> Event:
    """The event exactly as the log will keep it (through JSON), so that the
    live state is always the state a replay of the log gives."""
    if event.type in fold.SERVICE_EVENTS:
        raise RuntimeError(f"{engine_id} emitted the service event {event.type}")
    return Event(event.type, orjson.loads(store.event_json(event.data)))


def redact(game: Game, event: StoredEvent, seat: access.Viewer) -> dict[str, Any]:
    """A stored event as ``seat`` may see it."""
    data = event.data
    if seat != "all" and event.type not in fold.SERVICE_EVENTS:
        data = dict(game.engine.redact(Event(event.type, event.data), seat).data)
    return {
        "position": event.position,
        "version": event.version,
        "type": event.type,
        "data": data,
        "recorded_at": event.recorded_at.isoformat(),
    }
