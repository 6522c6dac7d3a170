"""``legal_commands``: the concrete commands a seat (or the dealer) may post now.

Where the full set is combinatorial (any amounts of blame over several
departments, any reassignment of every player) a representative set is
listed; ``decide`` still judges any command.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from engines.final_decrees import effects
from engines.final_decrees.decide import setup_posts
from engines.final_decrees.departments import (
    ADMIRALTY,
    EXECUTIVE,
    HUMAN_RESOURCES,
    SECRET_SERVICE,
    TREASURY,
    arrow_allowed,
    below,
)
from engines.final_decrees.flow import chance
from engines.final_decrees.state import (
    ADMIRALTY_POWER,
    ASSIGN,
    BID,
    DRAW_ACTION,
    PLAY,
    TREASURY_POWER,
    FdState,
)
from engines.kit import offers


def legal_commands(state: FdState, seat: int | None) -> list[dict[str, Any]]:
    request = chance(state)
    if request is not None:
        return _chance_commands(request) if seat is None else []
    if seat is None:
        return []
    if state.phase == BID:
        if seat in state.bidders and state.bids[seat] is None:
            return [{"type": "PlaceBid", "seat": seat, "amount": n} for n in range(1, 7)]
        return []
    if state.phase == ASSIGN:
        return _assignments(state, seat)
    if state.phase != PLAY:
        return []
    if state.awaiting is not None:
        return _removals(state) if state.awaiting.seat == seat else []
    commands = _turn(state, seat) if state.active == seat else []
    return commands + _trades(state, seat)


def _chance_commands(request: Any) -> list[dict[str, Any]]:
    base = {"type": request.command, "seat": None, **request.fixed}
    pool = sorted(request.pool)
    if request.draw == 1:
        return [{**base, "cards": [card]} for card in sorted(set(pool))]
    runs = {tuple(pool[(start + k) % len(pool)] for k in range(request.draw)) for start in range(len(pool))}
    return [{**base, "cards": list(run)} for run in sorted(runs)]


def _assignments(state: FdState, seat: int) -> list[dict[str, Any]]:
    if state.head(HUMAN_RESOURCES) != seat:
        return []
    others = [s for s in range(state.seats) if s != seat]
    commands = []
    for chosen in permutations(setup_posts(state), len(others)):
        if EXECUTIVE not in chosen:
            continue
        posts = list(state.posts)
        for s, post in zip(others, chosen, strict=True):
            posts[s] = post
        commands.append({"type": "AssignDepartments", "seat": seat, "posts": posts})
    return commands


def _removals(state: FdState) -> list[dict[str, Any]]:
    """Removing nothing, and the allowance taken greedily from the chooser first or the departments first."""
    seat, allowance = state.awaiting.seat, state.awaiting.amount
    base = {"type": "RemoveBlame", "seat": seat}
    commands = [{**base, "players": [], "departments": {}}]
    sources = [("player", seat)] + [("department", d) for d in state.departments]
    for order in (sources, sources[1:] + sources[:1]):
        left = allowance
        players = [0] * state.seats
        departments: dict[str, int] = {}
        for kind, source in order:
            if kind == "player":
                players[source] = min(left, state.personal[source])
                left -= players[source]
            else:
                take = min(left, state.blame_of(source))
                if take:
                    departments[source] = take
                    left -= take
        if left < allowance:
            commands.append({**base, "players": players, "departments": departments})
    return commands


def _turn(state: FdState, seat: int) -> list[dict[str, Any]]:
    base = {"seat": seat}
    commands: list[dict[str, Any]] = [{"type": "EndTurn", **base}]
    if state.actions_left <= 0:
        return commands
    post = state.posts[seat]
    if DRAW_ACTION not in state.used:
        commands.append({"type": "TakeDrawAction", **base})
    commands += _cards(state, seat)
    commands += _spreads(state, post, seat)
    for decree in state.decrees_at(post):
        for to in state.departments:
            if to != post:
                commands.append({"type": "ForwardDecree", **base, "decree": decree.id, "to": to})
        if decree.next_step == post:
            commands.append({"type": "StampDecree", **base, "decree": decree.id})
    commands += [{"type": "MovePlayer", **base, "player": p} for p in range(state.seats)]
    if post == TREASURY and TREASURY_POWER not in state.used:
        commands.append({"type": "GainActions", **base})
    if post == SECRET_SERVICE:
        for dept in state.departments:
            if dept != post and state.head(dept) is not None:
                commands.append({"type": "Investigate", **base, "department": dept})
    if post == ADMIRALTY and ADMIRALTY_POWER not in state.used:
        commands.append({"type": "GoOnManeuvers", **base})
    if post == HUMAN_RESOURCES:
        commands += _reassignments(state, seat)
    if post == EXECUTIVE:
        commands += _restructures(state, seat)
    return commands


def _cards(state: FdState, seat: int) -> list[dict[str, Any]]:
    commands = []
    post = state.posts[seat]
    for card_id in sorted(set(state.hands[seat])):
        effect = state.catalog.card(card_id).effect
        players: list[int | None] = [None]
        departments: list[str | None] = [None]
        if effects.needs_player(effect):
            players = [s for s in range(state.seats) if s != seat]
        if effects.needs_department(effect):
            departments = list(state.departments)
            if any(op["op"] == "investigate" for op in effect):
                departments = [d for d in departments if d != post and state.head(d) is not None]
        for p in players:
            for d in departments:
                command = {"type": "PlayCard", "seat": seat, "card": card_id}
                if p is not None:
                    command["target_seat"] = p
                if d is not None:
                    command["target_department"] = d
                commands.append(command)
    return commands


def _spreads(state: FdState, post: str, seat: int) -> list[dict[str, Any]]:
    under = below(state.arrows, post)
    commands = []
    for source in (post, *under):
        amount = state.blame_of(source)
        for target in under:
            if target == source or not amount:
                continue
            for n in sorted({1, amount}):
                move = {"from": source, "to": target, "amount": n}
                commands.append({"type": "SpreadBlame", "seat": seat, "moves": [move]})
    return commands


def _reassignments(state: FdState, seat: int) -> list[dict[str, Any]]:
    commands = []
    for a in range(state.seats):
        for b in range(a + 1, state.seats):
            posts = list(state.posts)
            posts[a], posts[b] = posts[b], posts[a]
            commands.append({"type": "ReassignPlayers", "seat": seat, "posts": posts})
    empty = state.empty_department
    for p in range(state.seats):
        posts = list(state.posts)
        posts[p] = empty
        commands.append({"type": "ReassignPlayers", "seat": seat, "posts": posts})
    return commands


def _restructures(state: FdState, seat: int) -> list[dict[str, Any]]:
    base = {"type": "Restructure", "seat": seat}
    commands = []
    for arrow in state.arrows:
        rest = tuple(a for a in state.arrows if a != arrow)
        commands.append({**base, "change": "remove", "arrow": list(arrow)})
        if arrow_allowed(rest, (arrow[1], arrow[0])) is None:
            commands.append({**base, "change": "reverse", "arrow": list(arrow)})
        for dept in state.departments:
            new = (arrow[0], dept)
            if dept != arrow[1] and arrow_allowed(rest, new) is None:
                commands.append({**base, "change": "move", "arrow": list(arrow), "to": list(new)})
    for a in state.departments:
        for b in state.departments:
            if arrow_allowed(state.arrows, (a, b)) is None:
                commands.append({**base, "change": "add", "arrow": [a, b]})
    return commands


def _trades(state: FdState, seat: int) -> list[dict[str, Any]]:
    commands: list[dict[str, Any]] = []
    base = {"seat": seat}
    hand = sorted(state.hands[seat])
    for offer in state.offers.open:
        if offer.to == seat:
            commands.append({"type": "DeclineTrade", **base, "offer": offer.id})
            t = offer.terms
            take = hand[: t.ask_cards]
            giver = offer.seat
            if (
                len(take) == t.ask_cards
                and offers.can_give(state.personal[seat], hand, t.ask_amount, take)
                and offers.can_give(state.personal[giver], state.hands[giver], t.give_amount, t.give_cards)
            ):
                commands.append({"type": "AcceptTrade", **base, "offer": offer.id, "cards": take})
        if offer.seat == seat:
            commands.append({"type": "WithdrawTrade", **base, "offer": offer.id})
    for to in range(state.seats):
        if to == seat or any(o.seat == seat and o.to == to for o in state.offers.open):
            continue
        if state.personal[seat]:
            commands.append({"type": "OfferTrade", **base, "to": to, "give_amount": 1, "ask_cards": 1})
        if hand:
            commands.append(
                {"type": "OfferTrade", **base, "to": to, "give_cards": [hand[0]], "ask_amount": 1}
            )
    return commands
