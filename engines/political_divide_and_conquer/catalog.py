"""Political Divide & Conquer card definitions, built from the game's catalog.

The rulebook lists no cards, so the engine reads them from the catalog the
game was created with (``GameConfig.catalog``), validated by
``schemas.catalogs.political_divide_and_conquer.CATALOG`` when it was
registered. Every card is one physical card with its own id.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from marshmallow import ValidationError

from engines.base import RuleViolation
from schemas.catalogs.political_divide_and_conquer import CATALOG

GROUP = "group"
ASSET = "asset"
DEFICIT = "deficit"
EVENT = "event"
LEFT = "left"
RIGHT = "right"
FLIP_FLOP = "flip-flop"
CONSPIRACY_THEORIST = "conspiracy-theorist"


@dataclass(frozen=True)
class Effect:
    op: str
    n: int = 0


@dataclass(frozen=True)
class CardDef:
    id: str
    type: str
    name: str
    wing: str | None = None  # groups
    influence: int = 0  # groups: printed; assets: +; deficits: -
    power: str | None = None  # power assets
    affects: str | None = None  # events: self, opponent, everyone
    when: str | None = None  # events: any, attack
    text: str = ""
    effect: tuple[Effect, ...] = ()

    @property
    def stackable(self) -> bool:
        return self.type in (ASSET, DEFICIT)

    def has_op(self, op: str) -> bool:
        return any(e.op == op for e in self.effect)


@dataclass(frozen=True)
class Catalog:
    id: str
    version: int
    cards: Mapping[str, CardDef]

    def card(self, card_id: str) -> CardDef:
        return self.cards[card_id]

    def has(self, card_id: Any) -> bool:
        return isinstance(card_id, str) and card_id in self.cards

    def is_a(self, card_id: Any, kind: str) -> bool:
        return self.has(card_id) and self.cards[card_id].type == kind

    @property
    def deck(self) -> tuple[str, ...]:
        return tuple(sorted(self.cards))


def parse_catalog(data: Mapping[str, Any] | None) -> Catalog:
    if data is None:
        raise RuleViolation("no-catalog", "Political Divide & Conquer needs a card catalog.")
    return _parse(json.dumps(data, sort_keys=True))


@lru_cache(maxsize=32)
def _parse(text: str) -> Catalog:
    """Parsed once per catalog content: replay and snapshots load the same catalog again and again."""
    try:
        loaded = CATALOG().load(json.loads(text))
    except ValidationError as exc:
        raise RuleViolation(
            "invalid-catalog", "The card catalog is not valid.", {"errors": exc.messages}
        ) from exc
    cards: dict[str, CardDef] = {}
    for g in loaded["groups"]:
        cards[g["id"]] = CardDef(g["id"], GROUP, g["name"], wing=g["wing"], influence=g["influence"])
    for a in loaded["assets"]:
        cards[a["id"]] = CardDef(a["id"], ASSET, a["name"], influence=a["influence"], power=a["power"])
    for d in loaded["deficits"]:
        cards[d["id"]] = CardDef(d["id"], DEFICIT, d["name"], influence=d["influence"])
    for e in loaded["events"]:
        effect = tuple(Effect(x["op"], x.get("n", x.get("to", 0))) for x in e["effect"])
        cards[e["id"]] = CardDef(
            e["id"], EVENT, e["name"], affects=e["affects"], when=e["when"], text=e["text"], effect=effect
        )
    return Catalog(loaded["id"], loaded["version"], MappingProxyType(cards))
