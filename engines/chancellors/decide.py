"""Judging commands: choosing for control, solving, passing, discarding, and the dealer's dice and draws."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import Command, Event, RuleViolation
from engines.chancellors import events as ev
from engines.chancellors.cards import SERVICE_IDS
from engines.chancellors.flow import chance
from engines.chancellors.plays import cards_value, controlled_suits, matches_control, part_violation
from engines.chancellors.state import (
    CHOOSE,
    CONTROL,
    DISCARD,
    HAND_LIMIT,
    HELP,
    OPEN,
    OPENING,
    UNFOLD,
    ChancellorsState,
)
from engines.kit import check_chance


def card_list(value: Any) -> list[str] | None:
    """``value`` as a list of card ids, or None when it is not a list of strings."""
    if not isinstance(value, list | tuple) or not all(isinstance(c, str) for c in value):
        return None
    return list(value)


def choose_card(state: ChancellorsState, command: Command) -> list[Event]:
    seat = command["seat"]
    if state.phase != CHOOSE:
        raise RuleViolation("not-choosing-now", "Cards for control are chosen only at the start of a turn.")
    if state.chosen[seat] is not None:
        raise RuleViolation("already-chosen", "You have already chosen your card this turn.")
    card = command.get("card")
    if card not in state.hands[seat]:
        raise RuleViolation("card-not-in-hand", "You can only choose a card from your hand.", {"card": card})
    return [Event(ev.CARD_CHOSEN, {"seat": seat, "card": card})]


def actor(state: ChancellorsState) -> int | None:
    """The seat that must solve or pass now, in steps (B) and (C)."""
    if state.phase == CONTROL:
        return state.services[state.acting]
    if state.phase == HELP:
        return state.queue[0]
    return None


def _check_actor(state: ChancellorsState, seat: int) -> None:
    if state.phase not in (CONTROL, HELP):
        raise RuleViolation("not-solving-now", "Problems are solved only after control is settled.")
    turn = actor(state)
    if seat != turn:
        raise RuleViolation("not-your-turn", f"It is seat {turn}'s turn to solve.", {"turn": turn})


def _check_problem(state: ChancellorsState, command: Command) -> int:
    index = command.get("problem")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(state.problems):
        raise RuleViolation("no-such-problem", f"There is no problem {index!r}.", {"problem": index})
    if state.problems[index].status != OPEN:
        raise RuleViolation(
            "problem-already-solved",
            "That problem was solved, wholly or in part, this turn and cannot be solved again.",
            {"problem": index},
        )
    return index


def _check_excuse(state: ChancellorsState, seat: int, command: Command) -> bool:
    if not command.get("excuse", False):
        return False
    if state.phase == CONTROL or seat in state.served:
        raise RuleViolation(
            "excuse-only-without-services",
            "The Excuse is used only on a turn when you control none of the services.",
        )
    if state.excuse_holder != seat:
        raise RuleViolation("no-excuse", "You do not have the Excuse in front of you.")
    if state.excuse_used:
        raise RuleViolation("excuse-already-used", "The Excuse has already been used this turn.")
    return True


def _check_suits(state: ChancellorsState, seat: int, cards: Sequence[str]) -> None:
    suits = controlled_suits(state, seat)
    wrong = [c for c in cards if not matches_control(c, suits)]
    if wrong:
        raise RuleViolation(
            "suit-does-not-match-service",
            "With control, you can only play cards that share a suit with a service you control.",
            {"cards": wrong},
        )


def _solving_fields(state: ChancellorsState, seat: int) -> dict[str, Any]:
    service = SERVICE_IDS[state.acting] if state.phase == CONTROL else None
    return {"seat": seat, "service": service}


def _excuse_passes(state: ChancellorsState, seat: int) -> Event:
    return Event(ev.EXCUSE_PASSED, {"seat": seat, "to": (seat + 1) % state.seats})


def solve_problem(state: ChancellorsState, command: Command) -> list[Event]:
    seat = command["seat"]
    _check_actor(state, seat)
    index = _check_problem(state, command)
    excuse = _check_excuse(state, seat, command)
    cards = card_list(command.get("cards"))
    if not cards:
        raise RuleViolation("no-cards", "Solving a problem takes at least one card.")
    if len(set(cards)) != len(cards):
        raise RuleViolation("duplicate-card", "Each card can be played once.", {"cards": list(cards)})
    missing = [c for c in cards if c not in state.hands[seat]]
    if missing:
        raise RuleViolation("card-not-in-hand", "You can only play cards from your hand.", {"cards": missing})
    problem = state.problems[index]
    if state.phase == CONTROL:
        _check_suits(state, seat, cards)
    unaided = state.phase == HELP and not excuse
    need = 2 * problem.total if unaided else problem.total
    value = cards_value(cards, problem.dice)
    if value < need:
        why = "twice the sum of the dice, without control" if unaided else "the sum of the dice"
        raise RuleViolation(
            "cards-too-low",
            f"The cards add up to {value}; solving this problem takes at least {need} ({why}).",
            {"value": value, "need": need},
        )
    events = [
        Event(
            ev.PROBLEM_SOLVED,
            {
                **_solving_fields(state, seat),
                "problem": index,
                "cards": list(cards),
                "dice": list(problem.dice),
                "points": problem.total,
                "excuse": excuse,
            },
        )
    ]
    if excuse:
        events.append(_excuse_passes(state, seat))
    return events


def solve_part(state: ChancellorsState, command: Command) -> list[Event]:
    seat = command["seat"]
    _check_actor(state, seat)
    index = _check_problem(state, command)
    excuse = _check_excuse(state, seat, command)
    if state.phase == HELP and not excuse:
        raise RuleViolation(
            "part-needs-a-service", "Without control of a service you may only solve a whole problem."
        )
    card = command.get("card")
    if card not in state.hands[seat]:
        raise RuleViolation("card-not-in-hand", "You can only play cards from your hand.", {"card": card})
    if state.phase == CONTROL:
        _check_suits(state, seat, [card])
    problem = state.problems[index]
    violation = part_violation(card, problem.dice)
    if violation is not None:
        raise violation
    set_aside = command.get("set_aside")
    if isinstance(set_aside, bool) or set_aside not in problem.dice:
        raise RuleViolation(
            "no-such-die", "Set aside one of the two dice of the problem.", {"dice": list(problem.dice)}
        )
    dice = list(problem.dice)
    dice.remove(set_aside)
    events = [
        Event(
            ev.PROBLEM_PARTLY_SOLVED,
            {
                **_solving_fields(state, seat),
                "problem": index,
                "card": card,
                "dice": list(problem.dice),
                "set_aside": set_aside,
                "kept": dice[0],
                "points": (problem.total + 1) // 2,
                "excuse": excuse,
            },
        )
    ]
    if excuse:
        events.append(_excuse_passes(state, seat))
    return events


def pass_turn(state: ChancellorsState, command: Command) -> list[Event]:
    seat = command["seat"]
    _check_actor(state, seat)
    abdicate = bool(command.get("abdicate", False))
    if state.phase == HELP:
        if abdicate:
            raise RuleViolation("nothing-to-abdicate", "You control no service to abdicate.")
        return [Event(ev.SOLVING_PASSED, {"seat": seat})]
    kind = ev.SERVICE_ABDICATED if abdicate else ev.SERVICE_PASSED
    return [Event(kind, {"seat": seat, "service": SERVICE_IDS[state.acting]})]


def discard_down(state: ChancellorsState, command: Command) -> list[Event]:
    seat = command["seat"]
    if state.phase != DISCARD:
        raise RuleViolation("not-discarding-now", "Cards are discarded down only after drawing.")
    hand = state.hands[seat]
    excess = len(hand) - HAND_LIMIT
    if excess <= 0:
        raise RuleViolation("hand-within-limit", f"Your hand has no more than {HAND_LIMIT} cards.")
    cards = card_list(command.get("cards"))
    if cards is None or len(set(cards)) != len(cards) or len(cards) != excess:
        raise RuleViolation(
            "wrong-discard-count",
            f"Discard exactly {excess} different cards, down to six.",
            {"count": excess},
        )
    missing = [c for c in cards if c not in hand]
    if missing:
        raise RuleViolation(
            "card-not-in-hand", "You can only discard cards from your hand.", {"cards": missing}
        )
    return [Event(ev.CARDS_DISCARDED, {"seat": seat, "cards": list(cards)})]


# --- chance -------------------------------------------------------------------


def roll_dice(state: ChancellorsState, command: Command) -> list[Event]:
    request = chance(state)
    problem = request.fixed["problem"]
    dice, _ = check_chance(request, command)
    if state.phase == UNFOLD:
        kept = state.problems[problem].dice[0]
        data = {"problem": problem, "kept": kept, "rolled": dice[0], "dice": [kept, dice[0]]}
        return [Event(ev.PROBLEM_UNFOLDED, data)]
    reason = "opening" if state.phase == OPENING else "renewed"
    return [Event(ev.PROBLEM_ROLLED, {"problem": problem, "dice": dice, "reason": reason})]


def draw_cards(state: ChancellorsState, command: Command) -> list[Event]:
    request = chance(state)
    _, cards = check_chance(request, command)
    events = []
    if not state.pile:
        events.append(Event(ev.DISCARDS_RESHUFFLED, {"cards": sorted(state.discards)}))
    kind = ev.CARDS_DEALT if state.phase == OPENING else ev.CARDS_DRAWN
    events.append(Event(kind, {"player": request.fixed["player"], "cards": cards}))
    return events
