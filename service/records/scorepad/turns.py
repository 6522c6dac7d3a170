"""Whose move: what a table game awaits now, as one caller may be told it. The
scorepad and the game page both say it from here, so they always agree: the
entries the caller is awaited for (a seat's, the table's chance, the cards
dealt into the caller's own hand), and what the game waits for from anyone
else, in words that reveal nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import ChanceRequest, Engine
from service.records import access
from service.records.access import Principal
from service.records.errors import Forbidden, NotFound
from service.records.game_record import Game
from service.records.scorepad import labels
from service.records.scorepad.choice import Label


@dataclass(frozen=True)
class Turn:
    """What ``game`` awaits now, from the caller's side of the table."""

    chance: ChanceRequest | None = None  # the table's chance, when the caller enters it
    seats: tuple[int, ...] = ()  # the seats the caller enters for whose entry the game awaits
    waiting: tuple[str, ...] = ()  # what the game awaits from others, in words

    def awaits(self, seat: int) -> bool:
        """Is it ``seat``'s move, as the caller enters for it: its entry, or the cards dealt into its hand?"""
        return seat in self.seats or (self.chance is not None and self.chance.dealt_to == seat)

    @property
    def own_cards(self) -> int:
        """The cards the caller is awaited to enter into their own hand (0: none)."""
        return self.chance.draw if self.chance is not None and self.chance.dealt_to is not None else 0


def whose_move(
    game: Game, principal: Principal | None, state: Any, names: Sequence[str], label: Label
) -> Turn:
    """What ``game`` (on ``state``) awaits, as ``principal`` may be told it:
    the entries it may make that the game awaits, and the rest as lines
    ("Waiting for Ana to enter their 6 cards", "Waiting for Ben's entry"),
    each worded by ``label`` where it names an entry. Nothing once the game is over."""
    if game.status != "active":
        return Turn()
    engine = game.engine
    request = engine.chance(state)
    waiting: list[str] = []
    chance = None
    if request is not None:
        if may_supply(game, principal, request):
            chance = request
        else:
            waiting.append(_waiting_for_chance(request, names, label))
    mine = access.actors(game, principal) if principal is not None else []
    seats = []
    for seat in range(len(game.seats)):
        commands = awaited(engine, state, seat)
        if not commands:
            continue
        if seat in mine:
            seats.append(seat)
        else:
            waiting.append(
                waiting_for_seat(names[seat], commands, access.may_see_seat(game, principal, seat))
            )
    return Turn(chance, tuple(seats), tuple(waiting))


def may_supply(game: Game, principal: Principal | None, request: ChanceRequest) -> bool:
    """``access.may_supply_chance`` as a question."""
    if principal is None:
        return False
    try:
        access.may_supply_chance(game, principal, request)
    except (Forbidden, NotFound):
        return False
    return True


def awaited(engine: Engine, state: Any, seat: int) -> list[dict[str, Any]]:
    """What the game waits for ``seat`` to enter: its legal commands but those it
    may send at any time (``Engine.any_time``), whose presence would tell what
    its hidden hand holds. The one reading of "whose move" for every page."""
    return [c for c in engine.legal_commands(state, seat) if c["type"] not in engine.any_time]


def waiting_for_seat(name: str, commands: list[dict[str, Any]], seen: bool) -> str:
    """A seat's entry awaited, by what it does when all its entries are one
    kind ("to place a bid") and the caller may see that seat (what it may do
    can tell what its hidden hand holds)."""
    kinds = {c["type"] for c in commands}
    if len(kinds) == 1 and seen:
        return f"Waiting for {name}: {labels.words(kinds.pop()).lower()}"
    return f"Waiting for {name}'s entry"


def _waiting_for_chance(request: ChanceRequest, names: Sequence[str], label: Label) -> str:
    """What the table awaits from someone else, revealing no card: a player's
    own cards by their name, the rest by the line the log will write."""
    if request.dealt_to is not None:
        count = request.draw
        cards = "card" if count == 1 else f"{count} cards"
        return f"Waiting for {names[request.dealt_to]} to enter their {cards}"
    return f"Waiting for the table: {label({'type': request.command, 'seat': None, **dict(request.fixed)})}"
