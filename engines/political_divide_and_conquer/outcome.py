"""How a game of Political Divide & Conquer ends (PDC-34, PDC-36): when the deck
runs out the highest score wins; equal scores are split by the cards in each
base, and players still level share a place."""

from __future__ import annotations

from engines.kit.outcome import TIES_BROKEN, Ending, OutcomeRule

OUTCOME = OutcomeRule(
    endings=(
        Ending(
            "deck-exhausted",
            "the highest score wins and equal scores go to the larger base",
            order=TIES_BROKEN,
        ),
    )
)
