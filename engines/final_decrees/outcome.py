"""How a game of Final Decrees ends (FD-6, FD-43; readings 17 and 18): when
the deck runs out or every decree is enacted, the least personal blame wins;
equal blame shares a place."""

from __future__ import annotations

from engines.kit.outcome import Ending, OutcomeRule

_WORDS = "the least personal blame wins"

OUTCOME = OutcomeRule(
    endings=(
        Ending("deck-exhausted", _WORDS, lowest_wins=True),
        Ending("all-decrees-enacted", _WORDS, lowest_wins=True),
    )
)
