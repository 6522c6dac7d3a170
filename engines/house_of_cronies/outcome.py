"""How a game of House of Cronies ends: at the election the most votes win;
equal totals share a place. A total can fall below nothing (votes lost)."""

from __future__ import annotations

from engines.kit.outcome import Ending, OutcomeRule

OUTCOME = OutcomeRule(endings=(Ending("election", "the most votes at the election win"),), minimum_score=None)
