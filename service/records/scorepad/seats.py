"""A seat's choices on the scorepad: every entry it can make, narrowed one
question at a time, so that only legal commands can be entered.

A seat's choices come from the engine's ``legal_commands``: up to
``FINAL_AT`` commands are one button each, grouped by their type when there
are several; more are split by the first question on which they differ
(which card? which target?), then the largest group again, for as long as
the groups fit on the pad: a command alone in its group is one button, the
others one button per group that answers its questions at once and asks on.
A command after which the game awaits one die that the caller may enter
too is six buttons, one per face: the command and its roll in one tap.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from service.records.scorepad.choice import Choice, Label, Option, Then, ValueLabel, decode, encode
from service.records.scorepad.labels import (
    answer,
    answer_of_several,
    answers,
    command_label,
    die_names,
    path_label,
    plain_value,
    reading,
    told_apart,
    value_label,
    words,
)

#: A seat's legal commands up to this many are direct buttons, grouped by kind (no question first).
FINAL_AT = 24


def _finals(commands: list[dict[str, Any]], label: Label, words_for: ValueLabel) -> list[Option]:
    """One button per command; where two labels read alike, each says what
    else sets it apart: in words (another target), or as the values
    themselves when the words read alike too (two copies of one card)."""
    labels = [label(c) for c in commands]
    for text in {t for t in labels if labels.count(t) > 1}:
        alike = [i for i, t in enumerate(labels) if t == text]
        flats = [answers(commands[i]) for i in alike]
        differ = [k for k in flats[0] if any(f.get(k) != flats[0][k] for f in flats)]
        apart = [", ".join(answer(k, f.get(k), words_for) for k in differ) for f in flats]
        if len(set(apart)) < len(apart):
            apart = [", ".join(value_label(f.get(k)) for k in differ) for f in flats]
        for i, why in zip(alike, apart, strict=True):
            labels[i] = f"{text} ({why})"
    kinds = list(dict.fromkeys(c.get("type", "") for c in commands))
    grouped = len(kinds) > 1 and len(commands) > len(kinds)
    options = [
        Option(
            text,
            command={k: v for k, v in c.items() if k != "seat"},
            group=words(c.get("type", "")) if grouped else "",
        )
        for text, c in zip(labels, commands, strict=True)
    ]
    return sorted(options, key=lambda o: kinds.index(o.command.get("type", ""))) if grouped else options


def seat_choice(
    actor: int,
    commands: list[dict[str, Any]],
    picks: list[str],
    label: Label = command_label,
    words_for: ValueLabel = plain_value,
    then: Then | None = None,
    names: Sequence[str] = (),
) -> Choice | None:
    """The seat's legal commands narrowed by ``picks``, each final one worded
    by ``label`` and each answer to a question by ``words_for``; None when
    it has none. A final command that rolls one die (``then``) is six
    buttons, one per face: the command and its roll in one tap."""
    flats = _alike_once([(answers(c), {**c, "seat": actor}) for c in commands], words_for)
    if not flats:
        return None
    wanted = [decode(p) for p in picks]
    remaining = [(f, c) for f, c in flats if all(f.get(path) == value for path, value in wanted)]
    if not remaining:  # the game moved on since the picks were made
        remaining, wanted, picks = flats, [], []
    picked = [f"{path_label(path).rstrip('?')}: {answer(path, value, words_for)}" for path, value in wanted]
    if len(remaining) <= FINAL_AT:
        options = _finals([c for _, c in remaining], label, words_for)
        if then is not None:
            options = [r for o in options for r in _with_roll(o, actor, then, names)]
        return Choice(actor, "Which action?" if not wanted else "Which one?", options, picked)
    groups = _narrowed(remaining)
    asked = {g.asked[0][0] for g in groups if len(g.asked) == 1}
    question = path_label(asked.pop()) if len(asked) == 1 and all(len(g.asked) == 1 for g in groups) else ""
    singles = [g.commands[0] for g in groups if len(g.commands) == 1]
    finals = {_key(o.command): replace(o, group="") for o in _finals(singles, label, words_for)}
    leads = [g for g in groups if len(g.commands) > 1]
    texts = told_apart(
        [" · ".join(answer_of_several(path, value, words_for) for path, value in g.asked) for g in leads],
        [g.asked[-1][1] for g in leads],
    )
    led = {id(g): t for g, t in zip(leads, texts, strict=True)}
    options = [
        finals[_key(g.commands[0])]
        if len(g.commands) == 1
        else Option(led[id(g)], picks=(*picks, *(encode(path, value) for path, value in g.asked)))
        for g in groups
    ]
    return Choice(actor, question or "Which one?", options, picked)


def _alike_once(
    flats: list[tuple[dict[str, Any], dict[str, Any]]], words_for: ValueLabel
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Commands that read alike as one, the first of them: a person cannot tell
    them apart, and the table's game is the same whichever is entered."""
    seen: set[str] = set()
    out = []
    for flat, command in flats:
        read = reading(command, words_for)
        if read not in seen:
            seen.add(read)
            out.append((flat, command))
    return out


