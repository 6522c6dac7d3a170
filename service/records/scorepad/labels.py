"""How an entry reads to a person: a command, its answers and its dice in words,
in the engine's own words where it has them (its ``label`` and ``label_value``
hooks), or by the command's type and fields for an engine without them."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from engines.base import ChanceRequest, Engine, RuleViolation
from engines.kit.table import counted
from service.records.scorepad.choice import Label, ValueLabel

#: A seat's legal commands up to this many are direct buttons, grouped by kind (no question first).
FINAL_AT = 24


def words(name: str) -> str:
    """``ChooseCard`` -> ``Choose card``; ``set_aside`` -> ``set aside``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return spaced[:1].upper() + spaced[1:].lower()


def value_label(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(value_label(v) for v in value) or "none"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def command_label(command: dict[str, Any]) -> str:
    """A command in a few words: its type, then its fields (true flags by name;
    a field the type already names by its value alone)."""
    head = words(command.get("type", ""))
    said = {w.rstrip("s") for w in head.lower().split()}
    parts = []
    keys = sorted(k for k in command if k not in ("type", "seat"))
    for key in sorted(keys, key=lambda k: words(k).lower().rstrip("s") not in said):
        value, name = command[key], words(key).lower()
        if value is False or value is None:
            continue
        if value is True:
            parts.append(name)
        else:  # "Choose card: author", not "Choose card: card author"
            parts.append(value_label(value) if name.rstrip("s") in said else f"{name} {value_label(value)}")
    return f"{head}: {', '.join(parts)}" if parts else head


def answers(command: dict[str, Any]) -> dict[str, Any]:
    """The command's answers by path: ``type``, each field, each item of a list field."""
    flat: dict[str, Any] = {"type": command.get("type")}
    for key in sorted(k for k in command if k not in ("type", "seat")):
        value = command[key]
        if isinstance(value, list | tuple):
            for i, item in enumerate(value):
                flat[f"{key}.{i}"] = item
            flat[f"{key}.count"] = len(value)
        else:
            flat[key] = value
    return flat


def answer(path: str, value: Any, words_for: ValueLabel) -> str:
    """The answer ``value`` to the question on ``path``, in words (a value
    the engine has no words for and that reads as a slug, its words:
    "take-over" is "take over")."""
    name, _, index = path.partition(".")
    if path == "type":
        return words(value)
    if index == "count":
        return value_label(value)
    text = words_for(name, value)
    return (
        text.replace("-", " ") if isinstance(value, str) and text == value and SLUG.fullmatch(text) else text
    )


#: A value written as hyphenated words ("take-over"): an engine's, not a club member's.
SLUG = re.compile(r"[a-z]+(?:-[a-z]+)+")


def answer_of_several(path: str, value: Any, words_for: ValueLabel) -> str:
    """One answer of a button that answers several questions at once: a
    count with what it counts ("2 stacks"), the rest as ``answer`` words it."""
    name, _, index = path.partition(".")
    if index == "count":
        return counted(value, words(name).lower())
    return answer(path, value, words_for)


def told_apart(labels: list[str], values: list[Any]) -> list[str]:
    """``labels`` of distinct ``values``; two that read alike (two copies of
    one card) each add the value itself."""
    return [
        f"{t} ({value_label(v)})" if labels.count(t) > 1 else t for t, v in zip(labels, values, strict=True)
    ]


def path_label(path: str) -> str:
    name, _, index = path.partition(".")
    if index == "count":
        return f"How many {words(name).lower()}?"
    if index:
        return f"{words(name)} {int(index) + 1}?"
    return "Which action?" if name == "type" else f"{words(name)}?"


def plain_value(field: str, value: Any) -> str:
    return value_label(value)


def engine_labels(engine: Engine, state: Any, names: Sequence[str]) -> Label:
    """A whole command (its ``seat`` included) in the engine's words: its
    ``label`` hook when it has one, the command's type and fields otherwise."""
    hook = getattr(engine, "label", None)
    if hook is None:
        return command_label

    def label(command: dict[str, Any]) -> str:
        try:
            return hook(state, command, names)
        except RuleViolation:  # a label must not fail the page; the engine judges the entry
            return command_label(command)

    return label


def engine_value_labels(engine: Engine, state: Any, names: Sequence[str]) -> ValueLabel:
    """One value of a command's field in the engine's words: its
    ``label_value`` hook when it has one and words for the value, the value
    itself otherwise (a list: each item so)."""
    hook = getattr(engine, "label_value", None)
    if hook is None:
        return plain_value

    def label(field: str, value: Any) -> str:
        if isinstance(value, list | tuple):
            return ", ".join(label(field, v) for v in value) or "none"
        return hook(state, field, value, names) or value_label(value)

    return label


def reading(command: dict[str, Any], words_for: ValueLabel) -> str:
    """How a command reads to a person, answer by answer: two that read alike
    (the same action with either of two copies of one card) are one entry.
    Only names (a card, a group) are read in words; a number stays a number."""
    flat = answers(command)
    return json.dumps(
        [(p, answer(p, v, words_for) if isinstance(v, str) else v) for p, v in sorted(flat.items())],
        sort_keys=True,
    )


def die_names(request: ChanceRequest, names: Sequence[str]) -> list[str]:
    """Each die of ``request`` by the player it is rolled for ("Ben's die"),
    or by its number when it is nobody's."""
    seats = request.fixed.get("seats")
    if isinstance(seats, list | tuple) and len(seats) == request.dice:
        return [f"{seat_name(names, s)}'s die" for s in seats]
    if request.seat is not None and request.dice == 1:
        return [f"{seat_name(names, request.seat)}'s die"]
    if request.seat is not None:
        return [f"{seat_name(names, request.seat)}'s die {i + 1}" for i in range(request.dice)]
    return [f"Die {i + 1}" for i in range(request.dice)]


def seat_name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "The table"
