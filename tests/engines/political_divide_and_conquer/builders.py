"""Builders for Political Divide & Conquer scenarios: a game dealt as the test
says (table mode), cards named by what they are, the table arranged directly."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engines.base import Event, GameConfig, RuleViolation
from engines.political_divide_and_conquer import ENGINE
from engines.political_divide_and_conquer.catalog import parse_catalog
from engines.political_divide_and_conquer.state import PdcState
from tests.engine_contract import apply

CATALOG_PATH = Path(__file__).parents[3] / "engines" / "political_divide_and_conquer" / "default_catalog.json"
ANN, BO, CY, DI = 0, 1, 2, 3


@cache
def _catalog_text() -> str:
    return CATALOG_PATH.read_text()


def catalog_dict() -> dict[str, Any]:
    return json.loads(_catalog_text())


def config(seats: int = 4, dealer: str = "table", **options: Any) -> GameConfig:
    return GameConfig(seats=seats, options=options, dealer=dealer, catalog=catalog_dict())


@cache
def catalog():
    return parse_catalog(catalog_dict())


def card(name: str, nth: int = 0) -> str:
    """The id of the ``nth`` card printed with ``name``."""
    return [c.id for c in sorted(catalog().cards.values(), key=lambda c: c.id) if c.name == name][nth]


def group(wing: str, influence: int, nth: int = 0) -> str:
    ids = sorted(
        c.id
        for c in catalog().cards.values()
        if c.type == "group" and c.wing == wing and c.influence == influence
    )
    return ids[nth]


def of(kind: str, influence: int | None = None, nth: int = 0) -> str:
    ids = sorted(
        c.id
        for c in catalog().cards.values()
        if c.type == kind and (influence is None or c.influence == influence) and c.power is None
    )
    return ids[nth]


def start(
    seats: int = 4,
    hands: Mapping[int, Iterable[str]] | None = None,
    opening: str | None = None,
    first: int = ANN,
    dealer: str = "table",
    in_deck: Iterable[str] = (),
) -> PdcState:
    """A game dealt with the given hands (the rest of each hand is filled from
    cards no one named), ``opening`` turned up as the unaffiliated group, and
    ``first`` to play; it waits for the first turn's draw. Cards ``in_deck`` stay in the deck."""
    cfg = config(seats, dealer, first_player=first)
    named = {s: list(h) for s, h in (hands or {}).items()}
    used = Counter(c for h in named.values() for c in h)
    opening = opening or group("right", 1, 8)
    used[opening] += 1
    used.update(in_deck)
    spare = [c for c in sorted(catalog().cards) if not used[c] and catalog().card(c).type != "event"]
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
    for s in range(seats):
        hand = named.get(s, [])
        while len(hand) < 6:
            hand.append(spare.pop())
        state = do(state, {"type": "DrawCards", "seat": None, "to": s, "cards": hand})
    return do(state, {"type": "TurnUpCard", "seat": None, "cards": [opening]})


def do(state: PdcState, command: dict[str, Any]) -> PdcState:
    state, _ = apply(ENGINE, state, command)
    return state


def events_of(state: PdcState, command: dict[str, Any]) -> list[Event]:
    return ENGINE.decide(state, command)


def refused(state: PdcState, command: dict[str, Any]) -> str:
    with pytest.raises(RuleViolation) as info:
        ENGINE.decide(state, command)
    return info.value.code


def draw(state: PdcState, *cards: str) -> PdcState:
    """The dealer draws ``cards`` from the middle of the deck for the draw waiting."""
    request = ENGINE.chance(state)
    return do(state, {"type": "DrawCards", "seat": None, **request.fixed, "cards": list(cards)})


def keep(state: PdcState, seat: int, card: str, to: str = "bottom") -> PdcState:
    return do(state, {"type": "KeepCard", "seat": seat, "card": card, "return_to": to})


def spare_cards(state: PdcState, n: int, kind: str = "group") -> list[str]:
    """``n`` cards of ``kind`` still in the deck's middle."""
    return [c for c in dict.fromkeys(state.deck.middle) if catalog().card(c).type == kind][:n]


def my_turn(state: PdcState, seat: int) -> PdcState:
    """Draws two groups for ``seat``'s turn and keeps the first (the other to the bottom)."""
    a, b = spare_cards(state, 2)
    state = draw(state, a, b)
    return keep(state, seat, a)


def roll(state: PdcState, attacker: int, defender: int) -> PdcState:
    """Every seat passes the pre-roll window, then the dice are posted."""
    for seat in list(state.window.waiting if state.window else []):
        state = do(state, {"type": "PassWindow", "seat": seat})
    request = ENGINE.chance(state)
    return do(state, {"type": "RollAttack", "seat": None, **request.fixed, "dice": [attacker, defender]})


def place(
    state: PdcState,
    *,
    hand: Mapping[int, Iterable[str]] = (),
    base: Mapping[int, Iterable[str]] = (),
    unaffiliated: Iterable[str] = (),
    stacks: Mapping[str, Iterable[str]] = (),
) -> PdcState:
    """Move cards onto the table (added to what is there), from the deck's middle
    or from a hand; a hand that gives a card up gets one from the deck instead."""
    moved = [
        *(c for h in dict(hand).values() for c in h),
        *(c for b in dict(base).values() for c in b),
        *unaffiliated,
        *(c for s in dict(stacks).values() for c in s),
    ]
    middle = Counter(state.deck.middle)
    spares = [c for c in state.deck.middle if c not in moved and catalog().card(c).type != "event"]
    for c in moved:
        if middle[c]:
            middle[c] -= 1
            continue
        holder = next(s for s, p in enumerate(state.players) if c in p.hand)
        spare = spares.pop()
        middle[spare] -= 1
        hand_left = [x for x in state.players[holder].hand if x != c]
        state = state.with_player(holder, hand=tuple(sorted([*hand_left, spare])))
    state = state.with_(deck=replace(state.deck, middle=tuple(sorted(middle.elements()))))
    for s, cards in dict(hand).items():
        state = state.with_player(s, hand=tuple(sorted((*state.players[s].hand, *cards))))
    for s, cards in dict(base).items():
        state = state.with_player(s, base=(*state.players[s].base, *cards))
    state = state.with_(unaffiliated=(*state.unaffiliated, *unaffiliated))
    for g, cards in dict(stacks).items():
        state = state.with_stack(g, (*state.stack(g), *cards))
    return state
