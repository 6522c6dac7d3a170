"""The board a game is played on, built from its catalog (``GameConfig.catalog``).

The rulebook prints no board and no cards: rooms, their locations and spaces,
the jobs and the Event and Haunt decks come from a catalog validated by
``schemas.catalogs.maccreedys_mansion.CATALOG``. The engine performs no I/O;
it reads the catalog the game was created with.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from marshmallow import ValidationError

from engines.base import RuleViolation
from schemas.catalogs.maccreedys_mansion import CATALOG


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


def parse_board(data: Mapping[str, Any] | None) -> Board:
    """The board of a catalog; a catalog the schema refuses is a RuleViolation."""
    if not data:
        raise RuleViolation("no-catalog", "MacCreedy's Mansion needs a board catalog.")
    return _parse(json.dumps(data, sort_keys=True))


@lru_cache(maxsize=16)
def _parse(text: str) -> Board:
    """Cached by content: replay and snapshots load the same catalog again and again."""
    try:
        c = CATALOG().load(json.loads(text))
    except ValidationError as exc:
        raise RuleViolation(
            "invalid-catalog", "The board catalog is not valid.", {"errors": exc.messages}
        ) from exc
    rooms, locations, spaces = [], [], []
    for room in c["rooms"]:
        rooms.append(
            Room(room["id"], room["name"], room["coverable"], tuple(x["id"] for x in room["locations"]))
        )
        for loc in room["locations"]:
            locations.append(
                Location(loc["id"], loc["name"], room["id"], tuple(s["id"] for s in loc["spaces"]))
            )
            spaces.extend(Space(s["id"], s["worker"], loc["id"], room["id"]) for s in loc["spaces"])
    order = {"carpenter": 0, "mason": 1, "electrician": 2, "plumber": 3, "gasman": 4}
    prices = {"stone": 0, "lumber": 1, "wiring": 2, "pipes": 3}

    def cards(group: str) -> tuple[Card, ...]:
        return tuple(Card(x["id"], x["name"], x["text"], tuple(x["effect"])) for x in c[group])

    return Board(
        id=c["id"],
        version=c["version"],
        reconstruction=c["reconstruction"],
        start_active=c["start_active"],
        start_invested=c["start_invested"],
        job_track=c["job_track"],
        markers=c["markers_per_company"],
        workers=tuple(
            Worker(w["type"], w["pieces"], w["wage"], w["resource"])
            for w in sorted(c["workers"], key=lambda w: order[w["type"]])
        ),
        prices=tuple(
            (r["type"], r["price"]) for r in sorted(c["resources"], key=lambda r: prices[r["type"]])
        ),
        rooms=tuple(rooms),
        locations=tuple(locations),
        spaces=tuple(spaces),
        jobs=tuple(Job(j["id"], j["name"], j["location"], j["reward"]) for j in c["jobs"]),
        events=cards("events"),
        haunts=cards("haunts"),
    )
