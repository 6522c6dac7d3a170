"""Setting up a Chancellors table directly, and acting on it, for scenario tests.

Card ids are the Decktet names: ``merchant`` is the 9 of Leaves and Knots,
``windfall`` the Crown of Knots, ``cave`` the 7 of Waves and Wyrms, ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engines.base import Event, GameConfig, RuleViolation
from engines.chancellors import ENGINE
from engines.chancellors.state import CHOOSE, CONTROL, HELP, OPEN, ChancellorsState, Problem
from engines.chancellors.turns import flow, help_order

SERVICE_INDEX = {"diplomatic-corps": 0, "army": 1, "navy": 2}


def config(seats: int = 3, dealer: str = "server", **options: Any) -> GameConfig:
    return GameConfig(seats=seats, options=options, dealer=dealer)


def table(
    seats: int = 3,
    *,
    hands: Sequence[Sequence[str]] | None = None,
    problems: Sequence[tuple[int, int]] | None = None,
    services: dict[str, int] | None = None,
    scores: Sequence[int] | None = None,
    phase: str = CHOOSE,
    last_solver: int | None = None,
    excuse_holder: int | None = None,
    discards: Sequence[str] = (),
    pile: Sequence[str] | None = None,
    **options: Any,
) -> ChancellorsState:
    """A state in the middle of turn 1 at ``phase`` (choose, control or help).

    Cards not in a hand, the discards or the given pile stay in the draw pile.
    """
    state = ENGINE.initial_state(config(seats, **options))
    hands = tuple(tuple(h) for h in (hands or [()] * seats))
    problems = problems or [(3, 4)] * (seats + 1)
    held = [None, None, None]
    for name, seat in (services or {}).items():
        held[SERVICE_INDEX[name]] = seat
    used = {c for h in hands for c in h} | set(discards)
    if pile is None:
        pile = [c for c in state.pile if c not in used]
    state = state.with_(
        phase=phase,
        turn=1,
        hands=hands,
        problems=tuple(Problem(tuple(d), OPEN) for d in problems),
        services=tuple(held),
        scores=tuple(scores or (0,) * seats),
        pile=tuple(sorted(pile)),
        discards=tuple(discards),
        queue=(),
        last_solver=last_solver,
        excuse_holder=excuse_holder,
        # in steps (B) and (C), the holders given controlled their services since the reveal
        served=tuple(sorted({h for h in held if h is not None})) if phase in (CONTROL, HELP) else (),
    )
    if phase == HELP:
        state = state.with_(queue=help_order(state))
    return flow(state)


def act(state: ChancellorsState, command: dict[str, Any]) -> tuple[ChancellorsState, list[Event]]:
    events = ENGINE.decide(state, command)
    for event in events:
        state = ENGINE.evolve(state, event)
    return state, events


def acts(state: ChancellorsState, *commands: dict[str, Any]) -> tuple[ChancellorsState, list[Event]]:
    """Apply several commands; return the final state and every event."""
    every: list[Event] = []
    for command in commands:
        state, events = act(state, command)
        every.extend(events)
    return state, every


def refused(state: ChancellorsState, command: dict[str, Any]) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        ENGINE.decide(state, command)
    return err.value


def types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events]


def of_type(events: Sequence[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


# commands, as players post them
def choose(seat: int, card: str) -> dict[str, Any]:
    return {"type": "ChooseCard", "seat": seat, "card": card}


def solve(seat: int, problem: int, *cards: str, excuse: bool = False) -> dict[str, Any]:
    command = {"type": "SolveProblem", "seat": seat, "problem": problem, "cards": list(cards)}
    if excuse:
        command["excuse"] = True
    return command


def part(seat: int, problem: int, card: str, set_aside: int, excuse: bool = False) -> dict[str, Any]:
    command = {"type": "SolvePart", "seat": seat, "problem": problem, "card": card, "set_aside": set_aside}
    if excuse:
        command["excuse"] = True
    return command


def pass_(seat: int, abdicate: bool = False) -> dict[str, Any]:
    return {"type": "Pass", "seat": seat, "abdicate": abdicate}


def roll(state: ChancellorsState, *dice: int) -> dict[str, Any]:
    """The dealer's answer to the pending dice request, with these faces."""
    request = ENGINE.chance(state)
    assert request is not None and request.command == "RollDice", request
    return {"type": "RollDice", "seat": None, **request.fixed, "dice": list(dice)}


def draw(state: ChancellorsState, *cards: str) -> dict[str, Any]:
    request = ENGINE.chance(state)
    assert request is not None and request.command == "DrawCards", request
    return {"type": "DrawCards", "seat": None, **request.fixed, "cards": list(cards)}


def pending(state: ChancellorsState) -> dict[str, Any] | None:
    request = ENGINE.chance(state)
    if request is None:
        return None
    return {"command": request.command, "dice": request.dice, "draw": request.draw, **request.fixed}
