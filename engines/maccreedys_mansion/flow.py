"""The round as a phase machine: twelve phases in the rulebook's order.

Each phase names what the game does by itself in it (``step``), who it waits
for (``actor``) and when it is over (``done``). ``automatic`` is what the kit's
settle loop asks after every event: the phases that need nobody's input
(Earnings, Bankruptcy, most of Inspection) run and end by themselves.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.base import ChanceRequest, Event
from engines.kit.rounds import Phase, PhaseMachine, round_limit_reached
from engines.kit.seats import CLOSED, last_standing, places
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.effects import resolve_card
from engines.maccreedys_mansion.query import (
    complete,
    contributions,
    dedications,
    money,
    next_from,
    placements,
    restored,
    round_order,
)
from engines.maccreedys_mansion.state import (
    BANKRUPTCY,
    BIDDING,
    EARNINGS,
    END_OF_DAY,
    EVENT,
    HAUNT,
    HIRING,
    INSPECTION,
    INVESTMENTS,
    OVER,
    PHASES,
    PLACEMENT,
    REOPEN,
    SETTLE_UP,
    SETUP,
    MmState,
)
from engines.maccreedys_mansion.words import card_name

# --- who each phase waits for --------------------------------------------------


def hiring_seats(state: MmState) -> list[int]:
    """Closed companies neither hire nor place."""
    return round_order(state, lambda s: state.companies[s].status.is_open)


def hiring_over(state: MmState) -> bool:
    return state.passes >= len(hiring_seats(state))


def placer(state: MmState) -> int | None:
    start = state.turn if state.turn is not None else state.first
    for seat in [(start + k) % state.seats for k in range(state.seats)]:
        if placements(state, seat):
            return seat
    return None


def dedicator(state: MmState) -> int | None:
    if not state.day_ended:
        return None
    order = round_order(state, lambda s: s not in state.done and bool(dedications(state, s)))
    return order[0] if order else None


def haunter(state: MmState) -> int | None:
    if state.revealed is None or state.resolving:
        return None
    order = round_order(state, lambda s: s not in state.done and state.companies[s].status.is_closed)
    return order[0] if order else None


def investment_options(state: MmState, seat: int) -> bool:
    c = state.companies[seat]
    return c.status.is_open and (c.invested > 0 or c.active >= 1)


def investor(state: MmState) -> int | None:
    if any(c.status.is_closed and c.invested > 0 for c in state.companies):
        return None
    order = round_order(state, lambda s: s not in state.done and investment_options(state, s))
    return order[0] if order else None


def can_settle(state: MmState, seat: int) -> bool:
    c = state.companies[seat]
    return c.status.in_game and any(c.active >= state.board.item_price(item) for item in c.debts)


def settler(state: MmState) -> int | None:
    order = round_order(state, lambda s: s not in state.done and can_settle(state, s))
    return order[0] if order else None


def may_reopen(state: MmState, seat: int) -> bool:
    c = state.companies[seat]
    return c.status.status == CLOSED and c.active >= 1


def reopener(state: MmState) -> int | None:
    order = round_order(state, lambda s: s not in state.done and may_reopen(state, s))
    return order[0] if order else None


def bidders(state: MmState) -> list[int]:
    return round_order(state, lambda s: state.companies[s].status.in_game)


def bidding_over(state: MmState) -> bool:
    needed = len(bidders(state)) - (1 if state.high_bidder is not None else 0)
    return state.passes >= needed


def next_bidder(state: MmState, seat: int) -> int | None:
    """The next company to bid or pass; the high bidder is not asked to outbid itself."""
    return next_from(state, seat, lambda s: state.companies[s].status.in_game and s != state.high_bidder)


ACTORS: dict[str, Callable[[MmState], int | None]] = {
    HIRING: lambda s: None if hiring_over(s) else s.turn,
    PLACEMENT: placer,
    END_OF_DAY: dedicator,
    HAUNT: haunter,
    INVESTMENTS: investor,
    SETTLE_UP: settler,
    REOPEN: reopener,
    BIDDING: lambda s: None if bidding_over(s) else s.turn,
}


def actor(state: MmState) -> int | None:
    """The seat whose choice the game waits for, if any."""
    return ACTORS.get(state.phase, lambda s: None)(state)


def needs_job(state: MmState) -> bool:
    """The job track waits for a draw (at setup and after Inspection)."""
    refilling = state.phase == SETUP or (state.phase == INSPECTION and state.inspected)
    return refilling and len(state.track) < state.board.job_track and bool(state.job_deck)


def chance_request(state: MmState) -> ChanceRequest | None:
    """One card at a time: a job for the track, or this phase's Event or Haunt card."""
    if needs_job(state):
        return ChanceRequest(command="DrawCard", draw=1, pool=state.job_deck, fixed={"deck": "job"})
    if state.phase in (EVENT, HAUNT) and state.revealed is None:
        pool = state.event_deck if state.phase == EVENT else state.haunt_deck
        if pool:
            return ChanceRequest(command="DrawCard", draw=1, pool=pool, fixed={"deck": state.phase})
    return None


