"""Judging commands: each handler checks what is particular to its command;
the kit's ``Rulebook`` runs the common guards first and the settle loop after."""

from __future__ import annotations

from typing import Any

from engines.base import Command, Event, RuleViolation
from engines.kit import check_chance, expect_turn, is_int
from engines.kit.table import with_article
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.effects import break_location
from engines.maccreedys_mansion.flow import (
    actor,
    bidding_over,
    chance_request,
    dedicator,
    hiring_seats,
    investor,
    next_bidder,
    placer,
    reopener,
    settler,
)
from engines.maccreedys_mansion.query import (
    complete,
    dedications,
    dividend,
    in_play,
    markers_in_hand,
    next_from,
    occupied,
    room_haunted,
    struck,
    supply,
)
from engines.maccreedys_mansion.state import (
    BIDDING,
    END_OF_DAY,
    HAUNT,
    HIRING,
    INVESTMENTS,
    PLACEMENT,
    REOPEN,
    SETTLE_UP,
    MmState,
)
from engines.maccreedys_mansion.words import card_name, dollars, room_name, space_name

DIVIDEND_FLOOR = 100
BID_STEP = 100
#: The most of one resource a company buys in one turn (the rulebook sets no limit; a record needs one).
MOST_BOUGHT = 1000


def _phase(state: MmState, command: Command, phase: str) -> int:
    if state.phase != phase:
        raise RuleViolation(
            "wrong-phase",
            f"{command['type']} belongs to the {phase} phase; this is the {state.phase} phase.",
            {"phase": state.phase},
        )
    return command["seat"]


def _open(state: MmState, seat: int, what: str) -> None:
    if not state.companies[seat].status.is_open:
        raise RuleViolation("company-closed", f"A closed company does not {what}.", {"seat": seat})


def _choice(value: Any, options, code: str, what: str) -> str:
    if not isinstance(value, str) or value not in options:
        raise RuleViolation(code, f"There is no {what} {value!r}.", {what: value})
    return value


# --- chance -------------------------------------------------------------------


def draw_card(state: MmState, command: Command) -> list[Event]:
    request = chance_request(state)
    (card,) = check_chance(request, command)[1]
    deck = request.fixed["deck"]
    drawn = {"card": card, "name": card_name(state.board, card)}
    if deck == "job":
        return [Event(ev.JOB_DRAWN, {**drawn, "set_aside": complete(state, state.board.job[card].location)})]
    kind = ev.EVENT_REVEALED if deck == "event" else ev.HAUNT_REVEALED
    return [Event(kind, {**drawn, "round": state.round})]


# --- Hiring and Purchasing --------------------------------------------------------


def _next_hirer(state: MmState, seat: int) -> int | None:
    return next_from(state, seat, lambda s: s in hiring_seats(state))


def hire_worker(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, HIRING)
    _open(state, seat, "hire")
    expect_turn(seat, actor(state))
    worker = _choice(command.get("worker"), state.board.worker_types, "no-such-worker", "worker")
    if struck(state, worker, state.round):
        raise RuleViolation("workers-on-strike", f"No {worker} may be hired this round.", {"worker": worker})
    if supply(state, worker) < 1:
        raise RuleViolation("worker-out-of-stock", f"Every {worker} piece is taken.", {"worker": worker})
    return [Event(ev.WORKER_HIRED, {"seat": seat, "worker": worker, "next": _next_hirer(state, seat)})]


def buy_resources(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, HIRING)
    _open(state, seat, "buy")
    expect_turn(seat, actor(state))
    resource = _choice(command.get("resource"), state.board.resource_types, "no-such-resource", "resource")
    count = command.get("count")
    if not is_int(count) or not 1 <= count <= MOST_BOUGHT:
        raise RuleViolation("bad-count", f"Buy from 1 to {MOST_BOUGHT:,}.", {"count": count})
    data = {"seat": seat, "resource": resource, "count": count, "next": _next_hirer(state, seat)}
    return [Event(ev.RESOURCES_BOUGHT, data)]


def pass_hiring(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, HIRING)
    _open(state, seat, "hire")
    expect_turn(seat, actor(state))
    return [Event(ev.HIRING_PASSED, {"seat": seat, "next": _next_hirer(state, seat)})]


# --- Placement ---------------------------------------------------------------------


