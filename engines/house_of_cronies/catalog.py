"""House of Cronies card definitions, built from a catalog dict.

The rulebook does not print the cards, so the engine reads them from the
catalog the game was created with (``GameConfig.catalog``). These are pure
functions: the engine never opens a file. The catalog's shape is validated by
``engines.house_of_cronies.catalog_schema.CATALOG`` when a club registers it; the
parser here still refuses what the engine cannot work with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engines.base import RuleViolation

PRESIDENT = "president"
VICE_PRESIDENT = "vice-president"
FINANCE = "finance"
JUSTICE = "justice"
SERVICE_DELIVERY = "service-delivery"
COMMUNICATIONS = "communications"
FOREIGN_ALLY = "foreign-ally"

POSITIONS = (PRESIDENT, VICE_PRESIDENT, FINANCE, JUSTICE, SERVICE_DELIVERY, COMMUNICATIONS, FOREIGN_ALLY)
CRONY_POSITIONS = POSITIONS[:6]
SPECIALIST_POSITIONS = (FINANCE, JUSTICE, SERVICE_DELIVERY, COMMUNICATIONS)

# The setup section calls it "Social services", the rules "Service delivery": one position.
POSITION_ALIASES = {
    "social-services": SERVICE_DELIVERY,
    "communication": COMMUNICATIONS,
}

CRONY = "crony"
ALLY = "ally"
INFLUENCE = "influence"
CORRUPTION = "corruption"
TACTIC = "tactic"
MONEY = (INFLUENCE, CORRUPTION)

RESHUFFLE = "cabinet-reshuffle"
FLOOR_CROSSING = "floor-crossing"
DIPLOMATIC_INCIDENT = "diplomatic-incident"
SHEBEEN = "saxonwold-shebeen"
NO_CONFIDENCE = "motion-of-no-confidence"
HAWKS = "hawks-investigation"
POINT_OF_ORDER = "point-of-order"
TACTIC_KINDS = (RESHUFFLE, FLOOR_CROSSING, DIPLOMATIC_INCIDENT, SHEBEEN, NO_CONFIDENCE, HAWKS, POINT_OF_ORDER)
TACTIC_NAMES = {
    RESHUFFLE: "Cabinet reshuffle",
    FLOOR_CROSSING: "Floor crossing",
    DIPLOMATIC_INCIDENT: "Diplomatic incident",
    SHEBEEN: "Saxonwold shebeen",
    NO_CONFIDENCE: "Motion of no confidence",
    HAWKS: "Hawks investigation",
    POINT_OF_ORDER: "Point of order",
}


class CatalogError(RuleViolation):
    """The catalog cannot be used by the engine."""

    def __init__(self, message: str):
        super().__init__("invalid-catalog", message)


def normalize_position(name: Any) -> str | None:
    """The canonical position name, accepting the rulebook's alternative spellings."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower().replace(" ", "-").replace("_", "-")
    key = POSITION_ALIASES.get(key, key)
    return key if key in POSITIONS else None


@dataclass(frozen=True)
class CardDef:
    """One printed card. ``positions`` are a crony's specialist positions."""

    id: str
    type: str  # crony, ally, influence, corruption, tactic
    name: str = ""
    value: int = 0  # influence/corruption face value
    min_bid: int = 0
    positions: tuple[str, ...] = ()
    free_tactics: int = 0
    votes: int = 0
    tactic: str = ""  # the tactic kind

    @property
    def is_money(self) -> bool:
        return self.type in MONEY

    @property
    def is_biddable(self) -> bool:
        return self.type in (CRONY, ALLY)

    def label(self) -> str:
        if self.is_money:
            return f"{self.value} {self.type}"
        if self.type == TACTIC:
            return self.name or TACTIC_NAMES.get(self.tactic, self.tactic)
        return self.name or self.id


@dataclass(frozen=True)
class Catalog:
    id: str
    version: int
    cards: tuple[CardDef, ...]

    @cached_property
    def by_id(self) -> dict[str, CardDef]:
        return {card.id: card for card in self.cards}

    def card(self, card_id: str) -> CardDef:
        return self.by_id[card_id]

    def has(self, card_id: Any) -> bool:
        return isinstance(card_id, str) and card_id in self.by_id

    @property
    def main_cards(self) -> tuple[str, ...]:
        return tuple(sorted(c.id for c in self.cards if c.type != TACTIC))

    @property
    def tactic_cards(self) -> tuple[str, ...]:
        return tuple(sorted(c.id for c in self.cards if c.type == TACTIC))