# --- the phases' own steps ------------------------------------------------------


def _day_ended(state: MmState) -> list[Event]:
    """Each returning worker uses one resource of its type to keep its marker,
    earliest placed first; without one, its marker comes off."""
    board = state.board
    kept, lost = [], []
    used: dict[tuple[int, str], int] = {}
    for space, seat, worker in state.today:
        resource = board.worker[worker].resource
        have = state.companies[seat].storage[board.resource_types.index(resource)]
        if used.get((seat, resource), 0) < have:
            used[(seat, resource)] = used.get((seat, resource), 0) + 1
            kept.append([space, seat])
        else:
            lost.append([space, seat])
    rows = [[seat, resource, n] for (seat, resource), n in sorted(used.items())]
    return [Event(ev.DAY_ENDED, {"kept": kept, "lost": lost, "used": rows})]


def _card_phase(deck: str) -> Callable[[MmState], list[Event]]:
    def step(state: MmState) -> list[Event]:
        if state.revealed is None:
            if not getattr(state, f"{deck}_deck"):
                cards = list(getattr(state, f"{deck}_discard"))
                return [Event(ev.DECK_RESHUFFLED, {"deck": deck, "cards": cards})]
            return []
        return resolve_card(state, state.revealed) if state.resolving else []

    return step


def split(reward: int, shares: dict[int, int], order: list[int]) -> list[list[int]]:
    """``reward`` split as evenly as possible in whole dollars among the seats in
    ``shares``; the odd dollars go to the largest contributors, then in turn order."""
    seats = sorted(shares, key=lambda s: (-shares[s], order.index(s)))
    base, odd = divmod(reward, len(seats))
    return [[seat, base + (1 if k < odd else 0)] for k, seat in enumerate(seats)]


def inspect(state: MmState) -> list[dict]:
    """Each open job whose location is complete (and its name, for the log): its
    owner (the largest contributor, or nobody on a tie) and the pay of every contributor."""
    order = round_order(state, lambda s: True)
    results = []
    for job in state.track:
        location = state.board.job[job].location
        if not complete(state, location):
            continue
        shares = contributions(state, location)
        top = max(shares.values())
        leaders = [s for s, n in shares.items() if n == top]
        owner = leaders[0] if len(leaders) == 1 else None
        pay = split(state.board.job[job].reward, shares, order)
        results.append({"job": job, "name": card_name(state.board, job), "owner": owner, "pay": pay})
    return results


def _inspection(state: MmState) -> list[Event]:
    if state.inspected:
        return []
    if state.round in state.no_inspection:
        return [Event(ev.INSPECTION_SKIPPED, {"round": state.round})]
    return [Event(ev.JOBS_INSPECTED, {"round": state.round, "results": inspect(state)})]


def payment(state: MmState, seat: int) -> dict:
    """Job pay, then wages (cheapest worker first), then the resources dedicated
    this round: each item is paid in full or becomes a debt marker."""
    board = state.board
    c = state.companies[seat]
    funds = c.active + c.due
    wages = vendors = 0
    wage_debts, vendor_debts = [], []
    for index, worker in enumerate(board.worker_types):
        for _ in range(c.hired[index]):
            if funds >= board.worker[worker].wage:
                funds -= board.worker[worker].wage
                wages += board.worker[worker].wage
            else:
                wage_debts.append(worker)
    for index, resource in enumerate(board.resource_types):
        for _ in range(c.dedicated[index]):
            if funds >= board.price[resource]:
                funds -= board.price[resource]
                vendors += board.price[resource]
            else:
                vendor_debts.append(resource)
    return {
        "seat": seat,
        "jobs": c.due,
        "wages": wages,
        "wage_debts": wage_debts,
        "vendors": vendors,
        "vendor_debts": vendor_debts,
    }


def _owes(state: MmState, seat: int) -> bool:
    c = state.companies[seat]
    return bool(c.due or any(c.hired) or any(c.dedicated))


def _earnings(state: MmState) -> list[Event]:
    return [Event(ev.COMPANY_PAID, payment(state, s)) for s in round_order(state, lambda s: _owes(state, s))]


def _bankruptcy(state: MmState) -> list[Event]:
    return [
        Event(ev.COMPANY_CLOSED, {"seat": s, "round": state.round})
        for s, c in enumerate(state.companies)
        if c.status.is_open and c.active < 1
    ]


