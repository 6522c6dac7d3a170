"""House of Cronies state: frozen dataclasses, tuples and plain values.

Piles (decks, discards, hands) are kept sorted: there is no deck order, since
every draw names its cards, so a pile is a multiset and sorting makes equal
piles compare equal however they were built.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engines.house_of_cronies.catalog import POSITIONS, CardDef, Catalog
from engines.kit.frozen import replace
from engines.kit.items import SeatedRecord

OPENING = "opening"  # dealing the opening hands and placing their cronies
LAYING = "laying"  # a round started; the Speaker's cards wait to be laid out
MOTION = "motion"  # the round-start window, before the Speaker's turn
TURNS = "turns"  # players take their turns in order
BETWEEN = "between"  # a round ended, the next one has not started
OVER = "over"


@dataclass(frozen=True)
class Draw:
    """A draw the game waits for: ``count`` cards from ``deck`` to a seat or the table."""

    deck: str  # "main" or "tactics"
    to: int | str  # a seat, or "table"
    count: int


@dataclass(frozen=True)
class Player:
    hand: tuple[str, ...] = ()  # influence and corruption cards
    tactics: tuple[str, ...] = ()
    cabinet: tuple[str | None, ...] = (None,) * len(POSITIONS)  # by POSITIONS order
    to_place: tuple[str, ...] = ()  # cronies/allies gained and not yet placed

    def at(self, position: str) -> str | None:
        return self.cabinet[POSITIONS.index(position)]


@dataclass(frozen=True)
class Auction:
    card: str
    opener: int
    high: int  # the seat holding the highest bid
    bids: tuple[tuple[int, tuple[str, ...]], ...]  # (seat, cards) of each seat's latest bid
    value: int  # the highest bid's value
    asking: int | None  # the seat asked to raise or pass; None when no one is left to ask

    def bid_of(self, seat: int) -> tuple[str, ...]:
        for s, cards in self.bids:
            if s == seat:
                return cards
        return ()


@dataclass(frozen=True)
class PlayedTactic:
    """A tactic on the table, waiting for its Point of order window to close."""

    seat: int
    card: str
    kind: str
    target: int | None = None
    position: str | None = None
    crony: str | None = None
    cabinet: tuple[str | None, ...] | None = None  # Cabinet reshuffle: the six crony positions


@dataclass(frozen=True)
class Window:
    """A reaction window other than Point of order: ``motion`` (round start) or ``hawks``."""

    kind: str
    passed: tuple[int, ...] = ()
    target: int | None = None  # hawks: the seat whose cabinet is exposed
    exclude: str | None = None  # hawks: the crony just won, which cannot be taken


@dataclass(frozen=True)
class SeatStats:
    cards_picked_up: int = 0
    bids_placed: int = 0
    cronies_won: int = 0
    tactics_bought: int = 0
    tactics_played: int = 0
    tactics_cancelled: int = 0
    cronies_lost: int = 0
    turns_without_a_card: int = 0
    won_cards: tuple[str, ...] = ()  # the cronies and allies won by a bid, in order


@dataclass(frozen=True)
class HocState(SeatedRecord):
    catalog: Catalog
    seats: int
    speaker: int
    stage: str = "new"
    round: int = 0
    final: bool = False
    main_deck: tuple[str, ...] = ()
    main_discard: tuple[str, ...] = ()
    tactic_deck: tuple[str, ...] = ()
    tactic_discard: tuple[str, ...] = ()
    table: tuple[str, ...] = ()
    players: tuple[Player, ...] = ()
    pending_draws: tuple[Draw, ...] = ()
    turn: int | None = None
    turns_done: int = 0
    gained: tuple[int, ...] = ()  # seats that gained a card this round
    censured: tuple[int, ...] = ()  # seats under a Motion of no confidence this round
    won: tuple[tuple[int, str], ...] = ()  # (seat, crony) won by a bid this round
    auction: Auction | None = None
    window: Window | None = None
    chain: tuple[PlayedTactic, ...] = ()  # a tactic and the Points of order answering it
    chain_passed: tuple[int, ...] = ()  # seats that passed on the chain's top tactic
    shebeens: tuple[tuple[str, str], ...] = ()  # (crony, Saxonwold shebeen card under it)
    tactic_reshuffles: int = 0
    stats: tuple[SeatStats, ...] = ()
    votes: tuple[int, ...] = ()  # set by the vote count

    def card(self, card_id: str) -> CardDef:
        return self.catalog.card(card_id)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuple(v) for v in value)
    return value


def dump_state(state: HocState) -> dict[str, Any]:
    """The state as JSON, without the catalog: the game's config holds it, so
    snapshots and replay steps do not carry the whole card list each time."""
    data = _plain(asdict(replace(state, catalog=None)))
    del data["catalog"]
    return data


def load_state(data: dict[str, Any], catalog: Catalog) -> HocState:
    auction = data["auction"]
    window = data["window"]
    return HocState(
        catalog=catalog,
        seats=data["seats"],
        speaker=data["speaker"],
        stage=data["stage"],
        round=data["round"],
        final=data["final"],
        main_deck=tuple(data["main_deck"]),
        main_discard=tuple(data["main_discard"]),
        tactic_deck=tuple(data["tactic_deck"]),
        tactic_discard=tuple(data["tactic_discard"]),
        table=tuple(data["table"]),
        players=tuple(Player(**{k: tuple(v) for k, v in p.items()}) for p in data["players"]),
        pending_draws=tuple(Draw(**d) for d in data["pending_draws"]),
        turn=data["turn"],
        turns_done=data["turns_done"],
        gained=tuple(data["gained"]),
        censured=tuple(data["censured"]),
        won=tuple((s, c) for s, c in data["won"]),
        auction=None
        if auction is None
        else Auction(
            card=auction["card"],
            opener=auction["opener"],
            high=auction["high"],
            bids=tuple((s, tuple(cards)) for s, cards in auction["bids"]),
            value=auction["value"],
            asking=auction["asking"],
        ),
        window=None
        if window is None
        else Window(
            kind=window["kind"],
            passed=tuple(window["passed"]),
            target=window["target"],
            exclude=window["exclude"],
        ),
        chain=tuple(PlayedTactic(**{k: _tuple(v) for k, v in t.items()}) for t in data["chain"]),
        chain_passed=tuple(data["chain_passed"]),
        shebeens=tuple((c, t) for c, t in data["shebeens"]),
        tactic_reshuffles=data["tactic_reshuffles"],
        stats=tuple(SeatStats(**{**s, "won_cards": tuple(s["won_cards"])}) for s in data["stats"]),
        votes=tuple(data["votes"]),
    )
