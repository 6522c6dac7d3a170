"""Final Decrees' state: frozen dataclasses of tuples and plain values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import Schema

from engines.final_decrees.catalog import Catalog
from engines.final_decrees.departments import ALL_DEPARTMENTS, Arrow
from engines.final_decrees.events import Termination
from engines.kit import shapes as v
from engines.kit import state_schema as records
from engines.kit.awaiting import Awaiting
from engines.kit.deck import Deck
from engines.kit.items import Record
from engines.kit.offers import OfferBook
from engines.kit.state_schema import kept_out, shaped, state_schema

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


# What the game shows of its state: the shapes of its fields (``engines.kit.shapes``).
# Card and decree ids come from the game's catalog, so they are plain strings.
PHASES = (BID, ASSIGN, DEAL, PLAY, OVER)
ONCE_PER_TURN = (DRAW_ACTION, TREASURY_POWER, ADMIRALTY_POWER)
ENDINGS = ("", *(t.value for t in Termination))  # "": not ended yet


def department(**kw):
    return v.string(ALL_DEPARTMENTS, **kw)


def card_ids(**kw):
    return v.array(v.string(), **kw)


def per_seat(field, **kw):
    return v.array(field, **kw)


class FinalDecreesOffer(Schema):
    """An open offer as ``OfferBook.to_json`` writes it."""

    offer = v.count()
    seat = v.seat()
    to = v.seat()
    give_amount = v.count()
    give_cards = card_ids()
    ask_amount = v.count()
    ask_cards = v.count()


class FinalDecreesOfferBook(Schema):
    open = v.array(v.nested(FinalDecreesOffer))
    next_id = v.count()


@dataclass(frozen=True)
class Decree:
    id: str = shaped(v.string())
    steps: tuple[str, ...] = shaped(v.array(department()))
    stamped: int = shaped(v.count(), default=0)
    at: str | None = shaped(
        department(null=True), default=None
    )  # the department holding it; None once enacted

    @property
    def next_step(self) -> str | None:
        return self.steps[self.stamped] if self.stamped < len(self.steps) else None

    @property
    def enacted(self) -> bool:
        return self.stamped >= len(self.steps)


DecreeShape = state_schema(Decree, name="FinalDecreesDecree")


@dataclass(frozen=True)
class FdState(Record):
    catalog: Catalog = kept_out()  # the game's config holds it
    seats: int = shaped(v.count())
    dealer: str = shaped(v.string(("server", "table")))
    discard_count: int = shaped(v.count())
    #: in play, in the order of ALL_DEPARTMENTS
    departments: tuple[str, ...] = shaped(v.array(department(), description="The departments in play."))
    phase: str = shaped(v.string(PHASES), default=BID)
    bidders: tuple[int, ...] = shaped(v.array(v.seat()), default=())
    bids: tuple[int | None, ...] = shaped(
        per_seat(v.count(null=True)), default=()
    )  # sealed until all have bid
    bid_round: int = shaped(v.count(), default=1)
    posts: tuple[str | None, ...] = shaped(
        per_seat(department(null=True), description="The department each seat heads."), default=()
    )
    dept_blame: tuple[int, ...] = shaped(
        v.array(v.count(), description="Blame by department, in the order of `departments`."), default=()
    )
    personal: tuple[int, ...] = shaped(per_seat(v.integer()), default=())
    arrows: tuple[Arrow, ...] = shaped(v.array(v.row(department(), department())), default=())
    decrees: tuple[Decree, ...] = shaped(v.array(v.nested(DecreeShape)), default=())
    enacted: int = shaped(v.count(), default=0)
    hands: tuple[tuple[str, ...], ...] = shaped(per_seat(card_ids()), default=())
    deck: Deck = shaped(v.nested(v.DeckState), default=Deck())
    discards: tuple[str, ...] = shaped(card_ids(), default=())
    turn: int = shaped(v.count(), default=0)
    active: int | None = shaped(v.seat(null=True), default=None)
    next_seat: int | None = shaped(v.seat(null=True), default=None)  # whose turn starts next
    actions_left: int = shaped(v.count(), default=0)
    #: once-per-turn things used this turn
    used: tuple[str, ...] = shaped(v.array(v.string(ONCE_PER_TURN)), default=())
    draws_owed: int = shaped(v.count(), default=0)
    declining: int | None = shaped(
        v.count(null=True, description="The decline card was drawn: cards still to discard."), default=None
    )
    awaiting: Awaiting | None = shaped(v.nested(v.AwaitedStep, null=True), default=None)
    offers: OfferBook = shaped(v.nested(FinalDecreesOfferBook), default=OfferBook())
    ended_by: str = shaped(v.string(ENDINGS), default="")
    places: tuple[int, ...] = shaped(per_seat(v.integer(1)), default=())
    # statistics, per seat
    stamps: tuple[int, ...] = shaped(per_seat(v.count()), default=())
    #: decrees whose last step the seat stamped
    enactments: tuple[int, ...] = shaped(per_seat(v.count()), default=())
    #: blame the seat removed as the chain-top head
    removed: tuple[int, ...] = shaped(per_seat(v.count()), default=())
    declines: tuple[int, ...] = shaped(per_seat(v.count()), default=())  # decline cards the seat drew
    trades: tuple[int, ...] = shaped(per_seat(v.count()), default=())
    first_bid: tuple[int, ...] = shaped(per_seat(v.count()), default=())
    #: the department each of the seat's turns began in
    headed: tuple[tuple[str, ...], ...] = shaped(
        per_seat(v.array(department()), description="The department each of the seat's turns began in."),
        default=(),
    )

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


def dump_state(state: FdState) -> dict[str, Any]:
    """The state as JSON, without the catalog."""
    return records.dump(state)
