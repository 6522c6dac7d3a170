"""Final Decrees cards and decrees, read from the game's catalog.

The rulebook describes only the Stagnation and Decline card; the other 59
card texts and the five decrees' steps come from the catalog the game was
created with. A card's rules are its ``effect``: a list of operations from
the vocabulary in :mod:`engines.final_decrees.effects`, run in order when the
card is played ("Rules on cards supercede other rules", FD-23).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engines.base import RuleViolation
from engines.final_decrees.departments import ALL_DEPARTMENTS, REFORM
from engines.final_decrees.effects import check_effect

CARD_COUNT = 60
DECREE_COUNT = 5


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    text: str
    effect: tuple[Mapping[str, Any], ...] = ()
    stagnation: bool = False


@dataclass(frozen=True)
class DecreeDef:
    id: str
    name: str
    steps: tuple[str, ...]


@dataclass(frozen=True)
class Catalog:
    id: str
    version: int
    cards: tuple[Card, ...]
    decrees: tuple[DecreeDef, ...]

    @cached_property
    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    @cached_property
    def decline(self) -> str:
        return next(c.id for c in self.cards if c.stagnation)

    @cached_property
    def deck_cards(self) -> tuple[str, ...]:
        """Every card but the decline card, sorted."""
        return tuple(sorted(c.id for c in self.cards if not c.stagnation))

    def card(self, card_id: str) -> Card:
        return self.by_id[card_id]

    def decree(self, decree_id: str) -> DecreeDef:
        return next(d for d in self.decrees if d.id == decree_id)


def parse_catalog(data: Mapping[str, Any] | None) -> Catalog:
    """Typed cards and decrees. The catalog schema has already refused bad shapes
    and unknown operations at registration; this still refuses a catalog the
    engine cannot play (so a bad config is a 422, never a crash mid-game)."""
    if not data or data.get("kind") != "final-decrees":
        raise RuleViolation("invalid-catalog", "Final Decrees needs a final-decrees card catalog.")
    try:
        cards = tuple(
            Card(
                c["id"],
                c["name"],
                c.get("text", ""),
                tuple(dict(op) for op in c.get("effect", ())),
                bool(c.get("stagnation", False)),
            )
            for c in data["cards"]
        )
        decrees = tuple(DecreeDef(d["id"], d["name"], tuple(d["steps"])) for d in data["decrees"])
    except (KeyError, TypeError) as exc:
        raise RuleViolation("invalid-catalog", f"The catalog is malformed: {exc}.") from exc
    if len(cards) != CARD_COUNT or sum(c.stagnation for c in cards) != 1:
        raise RuleViolation("invalid-catalog", "The deck has 60 cards, one of them Stagnation and Decline.")
    if len({c.id for c in cards}) != CARD_COUNT or len(decrees) != DECREE_COUNT:
        raise RuleViolation("invalid-catalog", "Card ids are unique and there are five decrees.")
    for card in cards:
        problem = check_effect(card.effect)
        if problem:
            raise RuleViolation("invalid-catalog", f"Card {card.id}: {problem}")
    for decree in decrees:
        if not decree.steps or any(step not in ALL_DEPARTMENTS for step in decree.steps):
            raise RuleViolation("invalid-catalog", f"Decree {decree.id} has steps that are not departments.")
    return Catalog(str(data.get("id", "")), int(data.get("version", 1)), cards, decrees)


def decree_steps(decree: DecreeDef, seats: int) -> tuple[str, ...]:
    """Reading 12: at four players Reform is out of the game, so its steps are skipped."""
    if seats == 5:
        return decree.steps
    return tuple(step for step in decree.steps if step != REFORM)