def _key(command: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in command.items() if k != "seat"}, sort_keys=True)


@dataclass(frozen=True)
class _Group:
    """Commands that answer the questions ``asked`` alike (path, value)."""

    asked: tuple[tuple[str, Any], ...]
    commands: list[dict[str, Any]]
    flats: list[dict[str, Any]]


def _narrowed(remaining: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[_Group]:
    """The remaining commands in at most ``FINAL_AT`` groups, as few commands
    to a group as that allows: the largest group is split by the first
    question its commands answer differently, for as long as the groups
    still fit on the pad. Each group is one button: a command alone is a
    final one (one tap enters it), the others ask on from their answers."""
    groups = [_Group((), [c for _, c in remaining], [f for f, _ in remaining])]
    while True:
        order = sorted(range(len(groups)), key=lambda i: -len(groups[i].commands))
        split = None
        for i in order:
            if len(groups[i].commands) < 2:
                break
            parts = _split(groups[i])
            if len(groups) - 1 + len(parts) <= FINAL_AT:
                split = (i, parts)
                break
            if not groups[0].asked and i == order[0] and len(groups) == 1:
                split = (i, parts)  # the first question is asked whatever its number of answers
                break
        if split is None:
            return groups
        i, parts = split
        groups[i : i + 1] = parts
        if len(groups) > FINAL_AT:
            return groups


def _split(group: _Group) -> list[_Group]:
    """``group`` split by the first question its commands answer differently."""
    paths: list[str] = []
    for f in group.flats:
        paths.extend(p for p in f if p not in paths)
    for path in paths:
        values: list[Any] = []
        for f in group.flats:
            if f.get(path) not in values:
                values.append(f.get(path))
        if len(values) > 1:
            return [
                _Group(
                    (*group.asked, (path, v)),
                    [c for f, c in zip(group.flats, group.commands, strict=True) if f.get(path) == v],
                    [f for f in group.flats if f.get(path) == v],
                )
                for v in values
            ]
    raise AssertionError("distinct commands differ somewhere")


def _with_roll(option: Option, actor: int, then: Then, names: Sequence[str]) -> list[Option]:
    """``option`` as six buttons under one heading when its command rolls one
    die and nothing else: each face enters the command and the roll together.
    A card drawn after a command is always asked next, on the table's pad (one
    way, whatever the deck holds then): the command is one button."""
    request = then({**option.command, "seat": actor})
    if request is None or request.dice != 1 or request.draw:
        return [option]
    chance = {"type": request.command, **dict(request.fixed)}
    heading = f"{option.label}, then {die_names(request, names)[0]}"
    return [
        Option(str(v), command=option.command, group=heading, then={**chance, "dice": [v]})
        for v in range(1, 7)
    ]