def _investments(state: MmState) -> list[Event]:
    """A Closed company with an investment must liquidate it."""
    return [
        Event(ev.INVESTMENT_LIQUIDATED, {"seat": s, "amount": c.invested, "forced": True})
        for s, c in enumerate(state.companies)
        if c.status.is_closed and c.invested > 0
    ]


def termination(state: MmState) -> ev.Termination | None:
    if restored(state):
        return ev.Termination.MANSION_RESTORED
    if last_standing([c.status for c in state.companies]) is not None:
        return ev.Termination.LAST_COMPANY_STANDING
    if not any(c.status.in_game for c in state.companies):
        return ev.Termination.ALL_OUT_OF_BUSINESS
    if round_limit_reached(state.round, state.max_rounds):
        return ev.Termination.ROUND_LIMIT
    return None


def final_places(state: MmState) -> tuple[int, ...]:
    scores = [(money(state, s), len(c.jobs)) for s, c in enumerate(state.companies)]
    return places(scores, [c.status for c in state.companies])


def _reopen(state: MmState) -> list[Event]:
    out = [
        Event(ev.COMPANY_CLOSED_FOR_GOOD, {"seat": s, "round": state.round})
        for s, c in enumerate(state.companies)
        if c.status.status == CLOSED and c.active < 1
    ]
    if out or reopener(state) is not None:
        return out
    ended_by = termination(state)
    if ended_by is None:
        return []
    data = {
        "ended_by": ended_by.value,
        "round": state.round,
        "money": [money(state, s) for s in range(state.seats)],
        "jobs": [len(c.jobs) for c in state.companies],
        "places": list(final_places(state)),
    }
    return [Event(ev.GAME_DECIDED, data)]


def _bidding(state: MmState) -> list[Event]:
    if state.marker_moved or not bidding_over(state):
        return []
    if state.high_bidder is not None:
        return [Event(ev.FIRST_PLAYER_CHOSEN, {"seat": state.high_bidder, "paid": state.high_bid})]
    seat = next_from(state, state.first, lambda s: state.companies[s].status.in_game)
    return [Event(ev.FIRST_PLAYER_CHOSEN, {"seat": state.first if seat is None else seat, "paid": 0})]


def _none(state: MmState) -> list[Event]:
    return []


def _waits_for_nobody(state: MmState) -> bool:
    return actor(state) is None


STEPS: dict[str, tuple[Callable[[MmState], list[Event]], Callable[[MmState], bool]]] = {
    HIRING: (_none, _waits_for_nobody),
    PLACEMENT: (_none, _waits_for_nobody),
    END_OF_DAY: (
        lambda s: [] if s.day_ended else _day_ended(s),
        lambda s: s.day_ended and dedicator(s) is None,
    ),
    EVENT: (_card_phase("event"), lambda s: s.revealed is not None and not s.resolving),
    HAUNT: (
        _card_phase("haunt"),
        lambda s: s.revealed is not None and not s.resolving and haunter(s) is None,
    ),
    INSPECTION: (_inspection, lambda s: s.inspected and not needs_job(s)),
    EARNINGS: (_earnings, lambda s: True),
    BANKRUPTCY: (_bankruptcy, lambda s: True),
    INVESTMENTS: (_investments, _waits_for_nobody),
    SETTLE_UP: (_none, _waits_for_nobody),
    REOPEN: (_reopen, _waits_for_nobody),
    BIDDING: (_bidding, lambda s: s.marker_moved),
}


def _start_turn(state: MmState, phase: str) -> int | None:
    if phase == BIDDING:
        order = bidders(state)
        return order[0] if order else None
    if phase == PLACEMENT:
        return state.first
    return None


def _advance(state: MmState, phase: str | None) -> list[Event]:
    if phase is not None:
        return [
            Event(ev.PHASE_BEGAN, {"round": state.round, "phase": phase, "turn": _start_turn(state, phase)})
        ]
    return [round_started(state, state.round + 1)]


def round_started(state: MmState, round_: int) -> Event:
    order = hiring_seats(state)
    return Event(
        ev.ROUND_STARTED, {"round": round_, "first": state.first, "turn": order[0] if order else None}
    )


MACHINE = PhaseMachine([Phase(name, *STEPS[name]) for name in PHASES], _advance)


def automatic(state: MmState) -> list[Event]:
    """The events the game takes by itself now; [] when it waits for a seat or for chance."""
    if state.phase == OVER:
        return []
    if state.phase == SETUP:
        return [] if needs_job(state) else [round_started(state, 1)]
    return MACHINE.automatic(state, state.phase)
