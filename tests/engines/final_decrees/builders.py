"""Setting up a Final Decrees table directly, and acting on it, for scenario tests.

Seats are named A, B, C, D(, E) in the tests; ``posts`` lists the department
each seat heads. Card ids come from the default catalog (``overtime-1``,
``scapegoat-2``, ...); the decline card is ``stagnation-and-decline``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engines.base import Event, GameConfig, RuleViolation
from engines.final_decrees import ENGINE
from engines.final_decrees.schemas import OPTIONS
from engines.final_decrees.state import PLAY, FdState
from engines.kit.deck import Deck, Run, deck_of
from service.records.club.catalogs import default_catalog

CATALOG = default_catalog("final-decrees")
DECLINE = "stagnation-and-decline"
POSTS5 = ("executive", "human-resources", "treasury", "secret-service", "admiralty")
POSTS4 = ("executive", "human-resources", "treasury", "admiralty")


def config(seats: int = 5, dealer: str = "server", catalog: dict | None = None, **options: Any) -> GameConfig:
    return GameConfig(seats=seats, options=OPTIONS().load(options), dealer=dealer, catalog=catalog or CATALOG)


def started(seats: int = 5, dealer: str = "server") -> FdState:
    state = ENGINE.initial_state(config(seats, dealer))
    for event in ENGINE.setup(config(seats, dealer)):
        state = ENGINE.evolve(state, event)
    return state


def _deck(cards: Sequence[str], window: tuple[int, int] | None) -> Deck:
    if window is None:
        return deck_of(cards)
    first, last = window
    runs = [Run(first - 1), Run(last - first + 1, holds=(DECLINE,)), Run(len(cards) + 1 - last)]
    return deck_of([*cards, DECLINE]).split(runs)


def table(
    seats: int = 5,
    *,
    dealer: str = "table",
    posts: Sequence[str] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    personal: Sequence[int] | None = None,
    blame: dict[str, int] | None = None,
    arrows: Sequence[tuple[str, str]] | None = None,
    active: int = 0,
    actions: int = 3,
    decrees: dict[str, tuple[str, int]] | None = None,
    deck: Sequence[str] | None = None,
    window: tuple[int, int] | None = None,
    enacted: int = 0,
) -> FdState:
    """A state in the action step of seat ``active``'s turn 1.

    ``decrees`` maps a decree id to (department, steps stamped). Cards not in a
    hand stay in the deck (unless ``deck`` names it), the decline card outside
    it unless ``window`` is given: positions ``(first, last)`` from the top, the
    run of the stacked deck known to hold it.
    """
    state = started(seats, dealer)
    hands = tuple(tuple(sorted(h)) for h in (hands or [()] * seats))
    in_hands = [c for h in hands for c in h]
    if deck is None:
        deck = [c for c in state.catalog.deck_cards if c not in in_hands]
    departments = state.departments
    dept_blame = tuple((blame or {}).get(d, 0) for d in departments)
    moved = []
    for d in state.decrees:
        at, stamped = (decrees or {}).get(d.id, ("executive", 0))
        moved.append(d.__class__(d.id, d.steps, stamped, at))
    return state.with_(
        phase=PLAY,
        bidders=(),
        posts=tuple(posts or (POSTS5 if seats == 5 else POSTS4)),
        hands=hands,
        personal=tuple(personal or (10,) * seats),
        dept_blame=dept_blame,
        arrows=tuple(arrows) if arrows is not None else state.arrows,
        decrees=tuple(moved),
        deck=_deck(deck, window),
        turn=1,
        active=active,
        actions_left=actions,
        enacted=enacted,
    )


def act(state: FdState, command: dict[str, Any]) -> tuple[FdState, list[Event]]:
    events = ENGINE.decide(state, command)
    for event in events:
        state = ENGINE.evolve(state, event)
    return state, events


def acts(state: FdState, *commands: dict[str, Any]) -> tuple[FdState, list[Event]]:
    events: list[Event] = []
    for command in commands:
        state, new = act(state, command)
        events.extend(new)
    return state, events


def refused(state: FdState, command: dict[str, Any], code: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        ENGINE.decide(state, command)
    assert info.value.code == code, info.value
    return info.value


def types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events]


def cmd(kind: str, seat: int | None, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **fields}


def draw(state: FdState, card: str) -> tuple[FdState, list[Event]]:
    request = ENGINE.chance(state)
    assert request is not None and request.command == "DrawCard", request
    return act(state, cmd("DrawCard", None, player=request.fixed["player"], cards=[card]))
