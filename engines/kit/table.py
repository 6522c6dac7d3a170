"""The table view model: what a person sees on the table, in the catalog's words.

Every game's ``table(state, viewer, names)`` returns one plain-JSON shape, so a
page or a third-party client draws any game's table the same way without
knowing the engine's internals:

- ``caption``: where the game stands ("Round 2 · Ann's turn"); ``round`` and
  ``turn`` its two parts (a replay groups its steps by them);
- ``seats``: each seat's area, labelled with its player's name and its number
  counted from 1, whether it is that seat's turn or window (``acting``), its
  score so far in words, and its groups of cards (a hand, a cabinet, a base);
- ``areas``: what lies between the seats (the deck, the discards, problems...);
- ``facts``: other public figures, each a label and a value in words;
- ``diagram``: optional nodes and arrows (Final Decrees' control arrows).

A card is its catalog name, its kind and its value as printed, or a card face
down (``face_down``: its name is then "Face down"). Every value is already
words: no catalog id, no 0-based seat, no raw JSON reaches the shape.

Who sees a hand is the engine's ``view`` rule restated with ``may_see``: a
seat sees its own, the recorder (``"all"``) and everyone after the end see
every hand, a spectator (``None``) sees none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

Viewer = int | str | None  # a seat, "all" (everything) or None (a spectator)
FACE_DOWN = "Face down"


def may_see(viewer: Viewer, seat: int, over: bool = False) -> bool:
    """Whether ``viewer`` may see what only ``seat`` holds (a hand, a chosen card)."""
    return (
        over
        or viewer == "all"
        or (isinstance(viewer, int) and not isinstance(viewer, bool) and viewer == seat)
    )


def card(name: str, kind: str = "", value: str = "") -> dict[str, Any]:
    """A card face up: its catalog name, kind and value as printed."""
    return {"name": name, "kind": kind, "value": value, "face_down": False}


def face_down(kind: str = "") -> dict[str, Any]:
    """A card whose face the viewer may not see (``kind``: its back, when the back tells)."""
    return {"name": FACE_DOWN, "kind": kind, "value": "", "face_down": True}


def group(
    title: str, cards: Iterable[dict[str, Any]] = (), note: str = "", count: int | None = None
) -> dict[str, Any]:
    """A group of cards as it lies on the table, in order. ``count``: how many
    cards it holds when they are not all shown (a deck, a hidden hand)."""
    cards = list(cards)
    return {"title": title, "cards": cards, "count": len(cards) if count is None else count, "note": note}


def hand(
    title: str, cards: Iterable[dict[str, Any]], size: int, visible: bool, kind: str = ""
) -> dict[str, Any]:
    """A hand: its cards when the viewer may see them, else as many cards face down."""
    if visible:
        return group(title, cards)
    return group(title, [face_down(kind)] * size)


def pile(title: str, size: int, note: str = "") -> dict[str, Any]:
    """A face-down pile of which only the size is public (a deck)."""
    return group(title, [], note or count_words(size, "card"), count=size)


def fact(label: str, value: str) -> dict[str, str]:
    return {"label": label, "value": value}


def seat_area(
    names: Sequence[str],
    seat: int,
    groups: Iterable[dict[str, Any]] = (),
    score: str = "",
    acting: bool = False,
    notes: Iterable[str] = (),
) -> dict[str, Any]:
    """One seat's area: its player's name, its number counted from 1, and what lies before it."""
    return {
        "name": names[seat] if seat < len(names) else f"Seat {seat + 1}",
        "number": seat + 1,
        "acting": acting,
        "score": score,
        "notes": [n for n in notes if n],
        "groups": list(groups),
    }


def table(
    seats: list[dict[str, Any]],
    areas: Iterable[dict[str, Any]] = (),
    facts: Iterable[dict[str, str]] = (),
    round: str = "",
    turn: str = "",
    diagram: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "caption": " · ".join(p for p in (round, turn) if p),
        "round": round,
        "turn": turn,
        "seats": seats,
        "areas": list(areas),
        "facts": list(facts),
        "diagram": diagram,
    }


def diagram(nodes: Iterable[dict[str, str]], arrows: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Nodes (each a ``title`` and a ``detail`` line) and arrows between titles."""
    return {"nodes": list(nodes), "arrows": [{"from": a, "to": b} for a, b in arrows]}


def count_words(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def with_article(noun: str) -> str:
    """``noun`` with its indefinite article: "a mason", "an electrician"."""
    return f"{'an' if str(noun)[:1].lower() in 'aeiou' else 'a'} {noun}"


def counted(n: int, noun: str) -> str:
    """``n`` of a plural ``noun``, one of it singular: "1 pipe", "3 pipes" ("glass" stays)."""
    one = n == 1 and noun.endswith("s") and not noun.endswith("ss")
    return f"{n} {noun[:-1] if one else noun}"


def name_of(names: Sequence[str], seat: Any) -> str:
    """A seat's player, or "nobody" for what is not a seat."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return "nobody"


def whose(names: Sequence[str], seat: Any, what: str = "turn") -> str:
    """ "Ann's turn", or "" when ``seat`` is nobody."""
    return f"{names[seat]}'s {what}" if isinstance(seat, int) and 0 <= seat < len(names) else ""


def listing(items: Sequence[str]) -> str:
    """ "A, B and C"."""
    items = [i for i in items if i]
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def words(text: str) -> str:
    """An engine's word (a phase, a status) as a person writes it: "end-of-day" -> "End of day"."""
    text = str(text).replace("-", " ").replace("_", " ").strip()
    return text[:1].upper() + text[1:]
