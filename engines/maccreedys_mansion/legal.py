"""The commands a seat may send now.

Amounts are free (resources bought, funds invested, bids), so the list holds a
representative few: buying one resource (while storage is short of what the
company's workers need), investing half or all of the active funds, the
smallest raise and a jump to half the funds. ``decide`` judges any amount;
``amounts`` tells the scorepad the whole range of each, so that a table can
enter the number actually bought, invested or bid.
"""

from __future__ import annotations

from typing import Any

from engines.base import Amount
from engines.kit.chance_commands import table_chance_commands
from engines.kit.table import words
from engines.maccreedys_mansion.decide import BID_STEP, DIVIDEND_FLOOR, MOST_BOUGHT
from engines.maccreedys_mansion.flow import actor, chance_request
from engines.maccreedys_mansion.query import complete, dedications, dividend, in_play, placements, supply
from engines.maccreedys_mansion.state import (
    BIDDING,
    END_OF_DAY,
    HAUNT,
    HIRING,
    INVESTMENTS,
    OVER,
    PLACEMENT,
    REOPEN,
    SETTLE_UP,
    MmState,
)

STORAGE_SLACK = 2  # resources offered beyond what the company's workers need


def _hiring(state: MmState, seat: int) -> list[dict[str, Any]]:
    board = state.board
    company = state.companies[seat]
    out = [{"type": "HireWorker", "worker": w} for w in board.worker_types if supply(state, w) > 0]
    for index, resource in enumerate(board.resource_types):
        needs = sum(
            company.hired[i] for i, w in enumerate(board.worker_types) if board.worker[w].resource == resource
        )
        if company.storage[index] < needs + STORAGE_SLACK:
            out.append({"type": "BuyResources", "resource": resource, "count": 1})
    return [*out, {"type": "PassHiring"}]


def _haunts(state: MmState) -> list[dict[str, Any]]:
    board = state.board
    out: list[dict[str, Any]] = [
        {"type": "Haunt", "target": "worker", "worker": w} for w in board.worker_types
    ]
    for room in board.rooms:
        locations = [loc for loc in room.locations if in_play(state, loc)]
        if locations and not all(complete(state, loc) for loc in locations):
            out.append({"type": "Haunt", "target": "room", "room": room.id})
    for loc in board.locations:
        if in_play(state, loc.id) and complete(state, loc.id):
            out.append({"type": "Haunt", "target": "location", "location": loc.id})
    if state.round - 1 not in state.inspector_haunted and state.round not in state.no_inspection:
        out.append({"type": "Haunt", "target": "inspector"})
    return [*out, {"type": "PassHaunt"}]


def _investments(state: MmState, seat: int) -> list[dict[str, Any]]:
    company = state.companies[seat]
    out: list[dict[str, Any]] = []
    if dividend(company.invested) >= DIVIDEND_FLOOR:
        out.append({"type": "CollectDividends"})
    if company.invested > 0:
        out.append({"type": "LiquidateInvestment"})
    for amount in sorted({company.active // 2, company.active}):
        if amount >= 1:
            out.append({"type": "Invest", "amount": amount})
    return [*out, {"type": "PassInvestments"}]


def _bids(state: MmState, seat: int) -> list[dict[str, Any]]:
    active = state.companies[seat].active
    raises = {state.high_bid + BID_STEP, (active // 2) // BID_STEP * BID_STEP}
    out = [{"type": "PlaceBid", "amount": a} for a in sorted(raises) if state.high_bid < a <= active]
    return [*out, {"type": "PassBid"}]


def _seat_commands(state: MmState, seat: int) -> list[dict[str, Any]]:
    phase = state.phase
    if phase == HIRING:
        return _hiring(state, seat)
    if phase == PLACEMENT:
        return [{"type": "PlaceWorker", "worker": w, "space": s} for w, s in placements(state, seat)]
    if phase == END_OF_DAY:
        return [
            *({"type": "DedicateResource", "space": s} for s in dedications(state, seat)),
            {"type": "FinishDay"},
        ]
    if phase == HAUNT:
        return _haunts(state)
    if phase == INVESTMENTS:
        return _investments(state, seat)
    if phase == SETTLE_UP:
        company = state.companies[seat]
        items = sorted({d for d in company.debts if state.board.item_price(d) <= company.active})
        return [*({"type": "PayDebt", "item": i} for i in items), {"type": "FinishSettling"}]
    if phase == REOPEN:
        return [{"type": "Reopen"}, {"type": "StayClosed"}]
    if phase == BIDDING:
        return _bids(state, seat)
    return []


def legal_commands(state: MmState, seat: int | None) -> list[dict[str, Any]]:
    if state.phase == OVER:
        return []
    request = chance_request(state)
    if request is not None:
        return table_chance_commands(request) if seat is None else []
    if seat is None or seat != actor(state):
        return []
    return [{**command, "seat": seat} for command in _seat_commands(state, seat)]


def amounts(state: MmState, seat: int) -> list[Amount]:
    """Every number ``seat``'s commands may carry now: any count of each
    resource while hiring (up to ``MOST_BOUGHT``), any sum of its active funds invested, any bid
    in hundreds above the high bid up to its active funds."""
    types = {c["type"] for c in legal_commands(state, seat)}
    company = state.companies[seat] if 0 <= seat < len(state.companies) else None
    out: list[Amount] = []
    if "PassHiring" in types and company is not None and company.status.is_open:
        out += [
            Amount(
                {"type": "BuyResources", "resource": r},
                "count",
                1,
                f"Buy how many {words(r).lower()}?",
                MOST_BOUGHT,
            )
            for r in state.board.resource_types
        ]
    if "PassInvestments" in types and company is not None and company.active >= 1:
        out.append(Amount({"type": "Invest"}, "amount", 1, "Invest how many dollars?", company.active))
    if "PassBid" in types and company is not None:
        low, high = state.high_bid + BID_STEP, company.active // BID_STEP * BID_STEP
        if low <= high:
            out.append(
                Amount(
                    {"type": "PlaceBid"}, "amount", low, "Bid how many dollars, in hundreds?", high, BID_STEP
                )
            )
    return out
