"""How a game of MacCreedy's Mansion ends: companies still in business rank
first, then by money and jobs; so the money alone (which debts can take below
nothing) does not fix the places."""

from __future__ import annotations

from engines.kit.outcome import FREE, Ending, OutcomeRule

_WORDS = "companies still in business rank ahead of those that closed, whatever their money"

OUTCOME = OutcomeRule(
    endings=(
        Ending("last-company-standing", _WORDS, order=FREE),
        Ending("all-out-of-business", _WORDS, order=FREE),
        Ending("round-limit", _WORDS, order=FREE),
        Ending("mansion-restored", _WORDS, order=FREE),
    ),
    minimum_score=None,
)
