"""How a game of Chancellors ends (docs/rules/chancellors.md): a player reaching
the target wins with the highest score; a catastrophe (a problem at 6 and 6)
ends it at once and the lowest score wins. Equal scores share a place."""

from __future__ import annotations

from engines.base import RuleViolation
from engines.kit.outcome import Ending, OutcomeRule, Result


def _check(state, result: Result) -> None:
    if result.ended_by == "target-score" and result.scores is not None and max(result.scores) < state.target:
        raise RuleViolation(
            "chancellors-target-not-reached",
            f"A game won on score ends when someone reaches the target of {state.target}.",
        )


OUTCOME = OutcomeRule(
    endings=(
        Ending("target-score", "the highest score wins when someone reaches the target"),
        Ending("catastrophe", "the lowest score wins when a catastrophe ends the game", lowest_wins=True),
    ),
    check=_check,
)
