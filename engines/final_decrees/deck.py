"""The Final Decrees deck: a shuffled deck with one card whose position is ruled.

FD-15: the Stagnation and Decline card (the *decline card*) is set aside, the
rest shuffled; one card is dealt to each player, 20 form the bottom pile, 5
the top pile, and the decline card is shuffled into the remainder, which goes
between them. So until it first comes out, the decline card is never among
the first 5 cards to leave the deck and never among the bottom 20. When it is
played it is shuffled into what is left of the deck: then it may be anywhere.

Nobody, not even the table, knows which cards are in which pile, so the deck
keeps its content as a multiset and the decline card's possible positions as
a *window* ``(first, last)`` counted from the top (1 is the next card):

- **table mode** checks only what the table could know: the decline card may
  be posted as the next card only when position 1 is inside the window, and
  must be when the window is down to position 1;
- **server mode** deals the decline card's exact position (uniformly inside
  the window) as chance when it enters the deck; the position stays hidden
  in the state and counts down with every card taken, and the decline card is
  the card dealt when it reaches 1. Every other draw is uniform over the
  remaining cards, which is exactly the distribution of the physical deck.

The segments of known size (5 on top, 20 at the bottom) are kept as counts
through the window. On a general deck of counted segments ("runs", top
first, each holding the cards known to be somewhere in it) the same deck is
``[5 cards, the middle holding the decline card, 20 cards]``: ``stacked`` is
that split, ``reshuffled`` shuffles the decline card into one run again, and
``next_pool`` is the pool of the next draw. Such a deck can deal the held
card with its true chance from a weighted pool instead of a dealt position;
the table-mode checks are the same.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

TOP_PILE = 5
BOTTOM_PILE = 20


@dataclass(frozen=True)
class Deck:
    cards: tuple[str, ...] = ()  # the other cards in the deck, sorted (order unknown)
    decline: str = ""  # the decline card's id
    window: tuple[int, int] | None = None  # where the decline card may be; None: not in the deck
    position: int | None = None  # server mode: where it is (hidden); None until dealt

    @property
    def size(self) -> int:
        return len(self.cards) + (1 if self.window else 0)

    @property
    def holds_decline(self) -> bool:
        return self.window is not None

    def next_pool(self, dealer: str) -> tuple[str, ...]:
        """The cards the next card may be, as the dealer of ``dealer`` mode knows it."""
        if self.window is None:
            return self.cards
        first, last = self.window
        if dealer == "server":
            return (self.decline,) if self.position == 1 else self.cards
        if last == 1:
            return (self.decline,)
        return (*self.cards, self.decline) if first == 1 else self.cards

    def positions(self) -> tuple[str, ...]:
        """Server mode: the decline card's possible positions, as the pool of its placement."""
        assert self.window is not None
        first, last = self.window
        return tuple(str(p) for p in range(first, last + 1))

    def placed(self, position: int) -> Deck:
        return replace(self, position=position)

    def take(self, taken: Sequence[str]) -> Deck:
        """The deck after ``taken`` left its top, in that order."""
        deck = self
        for card in taken:
            if card == deck.decline and deck.window is not None:
                deck = replace(deck, window=None, position=None)
                continue
            cards = list(deck.cards)
            cards.remove(card)
            window, position = deck.window, deck.position
            if window is not None:
                window = (max(1, window[0] - 1), window[1] - 1)
                position = None if position is None else position - 1
            deck = replace(deck, cards=tuple(cards), window=window, position=position)
        return deck

    def stacked(self) -> Deck:
        """FD-15: the decline card goes between the top 5 and the bottom 20."""
        size = len(self.cards) + 1
        return replace(self, window=(TOP_PILE + 1, size - BOTTOM_PILE), position=None)

    def reshuffled(self) -> Deck:
        """FD-42: the decline card is shuffled into what is left; it may be anywhere."""
        return replace(self, window=(1, len(self.cards) + 1), position=None)

    def holds(self, cards: Sequence[str]) -> bool:
        return not Counter(cards) - Counter(self.cards)

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "decline": self.decline,
            "window": None if self.window is None else list(self.window),
            "position": self.position,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deck:
        window = data["window"]
        return cls(
            tuple(data["cards"]), data["decline"], None if window is None else tuple(window), data["position"]
        )
