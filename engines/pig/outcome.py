"""How a game of Pig ends: the first to the target wins alone, everyone else is second."""

from __future__ import annotations

from engines.base import RuleViolation
from engines.kit.outcome import Ending, OutcomeRule, Result


def _check(state, result: Result) -> None:
    if result.places.count(1) != 1 or any(p not in (1, 2) for p in result.places):
        raise RuleViolation("pig-one-winner", "Pig has one winner; every other player comes second.")
    if result.scores is None:
        return
    winner = result.places.index(1)
    if result.scores[winner] < state.target:
        raise RuleViolation("pig-target-not-reached", f"The winner reaches the target of {state.target}.")
    if any(s >= state.target for i, s in enumerate(result.scores) if i != winner):
        raise RuleViolation(
            "pig-target-not-reached", f"Only the winner reaches the target of {state.target}."
        )


OUTCOME = OutcomeRule(
    endings=(
        Ending(
            "target-score", "the first to the target wins and everyone else comes second", winner_only=True
        ),
    ),
    check=_check,
)
