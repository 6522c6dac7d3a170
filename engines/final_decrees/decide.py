"""Judging the players' commands: bids, assignment, the turn's actions, removal, trades."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engines.base import Command, Event, RuleViolation
from engines.final_decrees import effects
from engines.final_decrees import events as ev
from engines.final_decrees.departments import (
    ADMIRALTY,
    EXECUTIVE,
    HUMAN_RESOURCES,
    REFORM,
    SECRET_SERVICE,
    TITLES,
    TREASURY,
    Arrow,
    arrow_allowed,
    below,
    chain_top,
)
from engines.final_decrees.state import (
    ADMIRALTY_POWER,
    ASSIGN,
    BID,
    DRAW_ACTION,
    PLAY,
    TREASURY_POWER,
    FdState,
)
from engines.kit import expect_turn, is_int, offers
from engines.kit.awaiting import Awaiting, check_answer

MIN_BID, MAX_BID = 1, 6
MANEUVER_PERSONAL, MANEUVER_DEPARTMENTAL = 2, 4
TREASURY_ACTIONS = 2
ENACTMENT_STEP = 10


# ----------------------------------------------------------------- setup
def place_bid(state: FdState, command: Command) -> list[Event]:
    seat, amount = command["seat"], command.get("amount")
    if state.phase != BID:
        raise RuleViolation("not-bidding-now", "Bids are made only at the start of the game (FD-8).")
    if seat not in state.bidders:
        raise RuleViolation("not-in-the-rebid", "Only the tied highest bidders bid again (FD-13).")
    if state.bids[seat] is not None:
        raise RuleViolation("already-bid", "You have already bid this round.")
    if not is_int(amount) or not MIN_BID <= amount <= MAX_BID:
        raise RuleViolation("bid-out-of-range", "A bid is 1 to 6 blame (FD-8).", {"amount": amount})
    return [Event(ev.BID_PLACED, {"seat": seat, "amount": amount, "round": state.bid_round})]


def reveal_bids(state: FdState) -> Event:
    """FD-9 to FD-13: everyone gains their bid; the least five more; the tied most 2 and rebid."""
    bids = {s: state.bids[s] for s in state.bidders}
    low, high = min(bids.values()), max(bids.values())
    gains = [0] * state.seats
    most = [s for s, b in bids.items() if b == high]
    for s, b in bids.items():
        if b == high:
            gains[s] = 2 if len(most) > 1 else b
        elif b == low:
            gains[s] = b + 5
        else:
            gains[s] = b
    return Event(
        ev.BIDS_REVEALED,
        {
            "round": state.bid_round,
            "bids": list(state.bids),
            "gains": gains,
            "rebid": most if len(most) > 1 else [],
            "head": most[0] if len(most) == 1 else None,
        },
    )


def setup_posts(state: FdState) -> tuple[str, ...]:
    """The departments the Human Resources head fills at setup (FD-14, reading 1)."""
    return tuple(d for d in state.departments if d not in (REFORM, HUMAN_RESOURCES))


def assign_departments(state: FdState, command: Command) -> list[Event]:
    seat, posts = command["seat"], command.get("posts")
    if state.phase != ASSIGN:
        raise RuleViolation("not-assigning-now", "Departments are assigned once, after the bids (FD-14).")
    if state.head(HUMAN_RESOURCES) != seat:
        raise RuleViolation("human-resources-only", "The head of Human Resources assigns the others (FD-14).")
    if not isinstance(posts, list) or len(posts) != state.seats:
        raise RuleViolation("bad-assignment", "Name one department for every seat.", {"posts": posts})
    if posts[seat] != HUMAN_RESOURCES:
        raise RuleViolation("bad-assignment", "The head of Human Resources stays in Human Resources.")
    others = [p for i, p in enumerate(posts) if i != seat]
    open_posts = setup_posts(state)
    if len(set(others)) != len(others) or any(p not in open_posts for p in others):
        raise RuleViolation(
            "bad-assignment",
            "Each other player heads a different department; Reform is not assigned now (FD-14).",
            {"posts": posts},
        )
    if EXECUTIVE not in others:
        raise RuleViolation(
            "executive-must-be-headed",
            "The Executive Branch must have a head: its head plays first (FD-17, reading 1).",
        )
    return [Event(ev.DEPARTMENTS_ASSIGNED, {"seat": seat, "posts": list(posts)})]


# ------------------------------------------------------------- the turn
def _turn_action(state: FdState, seat: int) -> str:
    """The acting seat's department, after checking that it may spend an action now."""
    if state.phase != PLAY:
        raise RuleViolation("not-playing-now", "Actions are taken on one's turn, after setup.")
    expect_turn(seat, state.active)
    if state.actions_left <= 0:
        raise RuleViolation("no-actions-left", "You have no actions left this turn (FD-20).")
    return state.posts[seat]


