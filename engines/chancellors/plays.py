"""What a player may play in steps (B) and (C): suits, sums, part solutions.

These are pure helpers shared by ``decide`` (to judge) and ``legal_commands``
(to list), so that the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from engines.base import RuleViolation
from engines.chancellors.cards import CARDS, service_suits
from engines.chancellors.state import OPEN, ChancellorsState, Problem


def controlled_suits(state: ChancellorsState, seat: int) -> frozenset[str]:
    """Suits of every service ``seat`` controls right now."""
    suits: set[str] = set()
    for index, holder in enumerate(state.services):
        if holder == seat:
            suits.update(service_suits(index))
    return frozenset(suits)


def matches_control(cid: str, suits: frozenset[str]) -> bool:
    return bool(set(CARDS[cid].suits) & suits)


def cards_value(cards: Iterable[str], dice: tuple[int, ...]) -> int:
    return sum(CARDS[c].value_for(dice) for c in cards)


def part_violation(cid: str, dice: tuple[int, ...]) -> RuleViolation | None:
    """Why ``cid`` cannot solve part of a problem showing ``dice`` (None: it can).

    Besides "at most the lower die", the rulebook's two special cases get
    their own codes. "Only any Ace" is stricter than the value rule: a Crown,
    Pawn or Court is worth 1 against a pair of ones, yet only an Ace may solve
    part of that problem. "A Crown only when the dice are equal" follows from
    the value rule (a Crown is worth the higher die).
    """
    card = CARDS[cid]
    low = min(dice)
    if low == 1 and card.rank != "ace":
        return RuleViolation(
            "only-an-ace-solves-part-of-a-one",
            "A problem with a die showing 1 can be solved in part only by an Ace.",
            {"card": cid, "dice": list(dice)},
        )
    if card.value is None and dice[0] != dice[1]:
        return RuleViolation(
            "crown-solves-part-only-of-a-pair",
            f"A {card.rank.capitalize()} counts as the higher die, so it solves part of a problem "
            "only when both dice are equal.",
            {"card": cid, "dice": list(dice)},
        )
    if card.value_for(dice) > low:
        return RuleViolation(
            "card-too-high-for-part",
            f"To solve part of a problem, play one card worth at most the lower die ({low}).",
            {"card": cid, "dice": list(dice)},
        )
    return None


def minimal_sets(cards: Iterable[str], dice: tuple[int, ...], need: int) -> list[tuple[str, ...]]:
    """Every set of ``cards`` reaching ``need`` from which no card can be left out.

    Larger (overpaying) sets are legal too; these are the representative ones
    ``legal_commands`` lists.
    """
    pool = sorted(cards)
    found = []
    for size in range(1, len(pool) + 1):
        for combo in combinations(pool, size):
            values = [CARDS[c].value_for(dice) for c in combo]
            total = sum(values)
            if total >= need and total - min(values) < need:
                found.append(combo)
    return found


def solve_options(state: ChancellorsState, seat: int, in_control: bool) -> list[dict[str, Any]]:
    """The solving commands open to the acting ``seat`` (see ``legal_commands``)."""
    hand = state.hands[seat]
    options: list[dict[str, Any]] = []
    excuse_ready = (
        not in_control
        and state.excuse_holder == seat
        and not state.excuse_used
        and not state.holds_service(seat)
        and seat not in state.served
    )
    suits = controlled_suits(state, seat)
    usable = [c for c in hand if matches_control(c, suits)] if in_control else list(hand)
    for index, problem in enumerate(state.problems):
        if problem.status != OPEN:
            continue
        modes: list[tuple[bool, int, bool]] = []  # (excuse, need, may solve part)
        if in_control:
            modes.append((False, problem.total, True))
        else:
            modes.append((False, 2 * problem.total, False))
            if excuse_ready:
                modes.append((True, problem.total, True))
        for excuse, need, part in modes:
            extra = {"excuse": True} if excuse else {}
            for combo in minimal_sets(usable, problem.dice, need):
                options.append(
                    {"type": "SolveProblem", "seat": seat, "problem": index, "cards": list(combo), **extra}
                )
            if part:
                options.extend(_part_options(seat, index, problem, usable, extra))
    return options


def _part_options(
    seat: int, index: int, problem: Problem, usable: list[str], extra: dict[str, Any]
) -> list[dict[str, Any]]:
    options = []
    for cid in sorted(usable):
        if part_violation(cid, problem.dice) is None:
            for die in sorted(set(problem.dice)):
                options.append(
                    {
                        "type": "SolvePart",
                        "seat": seat,
                        "problem": index,
                        "card": cid,
                        "set_aside": die,
                        **extra,
                    }
                )
    return options
