"""The commands a seat may send now.

Bids, payments, draws and cabinet reshuffles have too many variants to list,
so for those this returns a *representative* set: every kind of action that
is possible appears, with concrete cards; ``decide`` is the judge of any
other variant. Representative sets:

- a bid: the cheapest hand subset that reaches the bid needed, and the
  cheapest one reaching three more (a jump bid);
- buying tactics: for one and for two tactics, the cheapest payment, and the
  cheapest one that includes a corruption card (which opens a Hawks window);
- a Cabinet reshuffle: swapping President and Vice-President, and removing
  each removable crony in turn;
- the dealer's draws: up to eight spread-out selections of the pool.
"""

from __future__ import annotations

from typing import Any

from engines.house_of_cronies.catalog import (
    CRONY_POSITIONS,
    DIPLOMATIC_INCIDENT,
    FLOOR_CROSSING,
    FOREIGN_ALLY,
    POSITIONS,
    PRESIDENT,
    RESHUFFLE,
    SHEBEEN,
    VICE_PRESIDENT,
)
from engines.house_of_cronies.decide import can_take_a_card, superfluous_card
from engines.house_of_cronies.flow import draw_request
from engines.house_of_cronies.query import (
    TACTIC_COST,
    active_placer,
    allowed_positions,
    cronies_of,
    is_protected,
    minimal_payment,
    open_positions,
    tactic_card,
    tactic_supply,
)
from engines.house_of_cronies.state import MOTION, OVER, TURNS, HocState
from engines.house_of_cronies.tactics import (
    answer_card,
    hawks_targets,
    point_of_order_seats,
    window_seats,
)
from engines.kit.chance_commands import table_chance_commands

Command = dict[str, Any]


def _bids(state: HocState, seat: int, card: str, highest: int) -> list[Command]:
    need = max(state.card(card).min_bid, highest + 1)
    commands = []
    for target in (need, need + 3):
        cards = minimal_payment(state, state.players[seat].hand, target)
        if cards and not any(c["cards"] == list(cards) for c in commands):
            commands.append({"type": "PlaceBid", "seat": seat, "card": card, "cards": list(cards)})
    return commands


def _buys(state: HocState, seat: int) -> list[Command]:
    commands: list[Command] = []
    hand = state.players[seat].hand
    for count in (1, 2):
        if tactic_supply(state) < count:
            break
        price = TACTIC_COST * count
        for dirty in (False, True):
            cards = minimal_payment(state, hand, price, need_corruption=dirty)
            if not cards or superfluous_card(state, list(cards), price):
                continue
            command = {"type": "BuyTactics", "seat": seat, "count": count, "cards": list(cards)}
            if command not in commands:
                commands.append(command)
    return commands


def _reshuffles(state: HocState, seat: int, card: str) -> list[Command]:
    cabinet = state.players[seat].cabinet
    current = {p: cabinet[POSITIONS.index(p)] for p in CRONY_POSITIONS}
    if not any(current.values()):
        return []
    arrangements = []
    president, vice = current[PRESIDENT], current[VICE_PRESIDENT]
    if president or vice:
        swapped = {**current, PRESIDENT: vice, VICE_PRESIDENT: president}
        arrangements.append(swapped)
    for position, crony in current.items():
        if crony and not is_protected(state, crony):
            arrangements.append({**current, position: None})
    ok = []
    for arrangement in arrangements:
        if all(c is None or p in allowed_positions(state, c) for p, c in arrangement.items()):
            ok.append({"type": "PlayTactic", "seat": seat, "card": card, "cabinet": arrangement})
    return ok


def _turn_tactics(state: HocState, seat: int) -> list[Command]:
    commands: list[Command] = []
    card = tactic_card(state, seat, RESHUFFLE)
    if card:
        commands += _reshuffles(state, seat, card)
    card = tactic_card(state, seat, FLOOR_CROSSING)
    if card:
        mine = state.players[seat].cabinet
        for target in range(state.seats):
            if target == seat:
                continue
            theirs = state.players[target].cabinet
            for position in CRONY_POSITIONS:
                i = POSITIONS.index(position)
                a, b = mine[i], theirs[i]
                if a and b and not is_protected(state, a) and not is_protected(state, b):
                    commands.append(
                        {
                            "type": "PlayTactic",
                            "seat": seat,
                            "card": card,
                            "target": target,
                            "position": position,
                        }
                    )
    card = tactic_card(state, seat, DIPLOMATIC_INCIDENT)
    if card:
        for target in range(state.seats):
            if state.players[target].at(FOREIGN_ALLY):
                commands.append({"type": "PlayTactic", "seat": seat, "card": card, "target": target})
    card = tactic_card(state, seat, SHEBEEN)
    if card:
        for target in range(state.seats):
            for crony in cronies_of(state, target):
                if not is_protected(state, crony):
                    commands.append({"type": "PlayTactic", "seat": seat, "card": card, "crony": crony})
    return commands


def legal_commands(state: HocState, seat: int | None) -> list[Command]:
    if state.stage in (OVER, "new"):
        return []
    if state.pending_draws:
        request = draw_request(state)
        return table_chance_commands(request, spread=8) if seat is None and request is not None else []
    if seat is None:
        return []
    if state.chain:
        # Every other player is asked, whatever their hand; only a holder may also answer.
        if seat not in point_of_order_seats(state):
            return []
        card = answer_card(state, seat)
        answers: list[Command] = [{"type": "PlayTactic", "seat": seat, "card": card}] if card else []
        return [*answers, {"type": "PassReaction", "seat": seat}]
    placer = active_placer(state)
    if placer is not None:
        if seat != placer:
            return []
        return [
            {"type": "PlaceCrony", "seat": seat, "card": card, "position": position}
            for card in state.players[seat].to_place
            for position in open_positions(state, seat, card)
        ]
    window = state.window
    if window is not None:
        # Every player is asked, whatever their hand; only a holder may also answer.
        if seat not in window_seats(state):
            return []
        commands: list[Command] = []
        card = answer_card(state, seat)
        if card and window.kind == MOTION:
            for target in range(state.seats):
                if target != seat:
                    commands.append({"type": "PlayTactic", "seat": seat, "card": card, "target": target})
        elif card:
            for crony in hawks_targets(state):
                commands.append({"type": "PlayTactic", "seat": seat, "card": card, "crony": crony})
        return [*commands, {"type": "PassReaction", "seat": seat}]
    auction = state.auction
    if auction is not None:
        if seat != auction.asking:
            return []
        return [*_bids(state, seat, auction.card, auction.value), {"type": "PassBid", "seat": seat}]
    if state.stage != TURNS or state.turn != seat:
        return []
    commands = []
    if not state.final and seat not in state.gained:
        for card in sorted(set(state.table)):
            definition = state.card(card)
            if definition.is_money:
                commands.append({"type": "PickUpCard", "seat": seat, "card": card})
            elif seat not in state.censured:
                commands += _bids(state, seat, card, 0)
    if seat not in state.censured:
        commands += _buys(state, seat)
    commands += _turn_tactics(state, seat)
    if not can_take_a_card(state, seat):
        commands.append({"type": "EndTurn", "seat": seat})
    return commands