def _power(state: FdState, seat: int, department: str) -> None:
    post = _turn_action(state, seat)
    if post != department:
        raise RuleViolation(
            f"{department}-only",
            f"Only the head of {TITLES[department]} has this power (FD-34).",
            {"department": post},
        )


def _once(state: FdState, thing: str, rule: str) -> None:
    if thing in state.used:
        raise RuleViolation("once-per-turn", f"This may be done only once on a player's turn ({rule}).")


def take_draw_action(state: FdState, command: Command) -> list[Event]:
    seat = command["seat"]
    _turn_action(state, seat)
    _once(state, DRAW_ACTION, "FD-22")
    return [Event(ev.DRAW_ACTION_TAKEN, {"seat": seat})]


def end_turn(state: FdState, command: Command) -> list[Event]:
    seat = command["seat"]
    if state.phase != PLAY:
        raise RuleViolation("not-playing-now", "Turns begin once the deck is dealt.")
    expect_turn(seat, state.active)
    return [Event(ev.TURN_ENDED, turn_end_data(state, ended_early=True))]


def turn_end_data(state: FdState, ended_early: bool = False) -> dict[str, Any]:
    """FD-21: the department the player heads now gains one blame per decree on its mat."""
    seat = state.active
    department = state.posts[seat]
    return {
        "seat": seat,
        "department": department,
        "decrees": len(state.decrees_at(department)),
        "actions_unused": state.actions_left if ended_early else 0,
        "lapsed": [o.id for o in state.offers.open],
    }


def play_card(state: FdState, command: Command) -> list[Event]:
    seat, card_id = command["seat"], command.get("card")
    _turn_action(state, seat)
    if card_id not in state.hands[seat]:
        raise RuleViolation("card-not-in-hand", "You can only play a card from your hand.", {"card": card_id})
    card = state.catalog.card(card_id)
    target_seat, target_dept = command.get("target_seat"), command.get("target_department")
    if effects.needs_player(card.effect):
        if not is_int(target_seat) or not 0 <= target_seat < state.seats or target_seat == seat:
            raise RuleViolation("needs-target-player", "This card names another player.", {"card": card_id})
    elif target_seat is not None:
        raise RuleViolation("no-target-needed", "This card names no player.", {"card": card_id})
    if effects.needs_department(card.effect):
        if target_dept not in state.departments:
            raise RuleViolation("needs-target-department", "This card names a department.", {"card": card_id})
    elif target_dept is not None:
        raise RuleViolation("no-target-needed", "This card names no department.", {"card": card_id})
    changes = effects.run(state, seat, card.effect, target_seat, target_dept)
    data = {
        "seat": seat,
        "card": card_id,
        "name": card.name,
        "target_seat": target_seat,
        "target_department": target_dept,
        **changes,
    }
    return [Event(ev.CARD_PLAYED, data)]


