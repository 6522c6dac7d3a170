"""The Decktet, as plain Python data.

Transcribed from ``decktet.json`` (the project's shared reference) so that the
engine does no I/O; a test checks the two agree. ``CARDS`` adds an id to each
card: its name, lower-cased, without "The", words joined by hyphens.
"""

from __future__ import annotations

from dataclasses import dataclass

ABOUT = "The Decktet: 36 basic cards plus 9 extended cards (4 Pawns, 4 Courts, the Excuse). Rank order for comparing cards: ace < 2 < ... < 9 < pawn < court < crown. 'value' is the face value used for sums; null means the value depends on the game's rule (in Chancellors: Crowns, Pawns and Courts count as the higher die of the problem). Suit order convention: moons, suns, waves, leaves, wyrms, knots. Checked against several independent public listings of the deck."

RANK_ORDER: tuple[str, ...] = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "pawn", "court", "crown")

# (name, rank, value, suits, deck), in the reference file's order.
DECKTET: tuple[tuple[str, str, int | None, tuple[str, ...], str], ...] = (
    ("Ace of Moons", "ace", 1, ("moons",), "basic"),
    ("Ace of Suns", "ace", 1, ("suns",), "basic"),
    ("Ace of Waves", "ace", 1, ("waves",), "basic"),
    ("Ace of Leaves", "ace", 1, ("leaves",), "basic"),
    ("Ace of Wyrms", "ace", 1, ("wyrms",), "basic"),
    ("Ace of Knots", "ace", 1, ("knots",), "basic"),
    ("The Author", "2", 2, ("moons", "knots"), "basic"),
    ("The Desert", "2", 2, ("suns", "wyrms"), "basic"),
    ("The Origin", "2", 2, ("waves", "leaves"), "basic"),
    ("The Journey", "3", 3, ("moons", "waves"), "basic"),
    ("The Painter", "3", 3, ("suns", "knots"), "basic"),
    ("The Savage", "3", 3, ("leaves", "wyrms"), "basic"),
    ("The Mountain", "4", 4, ("moons", "suns"), "basic"),
    ("The Sailor", "4", 4, ("waves", "leaves"), "basic"),
    ("The Battle", "4", 4, ("wyrms", "knots"), "basic"),
    ("The Forest", "5", 5, ("moons", "leaves"), "basic"),
    ("The Discovery", "5", 5, ("suns", "waves"), "basic"),
    ("The Soldier", "5", 5, ("wyrms", "knots"), "basic"),
    ("The Lunatic", "6", 6, ("moons", "waves"), "basic"),
    ("The Penitent", "6", 6, ("suns", "wyrms"), "basic"),
    ("The Market", "6", 6, ("leaves", "knots"), "basic"),
    ("The Chance Meeting", "7", 7, ("moons", "leaves"), "basic"),
    ("The Castle", "7", 7, ("suns", "knots"), "basic"),
    ("The Cave", "7", 7, ("waves", "wyrms"), "basic"),
    ("The Diplomat", "8", 8, ("moons", "suns"), "basic"),
    ("The Mill", "8", 8, ("waves", "leaves"), "basic"),
    ("The Betrayal", "8", 8, ("wyrms", "knots"), "basic"),
    ("The Pact", "9", 9, ("moons", "suns"), "basic"),
    ("The Darkness", "9", 9, ("waves", "wyrms"), "basic"),
    ("The Merchant", "9", 9, ("leaves", "knots"), "basic"),
    ("The Huntress", "crown", None, ("moons",), "basic"),
    ("The Bard", "crown", None, ("suns",), "basic"),
    ("The Sea", "crown", None, ("waves",), "basic"),
    ("The End", "crown", None, ("leaves",), "basic"),
    ("The Calamity", "crown", None, ("wyrms",), "basic"),
    ("The Windfall", "crown", None, ("knots",), "basic"),
    ("The Harvest", "pawn", None, ("moons", "suns", "leaves"), "extended"),
    ("The Watchman", "pawn", None, ("moons", "wyrms", "knots"), "extended"),
    ("The Light Keeper", "pawn", None, ("suns", "waves", "knots"), "extended"),
    ("The Borderland", "pawn", None, ("waves", "leaves", "wyrms"), "extended"),
    ("The Consul", "court", None, ("moons", "waves", "knots"), "extended"),
    ("The Rite", "court", None, ("moons", "leaves", "wyrms"), "extended"),
    ("The Island", "court", None, ("suns", "waves", "wyrms"), "extended"),
    ("The Window", "court", None, ("suns", "leaves", "knots"), "extended"),
    ("The Excuse", "excuse", None, (), "extended"),
)


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    rank: str
    value: int | None  # None: counts as the higher die of the problem (Crowns, Pawns, Courts)
    suits: tuple[str, ...]
    deck: str  # "basic" or "extended"

    @property
    def strength(self) -> int:
        """Position in the rank order (Ace 0 ... Crown 11); the Excuse has none (-1)."""
        return RANK_ORDER.index(self.rank) if self.rank in RANK_ORDER else -1

    def value_for(self, dice: tuple[int, ...]) -> int:
        """What the card counts for against a problem: its rank, or the higher die."""
        return self.value if self.value is not None else max(dice)


def card_id(name: str) -> str:
    words = name.lower().split()
    if words[0] == "the":
        words = words[1:]
    return "-".join(words)


CARDS: dict[str, Card] = {
    card_id(name): Card(card_id(name), name, rank, value, suits, deck)
    for name, rank, value, suits, deck in DECKTET
}

EXCUSE = "excuse"


@dataclass(frozen=True)
class Service:
    """A royal service, represented by the personality card taken out of the deck."""

    id: str
    title: str  # as the rulebook names it
    card: str


# In the order the services act in step B: decreasing rank of their cards.
SERVICES: tuple[Service, ...] = (
    Service("diplomatic-corps", "the Diplomatic corps", "diplomat"),
    Service("army", "the Army", "soldier"),
    Service("navy", "the Navy", "sailor"),
)
SERVICE_IDS: tuple[str, ...] = tuple(s.id for s in SERVICES)
SERVICE_CARDS: frozenset[str] = frozenset(s.card for s in SERVICES)


def service_suits(index: int) -> tuple[str, ...]:
    return CARDS[SERVICES[index].card].suits


def deck(pawns: bool, courts: bool, excuse: bool) -> tuple[str, ...]:
    """The cards shuffled at setup: the Decktet without the three service cards."""
    keep = []
    for card in CARDS.values():
        if card.id in SERVICE_CARDS:
            continue
        if card.rank == "pawn" and not pawns:
            continue
        if card.rank == "court" and not courts:
            continue
        if card.rank == "excuse" and not excuse:
            continue
        keep.append(card.id)
    return tuple(sorted(keep))


def label(cid: str) -> str:
    """The card as the rulebook writes it: "the 9 of Leaves and Knots"."""
    card = CARDS[cid]
    if card.rank == "excuse":
        return "the Excuse"
    suits = [s.capitalize() for s in card.suits]
    joined = suits[0] if len(suits) == 1 else ", ".join(suits[:-1]) + " and " + suits[-1]
    rank = card.rank.capitalize() if not card.rank.isdigit() else card.rank
    return f"the {rank} of {joined}"
