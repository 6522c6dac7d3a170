"""The table's chance on the scorepad: dice and cards entered from the engine's
``ChanceRequest``. one question per die (1 to 6) and per card drawn (from what
is left of the pool, in sorted order, so a draw is chosen once whatever the
order the cards were picked up in).

A draw of several cards is entered as a set, in any order: each card the
pool still holds is one button (copies that read alike, one button with a
count), each card chosen can be taken back, and the set records itself
when its last card is tapped (Undo takes it back); the command lists the cards in sorted order (the same hand however it
was picked up). A die is asked by the name of the player it is rolled for; a
pair of dice is one tap on a six-by-six grid (first die by row, second by column).

A draw that takes most of its pool is entered by the cards that stay
(tapping the five cards left of twenty-five, not the twenty discarded); one
that takes the whole pool is one button.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.base import ChanceRequest
from service.records.scorepad.choice import Choice, Label, Option, ValueLabel, decode, encode
from service.records.scorepad.labels import command_label, die_names, plain_value, words

#: A seat's legal commands up to this many are direct buttons, grouped by kind (no question first).
FINAL_AT = 24


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