def spread_blame(state: FdState, command: Command) -> list[Event]:
    """FD-24 (reading 6): from one's own department or any below, to departments strictly below."""
    seat, moves = command["seat"], command.get("moves")
    post = _turn_action(state, seat)
    under = below(state.arrows, post)
    if not under:
        raise RuleViolation(
            "nothing-below", "A department with nothing beneath it cannot spread blame (FD-24)."
        )
    if not isinstance(moves, list) or not moves:
        raise RuleViolation("bad-moves", "Name at least one move of blame.")
    taken: Counter[str] = Counter()
    clean = []
    for move in moves:
        if not isinstance(move, Mapping):
            raise RuleViolation("bad-moves", "Each move names from, to and amount.")
        source, target, amount = move.get("from"), move.get("to"), move.get("amount")
        if source != post and source not in under:
            raise RuleViolation(
                "not-below-you",
                "Blame is moved from your department or one below it (FD-24).",
                {"from": source},
            )
        if target not in under or target == source:
            raise RuleViolation(
                "not-below-you", "Blame is moved to another department below yours (FD-24).", {"to": target}
            )
        if not is_int(amount) or amount < 1:
            raise RuleViolation("bad-moves", "Move at least one blame.", {"amount": amount})
        taken[source] += amount
        clean.append({"from": source, "to": target, "amount": amount})
    for source, amount in taken.items():
        if amount > state.blame_of(source):
            raise RuleViolation(
                "not-enough-blame",
                f"{TITLES[source]} has only {state.blame_of(source)} blame.",
                {"from": source},
            )
    return [Event(ev.BLAME_SPREAD, {"seat": seat, "moves": clean})]


def forward_decree(state: FdState, command: Command) -> list[Event]:
    """FD-25: a decree on your department to any other; to the next step's department costs 1 less blame."""
    seat, decree_id, to = command["seat"], command.get("decree"), command.get("to")
    post = _turn_action(state, seat)
    decree = state.decree(decree_id)
    if decree is None or decree.at != post:
        raise RuleViolation("decree-not-here", "You can forward only a decree on your department.")
    if to not in state.departments or to == post:
        raise RuleViolation("bad-destination", "A decree is forwarded to another department.", {"to": to})
    relief = 1 if to == decree.next_step and state.personal[seat] > 0 else 0
    return [
        Event(
            ev.DECREE_FORWARDED, {"seat": seat, "decree": decree.id, "from": post, "to": to, "relief": relief}
        )
    ]


def move_player(state: FdState, command: Command) -> list[Event]:
    """FD-26: any pawn, one's own included, to the empty department (in play there is always one)."""
    seat, player = command["seat"], command.get("player")
    _turn_action(state, seat)
    if not is_int(player) or not 0 <= player < state.seats:
        raise RuleViolation("no-such-seat", f"There is no seat {player!r}.", {"seat": player})
    data = {"seat": seat, "player": player, "from": state.posts[player], "to": state.empty_department}
    return [Event(ev.PLAYER_MOVED, data)]


def stamp_decree(state: FdState, command: Command) -> list[Event]:
    """FD-36 to FD-40: stamp the next step of a decree on your department."""
    seat, decree_id = command["seat"], command.get("decree")
    post = _turn_action(state, seat)
    decree = state.decree(decree_id)
    if decree is None or decree.at != post:
        raise RuleViolation("decree-not-here", "The department must have the decree on it (FD-36).")
    if decree.next_step != post:
        raise RuleViolation(
            "not-next-step",
            f"The next step of this decree is for {TITLES[decree.next_step]} (FD-36).",
            {"next": decree.next_step},
        )
    relief = 1 if state.personal[seat] > 0 else 0
    events = [
        Event(
            ev.DECREE_STAMPED,
            {
                "seat": seat,
                "decree": decree.id,
                "department": post,
                "step": decree.stamped + 1,
                "relief": relief,
            },
        )
    ]
    if decree.stamped + 1 == len(decree.steps):
        ordinal = state.enacted + 1
        top = chain_top(state.arrows, post)
        data = {
            "seat": seat,
            "decree": decree.id,
            "ordinal": ordinal,
            "allowance": ENACTMENT_STEP * ordinal,
            "department": post,
            "top": top,
            "chooser": state.head(top),
        }
        events.append(Event(ev.DECREE_ENACTED, data))
    return events


