"""Questions about a state that decide, evolve and legal_commands share."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engines.house_of_cronies.catalog import (
    ALLY,
    CORRUPTION,
    CRONY,
    CRONY_POSITIONS,
    FOREIGN_ALLY,
    POSITIONS,
    PRESIDENT,
    VICE_PRESIDENT,
)
from engines.house_of_cronies.state import TURNS, HocState

TACTIC_COST = 5
MISSING_CABINET_PENALTY = 2


def table_size(seats: int) -> int:
    """Cards laid out each round: 5, or 4 with three players."""
    return 4 if seats == 3 else 5


def order_from(state: HocState, start: int) -> list[int]:
    """Seats clockwise from ``start`` (seat numbers grow clockwise)."""
    return [(start + k) % state.seats for k in range(state.seats)]


def remove_cards(pile: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    left = Counter(pile)
    left.subtract(Counter(cards))
    return tuple(sorted(left.elements()))


def add_cards(pile: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted((*pile, *cards)))


def contains(pile: Iterable[str], cards: Iterable[str]) -> bool:
    have = Counter(pile)
    want = Counter(cards)
    return all(have[c] >= n for c, n in want.items())


def value_of(state: HocState, cards: Iterable[str]) -> int:
    return sum(state.card(c).value for c in cards)


def hand_value(state: HocState, seat: int) -> int:
    return value_of(state, state.players[seat].hand)


def uses_corruption(state: HocState, cards: Iterable[str]) -> bool:
    return any(state.card(c).type == CORRUPTION for c in cards)


def allowed_positions(state: HocState, card_id: str) -> tuple[str, ...]:
    """Where a crony or ally may ever sit: President, Vice-President and its specialities."""
    card = state.card(card_id)
    if card.type == ALLY:
        return (FOREIGN_ALLY,)
    if card.type == CRONY:
        return (PRESIDENT, VICE_PRESIDENT, *card.positions)
    return ()


def open_positions(state: HocState, seat: int, card_id: str) -> list[str]:
    """The empty positions of ``seat``'s cabinet that ``card_id`` may take."""
    cabinet = state.players[seat].cabinet
    return [p for p in allowed_positions(state, card_id) if cabinet[POSITIONS.index(p)] is None]


def cronies_of(state: HocState, seat: int) -> list[str]:
    """The cronies in the six crony positions (foreign ally excluded)."""
    return [c for c in state.players[seat].cabinet[:6] if c is not None]


def position_of(state: HocState, seat: int, card_id: str) -> str | None:
    for position, card in zip(POSITIONS, state.players[seat].cabinet, strict=True):
        if card == card_id:
            return position
    return None


def owner_of(state: HocState, card_id: str) -> int | None:
    for seat, player in enumerate(state.players):
        if card_id in player.cabinet:
            return seat
    return None


def is_protected(state: HocState, card_id: str | None) -> bool:
    return card_id is not None and any(crony == card_id for crony, _ in state.shebeens)


def active_placer(state: HocState) -> int | None:
    """The seat that must place a gained crony now (in turn order from the Speaker)."""
    for seat in order_from(state, state.speaker):
        if state.players[seat].to_place:
            return seat
    return None


def may_bid(state: HocState, seat: int) -> bool:
    """Only players who have not gained a card this round, and are not under a motion, bid."""
    return (
        state.stage == TURNS and not state.final and seat not in state.gained and seat not in state.censured
    )


def next_asker(state: HocState, after: int, high: int) -> int | None:
    """The next seat clockwise after ``after`` that may raise ``high``'s bid; None once the
    asking comes back round to the highest bidder."""
    for k in range(1, state.seats + 1):
        seat = (after + k) % state.seats
        if seat == high:
            return None
        if may_bid(state, seat):
            return seat
    return None


def tactic_supply(state: HocState) -> int:
    """Tactics that can still be drawn: the deck, and its discards once reshuffled."""
    return len(state.tactic_deck) + len(state.tactic_discard)


def tactic_card(state: HocState, seat: int, kind: str) -> str | None:
    for card in state.players[seat].tactics:
        if state.card(card).tactic == kind:
            return card
    return None


def votes(state: HocState) -> tuple[list[int], list[int]]:
    """Each seat's (total, penalty): cronies' and ally's votes, minus 2 without six cronies."""
    totals, penalties = [], []
    for player in state.players:
        raw = sum(state.card(c).votes for c in player.cabinet if c is not None)
        full = all(c is not None for c in player.cabinet[: len(CRONY_POSITIONS)])
        penalty = 0 if full else MISSING_CABINET_PENALTY
        totals.append(raw - penalty)
        penalties.append(penalty)
    return totals, penalties


def places(scores: list[int] | tuple[int, ...]) -> list[int]:
    """Competition ranking: equal totals share a place (1, 1, 3)."""
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def minimal_payment(
    state: HocState, cards: Iterable[str], target: int, need_corruption: bool = False
) -> tuple[str, ...] | None:
    """The cheapest set of ``cards`` worth at least ``target`` (with a corruption card if asked).

    A cheapest set never holds a card it does not need, so it is a valid payment
    under the no-change rule.
    """
    best: dict[tuple[int, bool], tuple[str, ...]] = {(0, False): ()}
    for card in sorted(cards):
        value = state.card(card).value
        dirty = state.card(card).type == CORRUPTION
        for (total, has_dirty), chosen in list(best.items()):
            key = (min(total + value, target + 20), has_dirty or dirty)
            if key not in best:
                best[key] = (*chosen, card)
    candidates = [
        (total, chosen)
        for (total, has_dirty), chosen in best.items()
        if total >= target and (has_dirty or not need_corruption)
    ]
    if not candidates:
        return None
    total, chosen = min(candidates, key=lambda item: (item[0], len(item[1]), item[1]))
    return chosen
