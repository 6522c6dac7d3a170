"""The scorepad's choices: every entry a recorder can make, narrowed one
question at a time, so that only legal commands can be entered.

A seat's choices come from the engine's ``legal_commands``: up to
``FINAL_AT`` commands are one button each, grouped by their type when there
are several; more are split by the first question on which they differ
(which card? which target?), then the largest group again, for as long as
the groups fit on the pad: a command alone in its group is one button, the
others one button per group that answers its questions at once and asks on.
A command after which the game awaits one die that the caller may enter
too is six buttons, one per face: the command and its roll in one tap. The table's chance comes from the engine's
``ChanceRequest``: one question per die (1 to 6) and per card drawn (from what
is left of the pool, in sorted order, so a draw is chosen once whatever the
order the cards were picked up in). Every button is a whole command; the
engine still judges it when it is posted. A seat's buttons read as the
engine words them (its ``label`` hook: the words of the log line the entry
will write), or by the command's type and fields for an engine without one.
An answer to a question (a card, a player, a group) reads as the engine
words that one value (its ``label_value`` hook: a card by its name, a seat
by its player's), or as the value itself.

A draw of several cards is entered as a set, in any order: each card the
pool still holds is one button (copies that read alike, one button with a
count), each card chosen can be taken back, and the set records itself
when its last card is tapped (Undo takes it back); the command lists the cards in sorted order (the same hand however it
was picked up). A die is asked by the name of the player it is rolled for; a
pair of dice is one tap on a six-by-six grid (first die by row, second by column).

A draw that takes most of its pool is entered by the cards that stay
(tapping the five cards left of twenty-five, not the twenty discarded); one
that takes the whole pool is one button. A command after which one card of
a few names is drawn is also one button per name, the command and its card
in one tap.

A pick is ``path=value`` (``card=P3``, ``dice.1=5``; the value as JSON).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engines.base import Amount, ChanceRequest, Engine, RuleViolation
from engines.kit.table import counted

#: A seat's legal commands up to this many are direct buttons, grouped by kind (no question first).
FINAL_AT = 24
#: A command after which one card is drawn is also one button per card name, up to this many names.
CARD_AFTER_AT = 8


@dataclass(frozen=True)
class Option:
    label: str
    picks: tuple[str, ...] = ()  # the picks that lead on (when ``command`` is None)
    command: dict[str, Any] | None = None  # a whole command, seat excluded
    count: int = 0  # a card of a set: how many of it may still be chosen (or are chosen)
    kind: str = ""  # a card of a set: its kind, for filtering a large deck
    group: str = ""  # a seat's command: its kind in words, under which the buttons are grouped
    then: dict[str, Any] | None = None  # the die rolled on the command, entered by the same tap


@dataclass(frozen=True)
class Choice:
    """What one actor (a seat, or None for the table's chance) may enter now."""

    actor: int | None
    question: str  # what the options answer
    options: list[Option] = field(default_factory=list)
    picked: list[str] = field(default_factory=list)  # the answers given so far, as labels
    title: str = ""  # what is being entered, when the actor alone does not say it
    chosen: list[Option] = field(default_factory=list)  # a set's cards so far; each takes one back
    needed: int = 0  # the cards a set holds when complete
    kinds: list[tuple[str, str]] = field(default_factory=list)  # (kind, words) when a deck has several
    grid: int = 0  # the options as a grid of this many columns (a pair of dice: one tap, six by six)
    stays: bool = False  # a set entered by the cards that stay (the draw takes most of the pool)
    own: bool = False  # the caller's own cards, entered on their own phone
    amounts: tuple[Amount, ...] = ()  # a number the seat may enter beyond the buttons (a bid of any sum)

    @property
    def key(self) -> str:
        return "table" if self.actor is None else str(self.actor)


def encode(path: str, value: Any) -> str:
    return f"{path}={json.dumps(value, separators=(',', ':'))}"


def decode(pick: str) -> tuple[str, Any]:
    path, _, raw = pick.partition("=")
    try:
        return path, json.loads(raw)
    except ValueError:
        return path, None


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


def _answer(path: str, value: Any, words_for: ValueLabel) -> str:
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


def _answer_of_several(path: str, value: Any, words_for: ValueLabel) -> str:
    """One answer of a button that answers several questions at once: a
    count with what it counts ("2 stacks"), the rest as ``_answer`` words it."""
    name, _, index = path.partition(".")
    if index == "count":
        return counted(value, words(name).lower())
    return _answer(path, value, words_for)


def _told_apart(labels: list[str], values: list[Any]) -> list[str]:
    """``labels`` of distinct ``values``; two that read alike (two copies of
    one card) each add the value itself."""
    return [
        f"{t} ({value_label(v)})" if labels.count(t) > 1 else t for t, v in zip(labels, values, strict=True)
    ]


def _path_label(path: str) -> str:
    name, _, index = path.partition(".")
    if index == "count":
        return f"How many {words(name).lower()}?"
    if index:
        return f"{words(name)} {int(index) + 1}?"
    return "Which action?" if name == "type" else f"{words(name)}?"


Label = Callable[[dict[str, Any]], str]
#: The chance a seat's command leads to, when the caller may enter it: ``command -> request``.
Then = Callable[[dict[str, Any]], ChanceRequest | None]
#: One value of a command's field in words: ``(field, value) -> text``.
ValueLabel = Callable[[str, Any], str]


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


def _finals(commands: list[dict[str, Any]], label: Label, words_for: ValueLabel) -> list[Option]:
    """One button per command; where two labels read alike, each says what
    else sets it apart: in words (another target), or as the values
    themselves when the words read alike too (two copies of one card)."""
    labels = [label(c) for c in commands]
    for text in {t for t in labels if labels.count(t) > 1}:
        alike = [i for i, t in enumerate(labels) if t == text]
        flats = [answers(commands[i]) for i in alike]
        differ = [k for k in flats[0] if any(f.get(k) != flats[0][k] for f in flats)]
        apart = [", ".join(_answer(k, f.get(k), words_for) for k in differ) for f in flats]
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
    picked = [f"{_path_label(path).rstrip('?')}: {_answer(path, value, words_for)}" for path, value in wanted]
    if len(remaining) <= FINAL_AT:
        options = _finals([c for _, c in remaining], label, words_for)
        if then is not None:
            rolled = [r for o in options for r in _with_roll(o, actor, then, names, words_for)]
            if len(rolled) > 2 * FINAL_AT:  # a card drawn after each of many entries: the entries alone
                rolled = [r for o in options for r in _with_roll(o, actor, then, names)]
            options = rolled
        return Choice(actor, "Which action?" if not wanted else "Which one?", options, picked)
    groups = _narrowed(remaining)
    asked = {g.asked[0][0] for g in groups if len(g.asked) == 1}
    question = _path_label(asked.pop()) if len(asked) == 1 and all(len(g.asked) == 1 for g in groups) else ""
    singles = [g.commands[0] for g in groups if len(g.commands) == 1]
    finals = {_key(o.command): replace(o, group="") for o in _finals(singles, label, words_for)}
    leads = [g for g in groups if len(g.commands) > 1]
    texts = _told_apart(
        [" · ".join(_answer_of_several(path, value, words_for) for path, value in g.asked) for g in leads],
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


def reading(command: dict[str, Any], words_for: ValueLabel) -> str:
    """How a command reads to a person, answer by answer: two that read alike
    (the same action with either of two copies of one card) are one entry.
    Only names (a card, a group) are read in words; a number stays a number."""
    flat = answers(command)
    return json.dumps(
        [(p, _answer(p, v, words_for) if isinstance(v, str) else v) for p, v in sorted(flat.items())],
        sort_keys=True,
    )


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


def _with_roll(
    option: Option, actor: int, then: Then, names: Sequence[str], words_for: ValueLabel | None = None
) -> list[Option]:
    """``option`` as six buttons under one heading when its command rolls one
    die and nothing else: each face enters the command and the roll together.
    With ``words_for``, a command after which one card is drawn from a pool
    of few names is also one button per name (after the command alone, for
    when the card is not known yet)."""
    request = then({**option.command, "seat": actor})
    if request is None:
        return [option]
    chance = {"type": request.command, **dict(request.fixed)}
    if request.dice == 1 and not request.draw:
        heading = f"{option.label}, then {die_names(request, names)[0]}"
        return [
            Option(str(v), command=option.command, group=heading, then={**chance, "dice": [v]})
            for v in range(1, 7)
        ]
    if words_for is None or request.draw != 1 or request.dice or not request.pool:
        return [option]
    by_words: dict[str, str] = {}  # a card's words -> the lowest-numbered copy, as a set enters it
    for card in sorted(set(request.pool)):
        by_words.setdefault(words_for("cards", card), card)
    if len(by_words) > CARD_AFTER_AT:
        return [option]
    who = _name(names, request.dealt_to) if request.dealt_to is not None else "the table"
    heading = f"{option.label}, then the card {who} draws"
    drawn = [
        Option(text, command=option.command, group=heading, then={**chance, "cards": [by_words[text]]})
        for text in sorted(by_words, key=str.casefold)
    ]
    return [option, *drawn]


def dice_after(request: ChanceRequest, names: Sequence[str]) -> dict[str, Any] | None:
    """The dice a shortcut's entries lead to, as buttons entering them on the
    same tap: one per face (one die), or six by six (a pair); None for any
    other chance."""
    if request.draw or request.dice not in (1, 2):
        return None
    dies = die_names(request, names)
    roll = {"type": request.command, **dict(request.fixed)}
    faces = range(1, 7)
    if request.dice == 1:
        options = [Option(str(a), then={**roll, "dice": [a]}) for a in faces]
        return {"question": f"{dies[0]}?", "options": options, "grid": 0}
    options = [Option(f"{a} and {b}", then={**roll, "dice": [a, b]}) for a in faces for b in faces]
    return {"question": f"{dies[0]} and {dies[1]}?", "options": options, "grid": 6}


def die_names(request: ChanceRequest, names: Sequence[str]) -> list[str]:
    """Each die of ``request`` by the player it is rolled for ("Ben's die"),
    or by its number when it is nobody's."""
    seats = request.fixed.get("seats")
    if isinstance(seats, list | tuple) and len(seats) == request.dice:
        return [f"{_name(names, s)}'s die" for s in seats]
    if request.seat is not None and request.dice == 1:
        return [f"{_name(names, request.seat)}'s die"]
    if request.seat is not None:
        return [f"{_name(names, request.seat)}'s die {i + 1}" for i in range(request.dice)]
    return [f"Die {i + 1}" for i in range(request.dice)]


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "The table"


def card_kind(card: str) -> str:
    """A card's kind as a numbered id says it (``crony-07``, ``tactic-hawks-2``: its first
    word), or "" for an id that is a card's own name."""
    return re.split(r"[-_ ]", card, maxsplit=1)[0] if re.search(r"\d+[a-z]?$", card) else ""


def _without_one(picks: Sequence[str], pick: str) -> tuple[str, ...]:
    """``picks`` with the last occurrence of ``pick`` taken out."""
    at = len(picks) - 1 - list(reversed(picks)).index(pick)
    return (*picks[:at], *picks[at + 1 :])


def own_cards(request: ChanceRequest) -> ChanceRequest:
    """``request`` as the seat it deals to is asked it on its own phone: from
    every card it cannot see (``unseen``), not from what is left of the deck,
    which would tell it what the others hold. (Unchanged when the pool is public.)"""
    return replace(request, pool=request.unseen) if request.unseen else request


def chance_choice(
    request: ChanceRequest,
    picks: list[str],
    label: Label = command_label,
    words_for: ValueLabel = plain_value,
    names: Sequence[str] = (),
) -> Choice:
    """The table's dice (die by die, each by whose it is) and draw (a set, in
    any order), under a title worded by ``label`` (the command without its
    dice or cards). Picks that no longer fit the request start it over."""
    decoded = [decode(p) for p in picks]
    dice = [v for p, v in decoded if p.startswith("dice.")]
    cards = [v for p, v in decoded if p == "card"]
    pool = Counter(request.pool)
    if (
        len(dice) > request.dice
        or len(cards) >= max(_tapped(request), 1)
        or any(not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6 for d in dice)
        or any(not isinstance(c, str) or pool[c] < n for c, n in Counter(cards).items())
        or (cards and len(dice) < request.dice)
    ):
        dice, cards, picks = [], [], []
    picks = list(picks)
    dies = die_names(request, names)
    picked = [f"{dies[i]}: {d}" for i, d in enumerate(dice)]
    base: dict[str, Any] = {"type": request.command, **dict(request.fixed)}
    title = label({**base, "seat": None})
    if request.dice:
        base["dice"] = dice
    if request.draw:
        base["cards"] = sorted(cards)
    if request.dice == 2 and not dice and not request.draw:  # a pair of dice: one tap
        options = [
            Option(f"{a} and {b}", command={**base, "dice": [a, b]}) for a in range(1, 7) for b in range(1, 7)
        ]
        return Choice(None, f"{dies[0]} and {dies[1]}?", options, picked, title, grid=6)
    if len(dice) < request.dice:
        last = len(dice) + 1 == request.dice and not request.draw
        options = [
            Option(str(v), command={**base, "dice": [*dice, v]})
            if last
            else Option(str(v), picks=(*picks, encode(f"dice.{len(dice)}", v)))
            for v in range(1, 7)
        ]
        return Choice(None, f"{dies[len(dice)]}?", options, picked, title)
    if not request.draw:
        return Choice(None, "Record", [Option(title, command=base)], picked, title)
    return _card_set(request, picks, cards, base, title, picked, words_for)


def _stays(request: ChanceRequest) -> bool:
    """A draw of most of the pool is entered by the cards that stay (fewer taps)."""
    return request.draw * 2 > len(request.pool)


def _tapped(request: ChanceRequest) -> int:
    """The cards tapped to enter ``request``'s set: those drawn, or those that stay."""
    return len(request.pool) - request.draw if _stays(request) else request.draw


def _card_set(
    request: ChanceRequest,
    picks: list[str],
    cards: list[str],
    base: Mapping[str, Any],
    title: str,
    picked: list[str],
    words_for: ValueLabel,
) -> Choice:
    if _stays(request):
        return _cards_that_stay(request, picks, cards, base, title, picked, words_for)
    left = Counter(request.pool) - Counter(cards)
    groups, order = _by_words(request.pool, words_for)
    chosen = _chosen_cards(picks, cards, groups, order, words_for)
    needed = request.draw
    last_card = len(cards) + 1 == needed  # the set records itself when its last card is tapped
    options = []
    for text in order:
        remaining = sum(left[c] for c in groups[text])
        if remaining <= 0:
            continue
        card = next(c for c in groups[text] if left[c] > 0)
        kind = card_kind(card)
        if last_card:
            whole = {**base, "cards": sorted([*cards, card])}
            options.append(Option(text, command=whole, count=remaining, kind=kind))
        else:
            options.append(Option(text, picks=(*picks, encode("card", card)), count=remaining, kind=kind))
    kinds = sorted({o.kind for o in options if o.kind})
    kind_words = [(k, words(k.replace("-", " "))) for k in kinds] if len(kinds) > 1 else []
    if needed == 1:
        question = "Which card?"
    elif last_card:
        question = f"Which card? The last of {needed}: tapping it records the set"
    else:
        question = f"Which cards? {len(cards)} of {needed} chosen"
    return Choice(None, question, options, picked, title, chosen, needed, kind_words)


def _by_words(pool: Sequence[str], words_for: ValueLabel) -> tuple[dict[str, list[str]], list[str]]:
    """A pool's card ids by the words they read as (identical cards read the
    same: one button), each list sorted, and those words in reading order."""
    groups: dict[str, list[str]] = {}
    for card in sorted(set(pool)):
        groups.setdefault(words_for("cards", card), []).append(card)
    return groups, sorted(groups, key=str.casefold)


def _chosen_cards(
    picks: Sequence[str],
    cards: Sequence[str],
    groups: Mapping[str, list[str]],
    order: Sequence[str],
    words_for: ValueLabel,
) -> list[Option]:
    """The cards tapped so far, one button per name with its count: tapping
    it takes the latest of them back."""
    counts = Counter(words_for("cards", c) for c in cards)
    return [
        Option(
            text,
            picks=_without_one(picks, encode("card", _last_chosen(picks, groups[text]))),
            count=counts[text],
            kind=card_kind(groups[text][0]),
        )
        for text in order
        if counts[text]
    ]


def _last_chosen(picks: Sequence[str], ids: Sequence[str]) -> str:
    """The id among ``ids`` chosen last (taking one back undoes the latest pick of it)."""
    for pick in reversed(picks):
        path, value = decode(pick)
        if path == "card" and value in ids:
            return value
    raise AssertionError("a chosen card is among the picks")


def _cards_that_stay(
    request: ChanceRequest,
    picks: list[str],
    staying: list[str],
    base: Mapping[str, Any],
    title: str,
    picked: list[str],
    words_for: ValueLabel,
) -> Choice:
    """A draw of most of the pool, entered by tapping the cards that stay
    (five taps, not twenty, for twenty cards of twenty-five); when every card
    is drawn, one button records them all."""
    stay = len(request.pool) - request.draw
    pool = Counter(request.pool)
    if stay == 0:
        whole = {**base, "cards": sorted(pool.elements())}
        text = f"All {request.draw} cards" if request.draw > 1 else words_for("cards", request.pool[0])
        return Choice(None, "Every card is drawn", [Option(text, command=whole)], picked, title, stays=True)
    groups, order = _by_words(request.pool, words_for)
    left = pool - Counter(staying)
    chosen = _chosen_cards(picks, staying, groups, order, words_for)
    last_card = len(staying) + 1 == stay
    options = []
    for text in order:
        remaining = sum(left[c] for c in groups[text])
        if remaining <= 0:
            continue
        card = next(c for c in reversed(groups[text]) if left[c] > 0)  # the draw keeps the lowest-numbered
        kind = card_kind(card)
        if last_card:
            drawn = left - Counter([card])
            options.append(
                Option(text, command={**base, "cards": sorted(drawn.elements())}, count=remaining, kind=kind)
            )
        else:
            options.append(Option(text, picks=(*picks, encode("card", card)), count=remaining, kind=kind))
    kinds = sorted({o.kind for o in options if o.kind})
    kind_words = [(k, words(k.replace("-", " "))) for k in kinds] if len(kinds) > 1 else []
    cards = "card stays" if stay == 1 else "cards stay"
    if last_card:
        question = f"{request.draw} of {len(request.pool)} are drawn: which {cards}? Tapping the last records the rest"
    else:
        question = (
            f"{request.draw} of {len(request.pool)} are drawn: which {cards}? {len(staying)} of {stay} chosen"
        )
    return Choice(None, question, options, picked, title, chosen, stay, kind_words, stays=True)