def remove_blame(state: FdState, command: Command) -> list[Event]:
    """FD-41: up to the allowance, from any players' personal blame and any departments."""
    awaiting: Awaiting = check_answer(state.awaiting, command)
    players, departments = command.get("players", []), command.get("departments", {})
    if not isinstance(players, list) or len(players) not in (0, state.seats):
        raise RuleViolation("bad-removal", "players lists blame removed for every seat, or is empty.")
    if not isinstance(departments, Mapping):
        raise RuleViolation("bad-removal", "departments maps departments to blame removed.")
    players = players or [0] * state.seats
    if any(not is_int(n) or n < 0 for n in [*players, *departments.values()]):
        raise RuleViolation("bad-removal", "Blame removed is a whole number, 0 or more.")
    for s, n in enumerate(players):
        if n > state.personal[s]:
            raise RuleViolation(
                "not-enough-blame", f"Seat {s} has only {state.personal[s]} blame.", {"seat": s}
            )
    for d, n in departments.items():
        if d not in state.departments:
            raise RuleViolation("no-such-department", f"There is no department {d!r}.", {"department": d})
        if n > state.blame_of(d):
            raise RuleViolation("not-enough-blame", f"{TITLES[d]} has only {state.blame_of(d)} blame.")
    total = sum(players) + sum(departments.values())
    if total > awaiting.amount:
        raise RuleViolation(
            "over-the-allowance",
            f"At most {awaiting.amount} blame may be removed for this decree (FD-40).",
            {"allowance": awaiting.amount},
        )
    kept = {d: n for d, n in sorted(departments.items()) if n}
    return [Event(ev.BLAME_REMOVED, {"seat": awaiting.seat, "players": players, "departments": kept})]


# ---------------------------------------------------------------- powers
def gain_actions(state: FdState, command: Command) -> list[Event]:
    seat = command["seat"]
    _power(state, seat, TREASURY)
    _once(state, TREASURY_POWER, "FD-28")
    return [Event(ev.ACTIONS_GAINED, {"seat": seat, "amount": TREASURY_ACTIONS})]


def investigate(state: FdState, command: Command) -> list[Event]:
    seat, department = command["seat"], command.get("department")
    _power(state, seat, SECRET_SERVICE)
    if department not in state.departments or department == SECRET_SERVICE:
        raise RuleViolation(
            "cannot-investigate", "The Secret Service investigates another department (FD-29)."
        )
    head = state.head(department)
    if head is None:
        raise RuleViolation(
            "cannot-investigate", "The empty department has no head to take the blame (reading 10)."
        )
    data = {"seat": seat, "department": department, "head": head, "amount": state.blame_of(department)}
    return [Event(ev.DEPARTMENT_INVESTIGATED, data)]


def go_on_maneuvers(state: FdState, command: Command) -> list[Event]:
    seat = command["seat"]
    _power(state, seat, ADMIRALTY)
    _once(state, ADMIRALTY_POWER, "FD-30")
    data = {
        "seat": seat,
        "personal": min(MANEUVER_PERSONAL, state.personal[seat]),
        "departmental": min(MANEUVER_DEPARTMENTAL, state.blame_of(ADMIRALTY)),
    }
    return [Event(ev.MANEUVERS_HELD, data)]


def reassign_players(state: FdState, command: Command) -> list[Event]:
    """FD-31: any players to any departments, exactly one department left empty."""
    seat, posts = command["seat"], command.get("posts")
    _power(state, seat, HUMAN_RESOURCES)
    if (
        not isinstance(posts, list)
        or len(posts) != state.seats
        or len(set(posts)) != state.seats
        or any(p not in state.departments for p in posts)
    ):
        raise RuleViolation(
            "bad-assignment", "Every player heads a different department in play (FD-3).", {"posts": posts}
        )
    return [Event(ev.PLAYERS_REASSIGNED, {"seat": seat, "before": list(state.posts), "posts": list(posts)})]


def _arrow(value: Any, state: FdState) -> Arrow:
    if not isinstance(value, list) or len(value) != 2 or any(d not in state.departments for d in value):
        raise RuleViolation("bad-arrow", "An arrow is [controller, controlled], two departments in play.")
    return (value[0], value[1])