def _int(entry: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = entry.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise CatalogError(f"card {entry.get('id')!r}: {key} must be an integer")
    return value


def _crony(entry: Mapping[str, Any]) -> CardDef:
    positions = []
    for raw in entry.get("positions", ()):
        position = normalize_position(raw)
        if position not in SPECIALIST_POSITIONS:
            raise CatalogError(f"crony {entry.get('id')!r}: {raw!r} is not a specialist position")
        if position not in positions:
            positions.append(position)
    return CardDef(
        id=entry["id"],
        type=CRONY,
        name=str(entry.get("name", "")),
        min_bid=_int(entry, "min_bid"),
        positions=tuple(p for p in SPECIALIST_POSITIONS if p in positions),
        free_tactics=_int(entry, "free_tactics", 0),
        votes=_int(entry, "votes"),
    )


def _ally(entry: Mapping[str, Any]) -> CardDef:
    return CardDef(
        id=entry["id"],
        type=ALLY,
        name=str(entry.get("name", "")),
        min_bid=_int(entry, "min_bid"),
        positions=(FOREIGN_ALLY,),
        free_tactics=_int(entry, "free_tactics", 0),
        votes=_int(entry, "votes"),
    )


def _money(kind: str, entry: Mapping[str, Any]) -> CardDef:
    value = _int(entry, "value")
    if value < 1:
        raise CatalogError(f"card {entry.get('id')!r}: value must be at least 1")
    return CardDef(id=entry["id"], type=kind, value=value)


def _tactic(entry: Mapping[str, Any]) -> CardDef:
    kind = entry.get("kind")
    if kind not in TACTIC_KINDS:
        raise CatalogError(f"tactic {entry.get('id')!r}: unknown kind {kind!r}")
    return CardDef(
        id=entry["id"], type=TACTIC, name=str(entry.get("name") or TACTIC_NAMES[kind]), tactic=kind
    )


def parse_catalog(data: Mapping[str, Any] | None) -> Catalog:
    """Typed, frozen card definitions from a catalog dict."""
    if not data:
        raise CatalogError("House of Cronies needs a card catalog (GameConfig.catalog)")
    if data.get("kind") != "house-of-cronies":
        raise CatalogError(f"not a house-of-cronies catalog: kind {data.get('kind')!r}")
    cards: list[CardDef] = []
    for entry in data.get("cronies", ()):
        cards.append(_crony(entry))
    for entry in data.get("foreign_allies", ()):
        cards.append(_ally(entry))
    for entry in data.get("influence", ()):
        cards.append(_money(INFLUENCE, entry))
    for entry in data.get("corruption", ()):
        cards.append(_money(CORRUPTION, entry))
    for entry in data.get("tactics", ()):
        cards.append(_tactic(entry))
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise CatalogError("card ids must be unique")
    return Catalog(id=str(data.get("id", "")), version=_int(data, "version", 1), cards=tuple(cards))


def catalog_to_dict(catalog: Catalog) -> dict[str, Any]:
    """The inverse of :func:`parse_catalog` (used for state snapshots)."""
    by_type: dict[str, list[dict[str, Any]]] = {
        "cronies": [],
        "foreign_allies": [],
        "influence": [],
        "corruption": [],
        "tactics": [],
    }
    for c in catalog.cards:
        if c.type == CRONY:
            by_type["cronies"].append(
                {
                    "id": c.id,
                    "name": c.name,
                    "min_bid": c.min_bid,
                    "positions": list(c.positions),
                    "free_tactics": c.free_tactics,
                    "votes": c.votes,
                }
            )
        elif c.type == ALLY:
            by_type["foreign_allies"].append(
                {
                    "id": c.id,
                    "name": c.name,
                    "min_bid": c.min_bid,
                    "free_tactics": c.free_tactics,
                    "votes": c.votes,
                }
            )
        elif c.type in MONEY:
            by_type[c.type].append({"id": c.id, "value": c.value})
        else:
            by_type["tactics"].append({"id": c.id, "kind": c.tactic, "name": c.name})
    return {"kind": "house-of-cronies", "id": catalog.id, "version": catalog.version, **by_type}
