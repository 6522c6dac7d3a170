"""``legal_commands``: the concrete commands a seat (or the dealer) may post now."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engines.chancellors.decide import actor
from engines.chancellors.flow import chance
from engines.chancellors.plays import solve_options
from engines.chancellors.state import CHOOSE, CONTROL, DISCARD, HAND_LIMIT, HELP, OVER, ChancellorsState
from engines.kit.chance_commands import table_chance_commands


def legal_commands(state: ChancellorsState, seat: int | None) -> list[dict[str, Any]]:
    """Concrete commands ``seat`` may post now.

    Solving lists, for each open problem, every *minimal* set of playable
    cards that reaches the threshold (sets with a card to spare are legal
    too but not listed), every single card that may solve part of it with
    each distinct die to set aside, and passing (with and without
    abdicating). For the dealer it lists a representative set of chance
    commands: every face for dice, and for draws one run of consecutive
    cards of the sorted pool starting at each of its cards.
    """
    if state.phase == OVER:
        return []
    request = chance(state)
    if request is not None:
        return table_chance_commands(request) if seat is None else []
    if seat is None:
        return []
    if state.phase == CHOOSE:
        if state.chosen[seat] is not None:
            return []
        return [{"type": "ChooseCard", "seat": seat, "card": c} for c in sorted(set(state.hands[seat]))]
    if state.phase in (CONTROL, HELP):
        if actor(state) != seat:
            return []
        in_control = state.phase == CONTROL
        commands = solve_options(state, seat, in_control)
        commands.append({"type": "Pass", "seat": seat, "abdicate": False})
        if in_control:
            commands.append({"type": "Pass", "seat": seat, "abdicate": True})
        return commands
    if state.phase == DISCARD:
        hand = sorted(state.hands[seat])
        excess = len(hand) - HAND_LIMIT
        if excess <= 0:
            return []
        return [{"type": "DiscardDown", "seat": seat, "cards": list(c)} for c in combinations(hand, excess)]
    return []
