"""The commands a seat may send now.

Attack teams and raises are subsets of a hand times stack placements, so the
list is representative: every target with each intent, one team of the
strongest group, one of every group (with an asset on it when the hand has
one), single-card raises and antes. ``decide`` still judges any command.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from engines.base import ChanceRequest
from engines.kit import windows
from engines.political_divide_and_conquer.catalog import ASSET, DEFICIT, EVENT, GROUP
from engines.political_divide_and_conquer.decide import (
    DESTROY,
    TAKE_OVER,
    can_attack_from_base,
    event_playable,
    on_table,
    owner,
    turn_choices,
)
from engines.political_divide_and_conquer.flow import chance
from engines.political_divide_and_conquer.scoring import influence, is_closed
from engines.political_divide_and_conquer.state import ANTE, CHOOSING, KEEPING, OVER, RAISE, TURNS, PdcState


def chance_commands(request: ChanceRequest) -> list[dict[str, Any]]:
    """Representative answers to a chance request, for a table's recorder."""
    base = {"type": request.command, "seat": None, **request.fixed}
    if request.dice:
        if request.dice <= 2:
            faces = [list(f) for f in product(range(1, 7), repeat=request.dice)]
        else:
            faces = [[(k + i) % 6 + 1 for i in range(request.dice)] for k in range(6)]
            faces += [[k] * request.dice for k in range(1, 7)]
        return [{**base, "dice": f} for f in faces]
    pool = sorted(set(request.pool))
    runs = {tuple(pool[(start + k) % len(pool)] for k in range(request.draw)) for start in range(len(pool))}
    return [{**base, "cards": list(run)} for run in sorted(runs)]


def _of(state: PdcState, cards: Any, kind: str) -> list[str]:
    return sorted({c for c in cards if state.card(c).type == kind})


def _events(state: PdcState, seat: int) -> list[dict[str, Any]]:
    out = []
    for card in _of(state, state.players[seat].hand, EVENT):
        if not event_playable(state, card):
            continue
        if state.card(card).affects == "opponent":
            out += [
                {"type": "PlayEvent", "seat": seat, "card": card, "target": t}
                for t in range(state.seats)
                if t != seat
            ]
        else:
            out.append({"type": "PlayEvent", "seat": seat, "card": card, "target": None})
    return out


def _attacks(state: PdcState, seat: int) -> list[dict[str, Any]]:
    hand = state.players[seat].hand
    groups = sorted(_of(state, hand, GROUP), key=lambda g: (-influence(state, g), g))
    theorists = [g for g in state.players[seat].base if can_attack_from_base(state, g)]
    assets = _of(state, hand, ASSET)
    out = []
    for target in on_table(state):
        intents = [DESTROY] if owner(state, target) == seat else [TAKE_OVER, DESTROY]
        pool = [g for g in (*groups, *theorists) if g != target]
        if not pool:
            continue
        teams = [[pool[0]]]
        if len(pool) > 1:
            teams.append(pool)
        for intent, team in product(intents, teams):
            command = {
                "type": "DeclareAttack",
                "seat": seat,
                "target": target,
                "intent": intent,
                "team": team,
            }
            out.append({**command, "stacks": []})
            if assets and team[0] in groups and not is_closed(state, team[0]):
                out.append({**command, "stacks": [{"card": assets[0], "group": team[0]}]})
    return out


def _choices(state: PdcState, seat: int) -> list[dict[str, Any]]:
    hand = state.players[seat].hand
    out: list[dict[str, Any]] = []
    for g in _of(state, hand, GROUP):
        out.append({"type": "RejectGroup", "seat": seat, "card": g})
        out.append({"type": "AddToBase", "seat": seat, "card": g})
    open_groups = [g for g in on_table(state) if not is_closed(state, g)]
    for card in sorted({*_of(state, hand, ASSET), *_of(state, hand, DEFICIT)}):
        out += [{"type": "StackCard", "seat": seat, "card": card, "group": g} for g in open_groups]
    out += _attacks(state, seat)
    if not turn_choices(state, seat):
        out.append({"type": "EndTurn", "seat": seat})
    return out


def _fight(state: PdcState, seat: int, kind: str) -> list[dict[str, Any]]:
    """Single-card raises (or antes): each group from the hand, a deficit on the other side, an asset on one's own."""
    a = state.attack
    hand = state.players[seat].hand
    out = [{"type": kind, "seat": seat, "groups": [g], "stacks": []} for g in _of(state, hand, GROUP)]
    theirs, ours = ((*a.team, *a.from_base), (a.target, *a.defence))
    if kind == "UpTheAnte":
        theirs, ours = ours, theirs
    for cards, groups in ((_of(state, hand, DEFICIT), theirs), (_of(state, hand, ASSET), ours)):
        open_groups = [g for g in groups if not is_closed(state, g)]
        if cards and open_groups:
            out.append(
                {
                    "type": kind,
                    "seat": seat,
                    "groups": [],
                    "stacks": [{"card": cards[0], "group": open_groups[0]}],
                }
            )
    return out


def legal_commands(state: PdcState, seat: int | None) -> list[dict[str, Any]]:
    if state.stage == OVER:
        return []
    request = chance(state)
    if request is not None:
        return chance_commands(request) if seat is None else []
    if seat is None or state.stage != TURNS:
        return []
    out = _events(state, seat) + windows.pass_commands(state.window, seat)
    a = state.attack
    if a is not None:
        if a.step == RAISE and seat == a.defender:
            out += [{"type": "CallAttack", "seat": seat}, *_fight(state, seat, "RaiseDefence")]
        elif a.step == ANTE and seat == a.attacker:
            out += [{"type": "Stand", "seat": seat}, *_fight(state, seat, "UpTheAnte")]
        return out
    if seat == state.turn:
        if state.step == KEEPING:
            out += [
                {"type": "KeepCard", "seat": seat, "card": card, "return_to": to}
                for card, to in product(sorted(state.drawn), ("top", "bottom"))
            ]
            if state.hand_was_empty:
                out.append({"type": "KeepBoth", "seat": seat})
        elif state.step == CHOOSING:
            out += _choices(state, seat)
    return out
