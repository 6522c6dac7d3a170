"""A deck whose order is partly known: known top cards, an unknown middle, known bottom cards.

Most decks need no order at all: every draw names its cards, so a deck is a
multiset and a shuffle is the multiset becoming the draw pile again. Some
games put cards back in known places, or deal a deck in piles of known size:

- ``top``: cards put back on top, known (LIFO: ``top[0]`` is drawn first);
- ``middle``: a multiset of unknown cards, drawn by chance;
- ``bottom``: cards put back underneath, known (FIFO: ``bottom[0]`` is the
  first of them to be drawn, once the middle is used up).

The middle may be split into *runs* of known size (``Run``), top first, each
holding the cards known to be somewhere in it (``holds``); the other middle
cards are spread at random over the runs' free places. A deck built as "five
cards, then the rest with one special card shuffled in, then twenty cards"
is three runs, the middle one holding the special card, so the special card
is never among the first five cards drawn nor among the last twenty.

A known card remembers which seats know it (``Known.seats``): the seat that
put it there, and any seat told later. ``view(seat)`` shows a seat the cards
it knows and only a count of the others, so a game's view and redacted events
never show a seat a card it could not know at the table.

Chance comes only from the place the next card must come from:
``next_place()`` says where that is, ``take_known()`` takes a known card
without chance, and ``request()`` builds the ``ChanceRequest`` for the middle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import ChanceRequest
from engines.kit.frozen import replace

TOP = "top"
MIDDLE = "middle"
BOTTOM = "bottom"


@dataclass(frozen=True)
class Known:
    """A card in a known place, and the seats that know it is there."""

    card: str
    seats: tuple[int, ...] = ()

    def known_by(self, seat: int | None) -> bool:
        return seat is not None and seat in self.seats


@dataclass(frozen=True)
class Run:
    """``count`` unknown cards in a row, among which are ``holds`` (places unknown)."""

    count: int
    holds: tuple[str, ...] = ()


def _sorted(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards))


def _without(pile: Sequence[str], cards: Iterable[str]) -> tuple[str, ...]:
    left = Counter(pile)
    left.subtract(cards)
    if any(n < 0 for n in left.values()):
        raise ValueError("those cards are not all in the pile")
    return _sorted(left.elements())


@dataclass(frozen=True)
class Deck:
    top: tuple[Known, ...] = ()
    middle: tuple[str, ...] = ()  # sorted: a multiset
    bottom: tuple[Known, ...] = ()
    runs: tuple[Run, ...] = ()  # empty: the whole middle is one run with no held cards

    def __len__(self) -> int:
        return len(self.top) + len(self.middle) + len(self.bottom)

    # --- where the next card comes from -------------------------------------

    def next_place(self) -> str | None:
        """``top``, ``middle`` or ``bottom``: where the next card drawn comes from (None: empty)."""
        if self.top:
            return TOP
        if self.middle:
            return MIDDLE
        if self.bottom:
            return BOTTOM
        return None

    def _free(self) -> tuple[str, ...]:
        """Middle cards not held by any run."""
        return _without(self.middle, (c for run in self.runs for c in run.holds))

    def request(
        self, command: str, count: int, seat: int | None = None, fixed: Mapping[str, Any] | None = None
    ) -> ChanceRequest | None:
        """The chance for up to ``count`` cards from the middle, when the next card comes from it.

        The draw stops at the end of the current run. When that run holds
        some cards and has free places too, one card is drawn at a time from
        a pool that names each held card once per free middle card and each
        free card once per free place of the run, so every card comes up with
        its true chance (a held card: 1 / the run's size).
        """
        if count <= 0 or self.next_place() != MIDDLE:
            return None
        run = self.runs[0] if self.runs else Run(len(self.middle))
        free = self._free()
        places = run.count - len(run.holds)
        if not run.holds:
            return ChanceRequest(
                command, draw=min(count, run.count), pool=free, seat=seat, fixed=dict(fixed or {})
            )
        if places == 0 or not free:
            pool = run.holds
            return ChanceRequest(
                command, draw=min(count, len(pool)), pool=pool, seat=seat, fixed=dict(fixed or {})
            )
        weighted = _sorted([*(h for h in run.holds for _ in free), *(f for f in free for _ in range(places))])
        return ChanceRequest(command, draw=1, pool=weighted, seat=seat, fixed=dict(fixed or {}))

    def unseen_by(self, seat: int | None) -> tuple[str, ...]:
        """The deck's cards ``seat`` (None: a spectator) cannot see: the
        middle, and the known cards that seat was not told."""
        told = (k.card for k in (*self.top, *self.bottom) if k.known_by(seat))
        return _without([*self.middle, *(k.card for k in (*self.top, *self.bottom))], told)

    # --- taking cards --------------------------------------------------------

    def take_known(self) -> tuple[Known, Deck]:
        """The next card, when its place is known (top, or bottom once the middle is empty)."""
        place = self.next_place()
        if place == TOP:
            return self.top[0], replace(self, top=self.top[1:])
        if place == BOTTOM:
            return self.bottom[0], replace(self, bottom=self.bottom[1:])
        raise ValueError("the next card is not in a known place")

    def take_drawn(self, cards: Sequence[str]) -> Deck:
        """The deck after ``cards`` were drawn from the middle (in draw order)."""
        middle = _without(self.middle, cards)
        runs = list(self.runs)
        for card in cards:
            if not runs:
                break
            run = runs[0]
            holds = list(run.holds)
            if card in holds:
                holds.remove(card)
            runs[0] = Run(run.count - 1, tuple(holds))
            if runs[0].count == 0:
                runs.pop(0)
        return replace(self, middle=middle, runs=tuple(runs))

    # --- putting cards back ---------------------------------------------------

    def put_top(self, card: str, seats: Iterable[int]) -> Deck:
        return replace(self, top=(Known(card, tuple(sorted(set(seats)))), *self.top))

    def put_bottom(self, card: str, seats: Iterable[int]) -> Deck:
        return replace(self, bottom=(*self.bottom, Known(card, tuple(sorted(set(seats))))))

    def shuffle_in(self, cards: Iterable[str]) -> Deck:
        """``cards`` shuffled into the middle; the middle becomes one run again."""
        return replace(self, middle=_sorted([*self.middle, *cards]), runs=())

    def split(self, runs: Sequence[Run]) -> Deck:
        """The middle dealt into runs of known size (top first); their counts add up to the middle."""
        if sum(r.count for r in runs) != len(self.middle):
            raise ValueError("the runs must add up to the middle")
        held = [c for r in runs for c in r.holds]
        _without(self.middle, held)
        if any(len(r.holds) > r.count for r in runs):
            raise ValueError("a run cannot hold more cards than its size")
        return replace(self, runs=tuple(r for r in runs if r.count))

    def tell(self, seat: int, place: str, index: int) -> Deck:
        """``seat`` learns the card at ``place[index]`` (a peek)."""
        cards = list(getattr(self, place))
        cards[index] = Known(cards[index].card, tuple(sorted({*cards[index].seats, seat})))
        return replace(self, **{place: tuple(cards)})

    # --- what a seat sees -----------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """The deck as ``seat`` knows it: a known card it does not know is ``None``."""
        return {
            "size": len(self),
            "top": [k.card if k.known_by(seat) else None for k in self.top],
            "middle_size": len(self.middle),
            "runs": [r.count for r in self.runs],
            "bottom": [k.card if k.known_by(seat) else None for k in self.bottom],
        }

    # --- plain JSON -------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        return {
            "top": [{"card": k.card, "seats": list(k.seats)} for k in self.top],
            "middle": list(self.middle),
            "bottom": [{"card": k.card, "seats": list(k.seats)} for k in self.bottom],
            "runs": [{"count": r.count, "holds": list(r.holds)} for r in self.runs],
        }

    @staticmethod
    def load(data: Mapping[str, Any]) -> Deck:
        return Deck(
            top=tuple(Known(k["card"], tuple(k["seats"])) for k in data["top"]),
            middle=tuple(data["middle"]),
            bottom=tuple(Known(k["card"], tuple(k["seats"])) for k in data["bottom"]),
            runs=tuple(Run(r["count"], tuple(r["holds"])) for r in data["runs"]),
        )


def deck_of(cards: Iterable[str]) -> Deck:
    """A shuffled deck: every card unknown, in one run."""
    return Deck(middle=_sorted(cards))