def place_worker(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, PLACEMENT)
    _open(state, seat, "place")
    if markers_in_hand(state, seat) < 1:
        raise RuleViolation("no-markers-left", "You have no Player Marker left.")
    expect_turn(seat, placer(state))
    board = state.board
    worker = _choice(command.get("worker"), board.worker_types, "no-such-worker", "worker")
    if not state.companies[seat].unplaced[board.worker_types.index(worker)]:
        raise RuleViolation("no-worker-to-place", f"You have no {worker} left to place.", {"worker": worker})
    space = _choice(command.get("space"), board.space, "no-such-space", "space")
    where = board.space[space]
    if where.worker != worker:
        raise RuleViolation(
            "wrong-worker", f"That space needs {with_article(where.worker)}.", {"needs": where.worker}
        )
    if where.room in state.covered:
        raise RuleViolation("room-covered", "That room is covered: it is out of play.", {"room": where.room})
    if room_haunted(state, where.room, state.round):
        raise RuleViolation("room-haunted", "That room is haunted this round.", {"room": where.room})
    if space in occupied(state):
        raise RuleViolation("space-taken", "That space already holds a marker.", {"space": space})
    data = {"seat": seat, "worker": worker, "space": space, "space_name": space_name(board, space)}
    return [Event(ev.WORKER_PLACED, data)]


# --- End of Day ----------------------------------------------------------------------


def dedicate_resource(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, END_OF_DAY)
    expect_turn(seat, dedicator(state))
    space = _choice(command.get("space"), state.board.space, "no-such-space", "space")
    if space not in dedications(state, seat):
        raise RuleViolation(
            "cannot-dedicate",
            "A further marker goes on a free space in a room you worked today, with its resource in storage.",
            {"space": space},
        )
    resource = state.board.worker[state.board.space[space].worker].resource
    data = {"seat": seat, "space": space, "space_name": space_name(state.board, space), "resource": resource}
    return [Event(ev.RESOURCE_DEDICATED, data)]


def finish_day(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, END_OF_DAY)
    expect_turn(seat, dedicator(state))
    return [Event(ev.DAY_FINISHED, {"seat": seat})]


# --- Haunt ---------------------------------------------------------------------------


def haunt(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, HAUNT)
    if state.companies[seat].status.is_open:
        raise RuleViolation("company-open", "Only a closed company haunts.", {"seat": seat})
    expect_turn(seat, actor(state))
    target = command.get("target")
    board = state.board
    if target == "worker":
        worker = _choice(command.get("worker"), board.worker_types, "no-such-worker", "worker")
        return [Event(ev.WORKER_HAUNTED, {"seat": seat, "worker": worker, "round": state.round + 1})]
    if target == "room":
        room = _choice(command.get("room"), board.room, "no-such-room", "room")
        locations = [loc for loc in board.room[room].locations if in_play(state, loc)]
        if not locations or all(complete(state, loc) for loc in locations):
            raise RuleViolation(
                "room-not-incomplete", "Only an incomplete room can be haunted.", {"room": room}
            )
        data = {"seat": seat, "room": room, "room_name": room_name(board, room), "round": state.round + 1}
        return [Event(ev.ROOM_HAUNTED, data)]
    if target == "location":
        location = _choice(command.get("location"), board.location, "no-such-location", "location")
        if not in_play(state, location) or not complete(state, location):
            raise RuleViolation(
                "location-not-complete", "Only a completed location can be broken.", {"location": location}
            )
        return [break_location(state, location, {"seat": seat})]
    if target == "inspector":
        if state.round - 1 in state.inspector_haunted:
            raise RuleViolation(
                "inspector-haunted-last-round", "The Inspector cannot be haunted two rounds running."
            )
        if state.round in state.no_inspection:
            raise RuleViolation("no-inspection-this-round", "There is no Inspection this round already.")
        return [Event(ev.INSPECTION_CANCELLED, {"seat": seat, "round": state.round})]
    raise RuleViolation(
        "no-such-haunt", "Haunt a worker, a room, a location or the Inspector.", {"target": target}
    )


def pass_haunt(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, HAUNT)
    expect_turn(seat, actor(state))
    return [Event(ev.HAUNT_PASSED, {"seat": seat})]


# --- Investments -----------------------------------------------------------------------


def _investor(state: MmState, command: Command) -> int:
    seat = _phase(state, command, INVESTMENTS)
    _open(state, seat, "choose an investment")
    expect_turn(seat, investor(state))
    return seat


