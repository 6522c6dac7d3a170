"""Political Divide & Conquer card definitions, built from the game's catalog.

The rulebook lists no cards, so the engine reads them from the catalog the
game was created with (``GameConfig.catalog``). The powers and the event
operations the engine runs are named here; the catalog schema
(``engines/political_divide_and_conquer/catalog_schema.py``) takes them from here, so a
club's catalog naming anything else is refused when it is registered. The
parser still refuses, as ``invalid-catalog``, what the engine cannot use.
Every card is one physical card with its own id.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from engines.base import RuleViolation

GROUP = "group"
ASSET = "asset"
DEFICIT = "deficit"
EVENT = "event"
LEFT = "left"
RIGHT = "right"
WINGS = (LEFT, RIGHT)
FLIP_FLOP = "flip-flop"
CONSPIRACY_THEORIST = "conspiracy-theorist"
POWERS = (FLIP_FLOP, CONSPIRACY_THEORIST)
AFFECTS = ("self", "opponent", "everyone")
WHEN = ("any", "attack")
# operation -> the parameter it takes (None: none)
EVENT_OPS: Mapping[str, str | None] = MappingProxyType(
    {
        "draw": "n",
        "refill-hand": "to",
        "everyone-draws": "n",
        "discard-random": "n",
        "steal-random": "n",
        "attack-bonus": "n",
        "defence-bonus": "n",
        "cancel-attack": None,
    }
)
TARGETED_OPS = frozenset({"discard-random", "steal-random"})  # the event names an opponent
ATTACK_OPS = frozenset({"attack-bonus", "defence-bonus", "cancel-attack"})  # only during an attack


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


def _invalid(message: str) -> RuleViolation:
    return RuleViolation("invalid-catalog", f"The card catalog is not usable: {message}.")


def _one_of(value: Any, allowed: Any, what: str) -> Any:
    if value not in allowed:
        raise _invalid(f"{what} {value!r}")
    return value


def _effect(entry: Mapping[str, Any]) -> Effect:
    op = _one_of(entry["op"], EVENT_OPS, "unknown operation")
    parameter = EVENT_OPS[op]
    return Effect(op, int(entry[parameter]) if parameter else 0)


@lru_cache(maxsize=32)
def _parse(text: str) -> Catalog:
    """Parsed once per catalog content: replay and snapshots load the same catalog again and again."""
    data = json.loads(text)
    cards: dict[str, CardDef] = {}
    try:
        for g in data["groups"]:
            wing = _one_of(g["wing"], WINGS, "unknown wing")
            cards[g["id"]] = CardDef(g["id"], GROUP, g["name"], wing=wing, influence=int(g["influence"]))
        for a in data["assets"]:
            power = a.get("power")
            if power is not None:
                _one_of(power, POWERS, "unknown power")
            cards[a["id"]] = CardDef(a["id"], ASSET, a["name"], influence=int(a["influence"]), power=power)
        for d in data["deficits"]:
            cards[d["id"]] = CardDef(d["id"], DEFICIT, d["name"], influence=int(d["influence"]))
        for e in data["events"]:
            cards[e["id"]] = CardDef(
                e["id"],
                EVENT,
                e["name"],
                affects=_one_of(e["affects"], AFFECTS, "unknown target"),
                when=_one_of(e.get("when", "any"), WHEN, "unknown timing"),
                text=e.get("text", ""),
                effect=tuple(_effect(x) for x in e["effect"]),
            )
        catalog = Catalog(data["id"], int(data["version"]), MappingProxyType(cards))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise _invalid(f"a card lacks {exc}") from exc
    if len(cards) != sum(len(data[k]) for k in ("groups", "assets", "deficits", "events")):
        raise _invalid("card ids repeat")
    return catalog
