"""The board a game is played on, built from its catalog (``GameConfig.catalog``).

The rulebook prints no board and no cards: rooms, their locations and spaces,
the jobs and the Event and Haunt decks come from a catalog validated by
``engines.maccreedys_mansion.catalog_schema.CATALOG`` when it is registered. The engine performs no I/O;
it reads the catalog the game was created with.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from engines.base import RuleViolation


@dataclass(frozen=True)
class Worker:
    type: str
    pieces: int
    wage: int
    resource: str


@dataclass(frozen=True)
class Space:
    id: str
    worker: str
    location: str
    room: str


@dataclass(frozen=True)
class Location:
    id: str
    name: str
    room: str
    spaces: tuple[str, ...]


@dataclass(frozen=True)
class Room:
    id: str
    name: str
    coverable: bool
    locations: tuple[str, ...]


@dataclass(frozen=True)
class Job:
    id: str
    name: str
    location: str
    reward: int


@dataclass(frozen=True)
class Card:
    """An Event or Haunt card; ``effect`` is a tuple of plain-JSON operations."""

    id: str
    name: str
    text: str
    effect: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class Board:
    id: str
    version: int
    reconstruction: bool
    start_active: int
    start_invested: int
    job_track: int
    markers: int
    workers: tuple[Worker, ...]  # in the rulebook's order: Carpenter, Mason, Electrician, Plumber, Gasman
    prices: tuple[tuple[str, int], ...]  # in the rulebook's order: Stone, Lumber, Wiring, Pipes
    rooms: tuple[Room, ...]
    locations: tuple[Location, ...]
    spaces: tuple[Space, ...]
    jobs: tuple[Job, ...]
    events: tuple[Card, ...]
    haunts: tuple[Card, ...]

    @cached_property
    def worker(self) -> dict[str, Worker]:
        return {w.type: w for w in self.workers}

    @cached_property
    def price(self) -> dict[str, int]:
        return dict(self.prices)

    @property
    def worker_types(self) -> tuple[str, ...]:
        return tuple(w.type for w in self.workers)

    @property
    def resource_types(self) -> tuple[str, ...]:
        return tuple(r for r, _ in self.prices)

    @cached_property
    def room(self) -> dict[str, Room]:
        return {r.id: r for r in self.rooms}

    @cached_property
    def location(self) -> dict[str, Location]:
        return {loc.id: loc for loc in self.locations}

    @cached_property
    def space(self) -> dict[str, Space]:
        return {s.id: s for s in self.spaces}

    @cached_property
    def job(self) -> dict[str, Job]:
        return {j.id: j for j in self.jobs}

    @cached_property
    def card(self) -> dict[str, Card]:
        return {c.id: c for c in (*self.events, *self.haunts)}

    def item_price(self, item: str) -> int:
        """The price of a debt marker: a worker's wage or a resource's price."""
        return self.worker[item].wage if item in self.worker else self.price[item]


WORKER_TYPES = ("carpenter", "mason", "electrician", "plumber", "gasman")  # the rulebook's order
RESOURCE_TYPES = ("stone", "lumber", "wiring", "pipes")  # the rulebook's order
# The effect vocabulary: each operation the engine runs and the fields it takes.
# The catalog schema (engines/maccreedys_mansion/catalog_schema.py) refuses any other.
EFFECT_FIELDS: dict[str, frozenset[str]] = {
    "break-location": frozenset({"location"}),
    "haunt-room": frozenset({"room"}),
    "strike": frozenset({"worker", "rounds"}),
    "fine": frozenset({"who", "amount"}),
    "bonus": frozenset({"who", "amount"}),
    "skip-inspection": frozenset(),
}


def parse_board(data: Mapping[str, Any] | None) -> Board:
    """The board of a catalog. Its shape was checked by the catalog schema when
    it was registered; what the engine cannot work with is still refused here,
    as the RuleViolation ``invalid-catalog``."""
    if not data:
        raise RuleViolation("no-catalog", "MacCreedy's Mansion needs a board catalog.")
    try:
        return _parse(json.dumps(data, sort_keys=True))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RuleViolation("invalid-catalog", f"The board catalog cannot be used: {exc}") from exc


def _card(entry: Mapping[str, Any], locations: set[str], rooms: set[str]) -> Card:
    for effect in entry["effect"]:
        wanted = EFFECT_FIELDS[effect["op"]]
        if set(effect) - {"op"} != wanted:
            raise ValueError(f"{entry['id']}: {effect['op']} takes {sorted(wanted)}")
        if effect.get("location", next(iter(locations))) not in locations:
            raise ValueError(f"{entry['id']}: no location {effect['location']!r}")
        if effect.get("room", next(iter(rooms))) not in rooms:
            raise ValueError(f"{entry['id']}: no room {effect['room']!r}")
    return Card(entry["id"], entry["name"], entry.get("text", ""), tuple(entry["effect"]))


@lru_cache(maxsize=16)
def _parse(text: str) -> Board:
    """Cached by content: replay and snapshots load the same catalog again and again."""
    c = json.loads(text)
    rooms, locations, spaces = [], [], []
    for room in c["rooms"]:
        rooms.append(
            Room(
                room["id"],
                room["name"],
                bool(room.get("coverable")),
                tuple(x["id"] for x in room["locations"]),
            )
        )
        for loc in room["locations"]:
            locations.append(
                Location(loc["id"], loc["name"], room["id"], tuple(s["id"] for s in loc["spaces"]))
            )
            spaces.extend(Space(s["id"], s["worker"], loc["id"], room["id"]) for s in loc["spaces"])
    workers = {w["type"]: w for w in c["workers"]}
    prices = {r["type"]: r["price"] for r in c["resources"]}
    if sorted(workers) != sorted(WORKER_TYPES) or sorted(prices) != sorted(RESOURCE_TYPES):
        raise ValueError("the board lists each worker type and each resource once")
    if any(w["resource"] not in prices for w in workers.values()) or any(
        s.worker not in workers for s in spaces
    ):
        raise ValueError("a worker needs a resource of the board, a space a worker of the board")
    location_ids = {loc.id for loc in locations}
    room_ids = {room.id for room in rooms}
    jobs = tuple(Job(j["id"], j["name"], j["location"], j["reward"]) for j in c["jobs"])
    if any(j.location not in location_ids for j in jobs):
        raise ValueError("every job names a location of the board")
    return Board(
        id=c["id"],
        version=c["version"],
        reconstruction=bool(c.get("reconstruction")),
        start_active=c["start_active"],
        start_invested=c["start_invested"],
        job_track=c["job_track"],
        markers=c["markers_per_company"],
        workers=tuple(
            Worker(t, workers[t]["pieces"], workers[t]["wage"], workers[t]["resource"]) for t in WORKER_TYPES
        ),
        prices=tuple((r, prices[r]) for r in RESOURCE_TYPES),
        rooms=tuple(rooms),
        locations=tuple(locations),
        spaces=tuple(spaces),
        jobs=jobs,
        events=tuple(_card(x, location_ids, room_ids) for x in c["events"]),
        haunts=tuple(_card(x, location_ids, room_ids) for x in c["haunts"]),
    )
