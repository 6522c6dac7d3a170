"""A log line in the catalog's words: any catalog id an engine's line still
carries (a card, a decree, a job) is replaced by the name the catalog prints.

Engines word their lines from events, and an event names cards by id; the
catalog that gives them names lives in the game's config, which ``describe``
does not see. The service, which holds the config, finishes the line.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from typing import Any


def catalog_names(catalog: Mapping[str, Any] | None) -> dict[str, str]:
    """Every named entry of a catalog, id -> name."""
    found: dict[str, str] = {}

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            if isinstance(node.get("id"), str) and isinstance(node.get("name"), str) and node["name"]:
                found[node["id"]] = node["name"]
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(catalog or {})
    return found


@functools.lru_cache(maxsize=64)
def _reworder(key: str) -> Callable[[str], str]:
    names = catalog_names(json.loads(key))
    if not names:
        return lambda text: text
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![\w-])"
    )
    return lambda text: pattern.sub(lambda m: names[m.group(1)], text)


def reworder(catalog: Mapping[str, Any] | None) -> Callable[[str], str]:
    """A function that puts a line in this catalog's words."""
    return _reworder(json.dumps(catalog or {}, sort_keys=True))
