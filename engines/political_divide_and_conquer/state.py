"""Political Divide & Conquer state: frozen dataclasses, tuples and plain values.

Hands are sorted (a hand is a multiset); bases, the unaffiliated area and
every stack keep their order (a stack's newest card is last). The deck keeps
its known top and bottom cards (``engines.kit.deck``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engines.kit.deck import Deck
from engines.kit.frozen import replace
from engines.kit.items import SeatedRecord
from engines.kit.windows import Window
from engines.political_divide_and_conquer.catalog import CardDef, Catalog

SETUP = "setup"  # dealing, turning up the opening group, rolling for the first player
TURNS = "turns"
OVER = "over"

# the steps of a turn
DRAWING = "drawing"  # the turn's cards are being drawn
KEEPING = "keeping"  # keep one card, return the other
CHOOSING = "choosing"  # take one of A to D
ATTACKING = "attacking"  # an attack is under way
DONE = "done"  # the turn's choice is made; the turn ends

# the steps of an attack
RAISE = "raise"  # the defender raises or calls
ANTE = "ante"  # the attacker may up the ante
PRE_ROLL = "pre-roll"  # the window before the roll
ROLL = "roll"  # the dice are awaited


@dataclass(frozen=True)
class Draw:
    """Cards the game waits to draw from the deck into a seat's hand."""

    seat: int
    count: int
    reason: str  # deal, turn, event


@dataclass(frozen=True)
class Pick:
    """Cards the game waits to take at random from a hand (an event's effect)."""

    source: int
    to: int | None  # a seat, or None: the discard heap
    count: int
    by: int  # the seat whose event it is


@dataclass(frozen=True)
class Attack:
    attacker: int
    target: str
    intent: str  # take-over or destroy
    defender: int | None  # the target's owner, None when unaffiliated
    team: tuple[str, ...]  # groups laid from the hand
    from_base: tuple[str, ...] = ()  # Conspiracy Theorist groups from the attacker's base
    defence: tuple[str, ...] = ()  # groups the defender laid from the hand
    step: str = RAISE
    attack_bonus: int = 0
    defence_bonus: int = 0

    @property
    def groups(self) -> tuple[str, ...]:
        """Every group the attack involves: stacks may go on any of them."""
        return (*self.team, *self.from_base, self.target, *self.defence)


@dataclass(frozen=True)
class SeatStats:
    attacks: int = 0
    attacks_won: int = 0
    groups_taken_over: int = 0
    groups_destroyed: int = 0
    groups_lost: int = 0
    defences_raised: int = 0
    events_played: int = 0
    cards_returned_top: int = 0
    cards_returned_bottom: int = 0


@dataclass(frozen=True)
class Player:
    hand: tuple[str, ...] = ()
    base: tuple[str, ...] = ()


@dataclass(frozen=True)
class PdcState(SeatedRecord):
    catalog: Catalog
    seats: int
    stage: str = "new"
    deck: Deck = Deck()
    players: tuple[Player, ...] = ()
    unaffiliated: tuple[str, ...] = ()
    stacks: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (group, cards oldest first), by group id
    discard: tuple[str, ...] = ()
    turned_up: tuple[str, ...] = ()  # setup: non-groups turned up before the opening group
    contenders: tuple[int, ...] = ()  # setup: seats still rolling for the first player
    pending: tuple[Draw | Pick, ...] = ()
    turn: int | None = None
    step: str | None = None
    drawn: tuple[str, ...] = ()  # the cards this turn's draw brought
    hand_was_empty: bool = False
    attack: Attack | None = None
    window: Window | None = None
    ending: int | None = None  # the seat that drew the deck's last card
    turns: int = 0
    stats: tuple[SeatStats, ...] = ()
    scores: tuple[int, ...] = ()  # set when the game ends

    def card(self, card_id: str) -> CardDef:
        return self.catalog.card(card_id)

    def stack(self, group: str) -> tuple[str, ...]:
        for g, cards in self.stacks:
            if g == group:
                return cards
        return ()

    def with_stack(self, group: str, cards: tuple[str, ...]) -> PdcState:
        rest = {g: c for g, c in self.stacks if g != group}
        if cards:
            rest[group] = cards
        return replace(self, stacks=tuple(sorted(rest.items())))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def dump_state(state: PdcState) -> dict[str, Any]:
    """The state as JSON, without the catalog (the game's config holds it)."""
    plain = {
        f: getattr(state, f) for f in state.__dataclass_fields__ if f not in ("catalog", "deck", "window")
    }
    data = _plain({**plain, "attack": None, "players": (), "pending": (), "stats": ()})
    data["attack"] = None if state.attack is None else _plain(asdict(state.attack))
    data["players"] = [_plain(asdict(p)) for p in state.players]
    data["pending"] = [{"kind": type(p).__name__.lower(), **asdict(p)} for p in state.pending]
    data["stats"] = [asdict(s) for s in state.stats]
    data["deck"] = state.deck.dump()
    data["window"] = None if state.window is None else state.window.dump()
    return data


def _pending(data: dict[str, Any]) -> Draw | Pick:
    fields = {k: v for k, v in data.items() if k != "kind"}
    return Draw(**fields) if data["kind"] == "draw" else Pick(**fields)


def load_state(data: dict[str, Any], catalog: Catalog) -> PdcState:
    attack = data["attack"]
    return PdcState(
        catalog=catalog,
        seats=data["seats"],
        stage=data["stage"],
        deck=Deck.load(data["deck"]),
        players=tuple(Player(tuple(p["hand"]), tuple(p["base"])) for p in data["players"]),
        unaffiliated=tuple(data["unaffiliated"]),
        stacks=tuple((g, tuple(c)) for g, c in data["stacks"]),
        discard=tuple(data["discard"]),
        turned_up=tuple(data["turned_up"]),
        contenders=tuple(data["contenders"]),
        pending=tuple(_pending(p) for p in data["pending"]),
        turn=data["turn"],
        step=data["step"],
        drawn=tuple(data["drawn"]),
        hand_was_empty=data["hand_was_empty"],
        attack=None
        if attack is None
        else Attack(
            **{k: tuple(v) if isinstance(v, list) else v for k, v in attack.items()},
        ),
        window=Window.load(data["window"]),
        ending=data["ending"],
        turns=data["turns"],
        stats=tuple(SeatStats(**s) for s in data["stats"]),
        scores=tuple(data["scores"]),
    )
