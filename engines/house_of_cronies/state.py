"""House of Cronies state: frozen dataclasses, tuples and plain values.

Piles (decks, discards, hands) are kept sorted: there is no deck order, since
every draw names its cards, so a pile is a multiset and sorting makes equal
piles compare equal however they were built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.house_of_cronies.catalog import CRONY_POSITIONS, POSITIONS, TACTIC_KINDS, CardDef, Catalog
from engines.kit import shapes as v
from engines.kit import state_schema as records
from engines.kit.items import SeatedRecord
from engines.kit.state_schema import kept_out, shaped, state_schema

OPENING = "opening"  # dealing the opening hands and placing their cronies
LAYING = "laying"  # a round started; the Speaker's cards wait to be laid out
MOTION = "motion"  # the round-start window, before the Speaker's turn
TURNS = "turns"  # players take their turns in order
BETWEEN = "between"  # a round ended, the next one has not started
OVER = "over"

# What the game shows of its state: the shapes of its fields (``engines.kit.shapes``).
# Card ids come from the game's catalog, so they are plain strings.
STAGES = ("new", OPENING, LAYING, MOTION, TURNS, BETWEEN, OVER)
HAWKS = "hawks"
DECKS = ("main", "tactics")


def card_id(**kw):
    return v.string(**kw)


def card_ids(**kw):
    return v.array(v.string(), **kw)


@dataclass(frozen=True)
class Draw:
    """A draw the game waits for: ``count`` cards from ``deck`` to a seat or the table."""

    deck: str = shaped(v.string(DECKS))  # "main" or "tactics"
    to: int | str = shaped(v.either(v.seat(), v.string(["table"])))  # a seat, or "table"
    count: int = shaped(v.count())


@dataclass(frozen=True)
class Player:
    hand: tuple[str, ...] = shaped(card_ids(), default=())  # influence and corruption cards
    tactics: tuple[str, ...] = shaped(card_ids(), default=())
    cabinet: tuple[str | None, ...] = shaped(
        v.array(card_id(null=True), length=len(POSITIONS), description=f"In order {POSITIONS}."),
        default=(None,) * len(POSITIONS),
    )  # by POSITIONS order
    to_place: tuple[str, ...] = shaped(card_ids(), default=())  # cronies/allies gained and not yet placed

    def at(self, position: str) -> str | None:
        return self.cabinet[POSITIONS.index(position)]


@dataclass(frozen=True)
class Auction:
    card: str = shaped(card_id())
    opener: int = shaped(v.seat())
    high: int = shaped(v.seat())  # the seat holding the highest bid
    #: (seat, cards) of each seat's latest bid
    bids: tuple[tuple[int, tuple[str, ...]], ...] = shaped(
        v.array(v.row(v.seat(), card_ids()), description="[seat, cards] of each seat's latest bid.")
    )
    value: int = shaped(v.count())  # the highest bid's value
    asking: int | None = shaped(
        v.seat(null=True)
    )  # the seat asked to raise or pass; None when no one is left

    def bid_of(self, seat: int) -> tuple[str, ...]:
        for s, cards in self.bids:
            if s == seat:
                return cards
        return ()


@dataclass(frozen=True)
class PlayedTactic:
    """A tactic on the table, waiting for its Point of order window to close."""

    seat: int = shaped(v.seat())
    card: str = shaped(card_id())
    kind: str = shaped(v.string(TACTIC_KINDS))
    target: int | None = shaped(v.seat(null=True), default=None)
    position: str | None = shaped(v.string(POSITIONS, null=True), default=None)
    crony: str | None = shaped(card_id(null=True), default=None)
    #: Cabinet reshuffle: the six crony positions
    cabinet: tuple[str | None, ...] | None = shaped(
        v.array(card_id(null=True), null=True, length=len(CRONY_POSITIONS)), default=None
    )


@dataclass(frozen=True)
class Window:
    """A reaction window other than Point of order: ``motion`` (round start) or ``hawks``."""

    kind: str = shaped(v.string([MOTION, HAWKS]))
    passed: tuple[int, ...] = shaped(v.array(v.seat()), default=())
    target: int | None = shaped(v.seat(null=True), default=None)  # hawks: the seat whose cabinet is exposed
    exclude: str | None = shaped(card_id(null=True), default=None)  # hawks: the crony just won, not takeable


@dataclass(frozen=True)
class SeatStats:
    cards_picked_up: int = shaped(v.count(), default=0)
    bids_placed: int = shaped(v.count(), default=0)
    cronies_won: int = shaped(v.count(), default=0)
    tactics_bought: int = shaped(v.count(), default=0)
    tactics_played: int = shaped(v.count(), default=0)
    tactics_cancelled: int = shaped(v.count(), default=0)
    cronies_lost: int = shaped(v.count(), default=0)
    turns_without_a_card: int = shaped(v.count(), default=0)
    won_cards: tuple[str, ...] = shaped(
        card_ids(), default=()
    )  # the cronies and allies won by a bid, in order


PlayerShape = state_schema(Player, name="HouseOfCroniesPlayer")
DrawShape = state_schema(Draw, name="HouseOfCroniesDraw")
AuctionShape = state_schema(Auction, name="HouseOfCroniesAuction")
WindowShape = state_schema(Window, name="HouseOfCroniesWindow")
TacticShape = state_schema(PlayedTactic, name="HouseOfCroniesTactic")
SeatStatsShape = state_schema(SeatStats, name="HouseOfCroniesSeatStats")


@dataclass(frozen=True)
class HocState(SeatedRecord):
    #: the game's config holds the catalog: snapshots and replay steps do not carry it
    catalog: Catalog = kept_out()
    seats: int = shaped(v.count())
    speaker: int = shaped(v.seat())
    stage: str = shaped(v.string(STAGES), default="new")
    round: int = shaped(v.count(), default=0)
    final: bool = shaped(v.boolean(), default=False)
    main_deck: tuple[str, ...] = shaped(card_ids(), default=())
    main_discard: tuple[str, ...] = shaped(card_ids(), default=())
    tactic_deck: tuple[str, ...] = shaped(card_ids(), default=())
    tactic_discard: tuple[str, ...] = shaped(card_ids(), default=())
    table: tuple[str, ...] = shaped(card_ids(), default=())
    players: tuple[Player, ...] = shaped(v.array(v.nested(PlayerShape)), default=())
    pending_draws: tuple[Draw, ...] = shaped(v.array(v.nested(DrawShape)), default=())
    turn: int | None = shaped(v.seat(null=True), default=None)
    turns_done: int = shaped(v.count(), default=0)
    gained: tuple[int, ...] = shaped(v.array(v.seat()), default=())  # seats that gained a card this round
    #: seats under a Motion of no confidence this round
    censured: tuple[int, ...] = shaped(v.array(v.seat()), default=())
    won: tuple[tuple[int, str], ...] = shaped(
        v.array(v.row(v.seat(), card_id()), description="[seat, crony] won by a bid this round."), default=()
    )
    auction: Auction | None = shaped(v.nested(AuctionShape, null=True), default=None)
    window: Window | None = shaped(v.nested(WindowShape, null=True), default=None)
    #: a tactic and the Points of order answering it
    chain: tuple[PlayedTactic, ...] = shaped(v.array(v.nested(TacticShape)), default=())
    #: seats that passed on the chain's top tactic
    chain_passed: tuple[int, ...] = shaped(v.array(v.seat()), default=())
    shebeens: tuple[tuple[str, str], ...] = shaped(
        v.array(v.row(card_id(), card_id()), description="[crony, Saxonwold shebeen card under it]."),
        default=(),
    )
    tactic_reshuffles: int = shaped(v.count(), default=0)
    stats: tuple[SeatStats, ...] = shaped(v.array(v.nested(SeatStatsShape)), default=())
    votes: tuple[int, ...] = shaped(v.array(v.integer()), default=())  # set by the vote count

    def card(self, card_id: str) -> CardDef:
        return self.catalog.card(card_id)


def dump_state(state: HocState) -> dict[str, Any]:
    """The state as JSON, without the catalog."""
    return records.dump(state)
