"""Final Decrees' state: frozen dataclasses of tuples and plain values."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engines.final_decrees.catalog import Catalog
from engines.final_decrees.departments import Arrow
from engines.kit.awaiting import Awaiting
from engines.kit.deck import Deck
from engines.kit.items import Record
from engines.kit.offers import OfferBook

# Phases. The game rests only where a seat or chance is awaited.
BID = "bid"  # FD-8: sealed bids (and rebids) for Human Resources
ASSIGN = "assign"  # FD-14: the Human Resources head assigns departments
DEAL = "deal"  # FD-15: one card each, then the deck is stacked
PLAY = "play"
OVER = "over"

ACTIONS_PER_TURN = 3
DRAW_ACTION = "draw"  # the once-per-turn things, FD-35
TREASURY_POWER = "treasury"
ADMIRALTY_POWER = "admiralty"


@dataclass(frozen=True)
class Decree:
    id: str
    steps: tuple[str, ...]
    stamped: int = 0
    at: str | None = None  # the department holding it; None once enacted

    @property
    def next_step(self) -> str | None:
        return self.steps[self.stamped] if self.stamped < len(self.steps) else None

    @property
    def enacted(self) -> bool:
        return self.stamped >= len(self.steps)


@dataclass(frozen=True)
class FdState(Record):
    catalog: Catalog
    seats: int
    dealer: str
    discard_count: int
    departments: tuple[str, ...]  # in play, in the order of ALL_DEPARTMENTS
    phase: str = BID
    bidders: tuple[int, ...] = ()
    bids: tuple[int | None, ...] = ()  # sealed until every bidder has bid
    bid_round: int = 1
    posts: tuple[str | None, ...] = ()  # the department each seat heads
    dept_blame: tuple[int, ...] = ()  # by ``departments``
    personal: tuple[int, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    decrees: tuple[Decree, ...] = ()
    enacted: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    deck: Deck = Deck()
    discards: tuple[str, ...] = ()
    turn: int = 0
    active: int | None = None
    next_seat: int | None = None  # whose turn starts next
    actions_left: int = 0
    used: tuple[str, ...] = ()  # once-per-turn things used this turn
    draws_owed: int = 0
    declining: int | None = None  # the decline card was drawn: cards still to discard
    awaiting: Awaiting | None = None
    offers: OfferBook = OfferBook()
    ended_by: str = ""
    places: tuple[int, ...] = ()
    # statistics, per seat
    stamps: tuple[int, ...] = ()
    enactments: tuple[int, ...] = ()  # decrees whose last step the seat stamped
    removed: tuple[int, ...] = ()  # blame the seat removed as the chain-top head
    declines: tuple[int, ...] = ()  # decline cards the seat drew
    trades: tuple[int, ...] = ()
    first_bid: tuple[int, ...] = ()
    headed: tuple[tuple[str, ...], ...] = ()  # the department each of the seat's turns began in

    # ---------------------------------------------------------------- queries
    def head(self, department: str) -> int | None:
        return next((s for s, post in enumerate(self.posts) if post == department), None)

    @property
    def empty_department(self) -> str | None:
        if self.phase in (BID, ASSIGN):
            return None
        return next((d for d in self.departments if d not in self.posts), None)

    def blame_of(self, department: str) -> int:
        return self.dept_blame[self.departments.index(department)]

    def decrees_at(self, department: str) -> tuple[Decree, ...]:
        return tuple(d for d in self.decrees if d.at == department)

    def decree(self, decree_id: Any) -> Decree | None:
        return next((d for d in self.decrees if d.id == decree_id), None)


def seat_add(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return tuple(v + delta if i == seat else v for i, v in enumerate(values))


_TUPLES = ("bidders", "bids", "posts", "dept_blame", "personal", "discards", "used", "places")
_TUPLES += ("stamps", "enactments", "removed", "declines", "trades", "first_bid", "departments")


def dump_state(state: FdState) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for f in fields(state):
        if f.name == "catalog":
            continue
        value = getattr(state, f.name)
        if f.name == "arrows":
            value = [list(a) for a in value]
        elif f.name in ("hands", "headed"):
            value = [list(h) for h in value]
        elif f.name == "decrees":
            value = [{"id": d.id, "steps": list(d.steps), "stamped": d.stamped, "at": d.at} for d in value]
        elif f.name == "deck":
            value = value.dump()
        elif f.name == "offers":
            value = value.to_json()
        elif f.name == "awaiting":
            value = None if value is None else value.to_json()
        elif isinstance(value, tuple):
            value = list(value)
        data[f.name] = value
    return data


def load_state(data: dict[str, Any], catalog: Catalog) -> FdState:
    values = dict(data)
    for name in _TUPLES:
        values[name] = tuple(values[name])
    values["arrows"] = tuple(tuple(a) for a in values["arrows"])
    values["hands"] = tuple(tuple(h) for h in values["hands"])
    values["headed"] = tuple(tuple(h) for h in values["headed"])
    values["decrees"] = tuple(
        Decree(d["id"], tuple(d["steps"]), d["stamped"], d["at"]) for d in values["decrees"]
    )
    values["deck"] = Deck.load(values["deck"])
    values["offers"] = OfferBook.from_json(values["offers"])
    values["awaiting"] = Awaiting.from_json(values["awaiting"])
    return FdState(catalog=catalog, **values)