def restructure(state: FdState, command: Command) -> list[Event]:
    """FD-32 (reading 7): add, remove, reverse or move one control arrow; control never loops."""
    seat, change = command["seat"], command.get("change")
    _power(state, seat, EXECUTIVE)
    arrow = _arrow(command.get("arrow"), state)
    arrows = state.arrows
    if change == "add":
        new = arrow
        rest = arrows
    else:
        if arrow not in arrows:
            raise RuleViolation("no-such-arrow", "There is no such control arrow.", {"arrow": list(arrow)})
        rest = tuple(a for a in arrows if a != arrow)
        if change == "remove":
            new = None
        elif change == "reverse":
            new = (arrow[1], arrow[0])
        elif change == "move":
            new = _arrow(command.get("to"), state)
            if new[0] != arrow[0] and new[1] != arrow[1]:
                raise RuleViolation("bad-move", "Moving an arrow keeps one of its ends.")
            if new == arrow:
                raise RuleViolation("bad-move", "The arrow must move.")
        else:
            raise RuleViolation("bad-change", "Restructuring adds, removes, reverses or moves an arrow.")
    if new is not None:
        problem = arrow_allowed(rest, new)
        if problem:
            raise RuleViolation(
                problem,
                "Control cannot loop and a department has one controller (FD-32).",
                {"arrow": list(new)},
            )
        rest = (*rest, new)
    data = {"seat": seat, "change": change, "arrow": list(arrow), "arrows": sorted([list(a) for a in rest])}
    return [Event(ev.CONTROL_RESTRUCTURED, data)]


# ---------------------------------------------------------------- trades
def _trading(state: FdState) -> None:
    if state.phase != PLAY:
        raise RuleViolation("not-playing-now", "Trades are made during play (FD-44).")


def offer_trade(state: FdState, command: Command) -> list[Event]:
    """FD-44: blame (personal) and cards, both parties agreeing; nothing binds until accepted."""
    _trading(state)
    seat = command["seat"]
    terms = offers.read_terms(command)
    if not offers.can_give(state.personal[seat], state.hands[seat], terms.give_amount, terms.give_cards):
        raise RuleViolation("offer-cannot-be-met", "You can offer only blame and cards you have.")
    data = offers.make_offer(state.offers, seat, command.get("to"), state.seats, terms)
    return [Event(ev.TRADE_OFFERED, data)]


def accept_trade(state: FdState, command: Command) -> list[Event]:
    _trading(state)
    seat = command["seat"]
    offer = offers.answerable(state.offers, command.get("offer"), seat, as_offerer=False)
    data = offers.accepted_data(offer, command.get("cards", []))
    t = offer.terms
    giver_ok = offers.can_give(
        state.personal[offer.seat], state.hands[offer.seat], t.give_amount, t.give_cards
    )
    taker_ok = offers.can_give(state.personal[seat], state.hands[seat], t.ask_amount, data["take_cards"])
    if not (giver_ok and taker_ok):
        raise RuleViolation(
            "offer-cannot-be-met", "One side no longer has what the offer names.", {"offer": offer.id}
        )
    return [Event(ev.TRADE_ACCEPTED, data)]


def decline_trade(state: FdState, command: Command) -> list[Event]:
    _trading(state)
    offer = offers.answerable(state.offers, command.get("offer"), command["seat"], as_offerer=False)
    return [Event(ev.TRADE_DECLINED, {"offer": offer.id, "seat": offer.seat, "to": offer.to})]


def withdraw_trade(state: FdState, command: Command) -> list[Event]:
    _trading(state)
    offer = offers.answerable(state.offers, command.get("offer"), command["seat"], as_offerer=True)
    return [Event(ev.TRADE_WITHDRAWN, {"offer": offer.id, "seat": offer.seat, "to": offer.to})]


HANDLERS = {
    "PlaceBid": place_bid,
    "AssignDepartments": assign_departments,
    "TakeDrawAction": take_draw_action,
    "PlayCard": play_card,
    "SpreadBlame": spread_blame,
    "ForwardDecree": forward_decree,
    "MovePlayer": move_player,
    "StampDecree": stamp_decree,
    "GainActions": gain_actions,
    "Investigate": investigate,
    "GoOnManeuvers": go_on_maneuvers,
    "ReassignPlayers": reassign_players,
    "Restructure": restructure,
    "EndTurn": end_turn,
    "RemoveBlame": remove_blame,
    "OfferTrade": offer_trade,
    "AcceptTrade": accept_trade,
    "DeclineTrade": decline_trade,
    "WithdrawTrade": withdraw_trade,
}
