"""Influence and scoring: a group's influence and wing, a base's net, the places."""

from __future__ import annotations

from engines.political_divide_and_conquer.catalog import FLIP_FLOP, LEFT, RIGHT
from engines.political_divide_and_conquer.state import PdcState


def influence(state: PdcState, group: str) -> int:
    """Printed influence, plus assets, minus deficits; it may be negative (PDC-16)."""
    return state.card(group).influence + sum(state.card(c).influence for c in state.stack(group))


def wing(state: PdcState, group: str) -> str:
    """The printed wing, reversed by each Flip-Flop on the group (PDC-18)."""
    printed = state.card(group).wing
    flips = sum(1 for c in state.stack(group) if state.card(c).power == FLIP_FLOP)
    if flips % 2 == 0:
        return printed
    return RIGHT if printed == LEFT else LEFT


def is_closed(state: PdcState, group: str) -> bool:
    """Nothing may be stacked atop a power asset (PDC-17)."""
    cards = state.stack(group)
    return bool(cards) and state.card(cards[-1]).power is not None


def wing_totals(state: PdcState, seat: int) -> tuple[int, int]:
    """(left, right) influence of a seat's base."""
    totals = {LEFT: 0, RIGHT: 0}
    for group in state.players[seat].base:
        totals[wing(state, group)] += influence(state, group)
    return totals[LEFT], totals[RIGHT]


def score(state: PdcState, seat: int) -> int:
    """The larger wing total minus the smaller (PDC-34)."""
    left, right = wing_totals(state, seat)
    return abs(right - left)


def base_cards(state: PdcState, seat: int) -> int:
    """Every card in the base: its groups and their stacks (the tie-break, PDC-36)."""
    return sum(1 + len(state.stack(g)) for g in state.players[seat].base)


def places(scores: list[int], cards: list[int]) -> list[int]:
    """Competition ranking by score, then by cards in the base; players still tied share."""
    keys = list(zip(scores, cards, strict=True))
    return [1 + sum(1 for other in keys if other > key) for key in keys]
