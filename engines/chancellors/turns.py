"""Moving through the steps of a turn when nobody needs to act.

``flow`` runs after every event: it skips services nobody holds, sets the
order of step (C), and moves past steps with nothing to do, so that the state
always names who (or what chance) the game waits for.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.chancellors.cards import SERVICES
from engines.chancellors.state import (
    CONTROL,
    DISCARD,
    DRAW,
    DRAW_SIZE,
    ESCALATE,
    HAND_LIMIT,
    HELP,
    NEXT_TURN,
    OPENING,
    PART,
    RENEW,
    SOLVED,
    UNFOLD,
    ChancellorsState,
)


def help_order(state: ChancellorsState) -> tuple[int, ...]:
    """(C) Seats without services, clockwise from the left of the last solver.

    Seats are numbered clockwise, so the player on seat ``s``'s left is
    ``s + 1``. The last solver is whoever most recently solved a problem,
    wholly or in part, this turn or an earlier one; before anyone has solved
    anything, step (C) starts at seat 0.
    """
    start = 0 if state.last_solver is None else (state.last_solver + 1) % state.seats
    order = ((start + k) % state.seats for k in range(state.seats))
    return tuple(seat for seat in order if not state.holds_service(seat))


def _settle_draws(state: ChancellorsState) -> ChancellorsState:
    """Move past players who have drawn all they are owed, or who cannot draw at all."""
    while state.queue and (state.owed == 0 or not (state.pile or state.discards)):
        state = state.with_(queue=state.queue[1:], owed=DRAW_SIZE)
    return state


def flow(state: ChancellorsState) -> ChancellorsState:
    while True:
        before = state
        state = _step(state)
        if state == before:
            return state


def _step(state: ChancellorsState) -> ChancellorsState:
    phase = state.phase
    if phase == OPENING:
        if all(p.dice for p in state.problems):
            state = _settle_draws(state)
            if not state.queue:
                return state.with_(phase=NEXT_TURN)
        return state
    if phase == CONTROL:
        acting = state.acting
        while acting < len(SERVICES) and state.services[acting] is None:
            acting += 1
        if acting == len(SERVICES):
            return state.with_(phase=HELP, acting=acting, queue=help_order(state))
        return state.with_(acting=acting)
    if phase == HELP:
        return state if state.queue else state.with_(phase=UNFOLD)
    if phase == UNFOLD:
        return state if any(p.status == PART for p in state.problems) else state.with_(phase=ESCALATE)
    if phase == RENEW:
        if any(p.status == SOLVED for p in state.problems):
            return state
        return state.with_(phase=DRAW, queue=tuple(range(state.seats)), owed=DRAW_SIZE)
    if phase == DRAW:
        state = _settle_draws(state)
        return state if state.queue else state.with_(phase=DISCARD)
    if phase == DISCARD:
        return state if any(len(h) > HAND_LIMIT for h in state.hands) else state.with_(phase=NEXT_TURN)
    return state


def places(scores: Sequence[int], lowest_wins: bool) -> tuple[int, ...]:
    """Competition ranking: equal scores share a place (1, 1, 3)."""
    better = (lambda a, b: a < b) if lowest_wins else (lambda a, b: a > b)
    return tuple(1 + sum(1 for other in scores if better(other, mine)) for mine in scores)