def collect_dividends(state: MmState, command: Command) -> list[Event]:
    seat = _investor(state, command)
    amount = dividend(state.companies[seat].invested)
    if amount < DIVIDEND_FLOOR:
        raise RuleViolation(
            "dividend-below-100",
            "Dividends are collected only when they come to $100 or more.",
            {"amount": amount},
        )
    return [Event(ev.DIVIDENDS_COLLECTED, {"seat": seat, "amount": amount})]


def liquidate(state: MmState, command: Command) -> list[Event]:
    seat = _investor(state, command)
    amount = state.companies[seat].invested
    if amount < 1:
        raise RuleViolation("no-investment", "You have no invested funds.")
    return [Event(ev.INVESTMENT_LIQUIDATED, {"seat": seat, "amount": amount, "forced": False})]


def invest(state: MmState, command: Command) -> list[Event]:
    seat = _investor(state, command)
    amount = command.get("amount")
    active = state.companies[seat].active
    if not is_int(amount) or not 1 <= amount <= active:
        raise RuleViolation(
            "amount-out-of-range",
            f"Invest from $1 to your active funds of {dollars(active)}.",
            {"amount": amount, "active": active},
        )
    return [Event(ev.FUNDS_INVESTED, {"seat": seat, "amount": amount})]


def pass_investments(state: MmState, command: Command) -> list[Event]:
    seat = _investor(state, command)
    return [Event(ev.INVESTMENTS_PASSED, {"seat": seat})]


# --- Settle Up ----------------------------------------------------------------------------


def pay_debt(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, SETTLE_UP)
    expect_turn(seat, settler(state))
    item = command.get("item")
    if item not in state.companies[seat].debts:
        raise RuleViolation("no-such-debt", f"You owe nothing for {item!r}.", {"item": item})
    price = state.board.item_price(item)
    if state.companies[seat].active < price:
        raise RuleViolation("cannot-afford", f"That debt costs {dollars(price)}.", {"price": price})
    return [Event(ev.DEBT_PAID, {"seat": seat, "item": item, "amount": price})]


def finish_settling(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, SETTLE_UP)
    expect_turn(seat, settler(state))
    return [Event(ev.SETTLING_FINISHED, {"seat": seat})]


# --- Re-Open --------------------------------------------------------------------------------


def reopen(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, REOPEN)
    expect_turn(seat, reopener(state))
    return [Event(ev.COMPANY_REOPENED, {"seat": seat, "round": state.round})]


def stay_closed(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, REOPEN)
    expect_turn(seat, reopener(state))
    return [Event(ev.COMPANY_STAYED_CLOSED, {"seat": seat})]


# --- Bidding ----------------------------------------------------------------------------------


def bid(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, BIDDING)
    expect_turn(seat, None if bidding_over(state) else state.turn)
    amount = command.get("amount")
    if not is_int(amount) or amount % BID_STEP:
        raise RuleViolation("bid-not-in-hundreds", "Bids are whole multiples of $100.", {"amount": amount})
    if amount <= state.high_bid:
        raise RuleViolation(
            "bid-too-low", f"Bid more than {dollars(state.high_bid)}.", {"high": state.high_bid}
        )
    if amount > state.companies[seat].active:
        raise RuleViolation("bid-beyond-funds", "You cannot bid more than your active funds.")
    after = state.with_(high_bidder=seat)
    return [Event(ev.BID_PLACED, {"seat": seat, "amount": amount, "next": next_bidder(after, seat)})]


def pass_bid(state: MmState, command: Command) -> list[Event]:
    seat = _phase(state, command, BIDDING)
    expect_turn(seat, None if bidding_over(state) else state.turn)
    return [Event(ev.BID_PASSED, {"seat": seat, "next": next_bidder(state, seat)})]


COMMANDS = {
    "HireWorker": hire_worker,
    "BuyResources": buy_resources,
    "PassHiring": pass_hiring,
    "PlaceWorker": place_worker,
    "DedicateResource": dedicate_resource,
    "FinishDay": finish_day,
    "Haunt": haunt,
    "PassHaunt": pass_haunt,
    "CollectDividends": collect_dividends,
    "LiquidateInvestment": liquidate,
    "Invest": invest,
    "PassInvestments": pass_investments,
    "PayDebt": pay_debt,
    "FinishSettling": finish_settling,
    "Reopen": reopen,
    "StayClosed": stay_closed,
    "PlaceBid": bid,
    "PassBid": pass_bid,
}
