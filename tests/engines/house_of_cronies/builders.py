"""Small builders for House of Cronies scenarios: a state set up directly,
cards named by what they are, commands applied or refused."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engines.base import GameConfig, RuleViolation
from engines.house_of_cronies import ENGINE
from engines.house_of_cronies.catalog import POSITIONS, parse_catalog
from engines.house_of_cronies.state import TURNS, HocState, Player, SeatStats, Window
from engines.house_of_cronies.tactics import waiting_seats
from tests.engine_contract import apply

CATALOG_PATH = Path(__file__).parents[3] / "engines" / "house_of_cronies" / "default_catalog.json"
BALEKA, THULI, PRAVIN, JACOB = 0, 1, 2, 3


@cache
def _catalog_text() -> str:
    return CATALOG_PATH.read_text()


def catalog_dict() -> dict[str, Any]:
    return json.loads(_catalog_text())


def config(seats: int = 4, dealer: str = "server", **options: Any) -> GameConfig:
    return GameConfig(seats=seats, options=options, dealer=dealer, catalog=catalog_dict())


@cache
def _parsed():
    return parse_catalog(catalog_dict())


def crony(name: str) -> str:
    """The id of the crony or foreign ally printed with ``name``."""
    for card in _parsed().cards:
        if card.name == name:
            return card.id
    raise KeyError(name)


def money(kind: str, value: int, nth: int = 0) -> str:
    """The ``nth`` influence/corruption card of that value."""
    ids = [c.id for c in _parsed().cards if c.type == kind and c.value == value]
    return ids[nth]


def inf(value: int, nth: int = 0) -> str:
    return money("influence", value, nth)


def cor(value: int, nth: int = 0) -> str:
    return money("corruption", value, nth)


def tactic(kind: str, nth: int = 0) -> str:
    ids = [c.id for c in _parsed().cards if c.type == "tactic" and c.tactic == kind]
    return ids[nth]


def build(
    seats: int = 4,
    *,
    speaker: int = 0,
    hands: Mapping[int, Iterable[str]] | None = None,
    tactics: Mapping[int, Iterable[str]] | None = None,
    cabinets: Mapping[int, Mapping[str, str]] | None = None,
    table: Iterable[str] = (),
    turn: int | None = None,
    turns_done: int | None = None,
    final: bool = False,
    gained: Iterable[int] = (),
    censured: Iterable[int] = (),
    main_deck: Iterable[str] | None = None,
    tactic_deck: Iterable[str] | None = None,
    tactic_discard: Iterable[str] = (),
    shebeens: Iterable[tuple[str, str]] = (),
    window: Window | None = None,
) -> HocState:
    """A state in the middle of a round (turns stage), everything not named
    still in its deck."""
    state = ENGINE.initial_state(config(seats))
    hands, tactics, cabinets = hands or {}, tactics or {}, cabinets or {}
    used_main: list[str] = list(table)
    used_tactics: list[str] = list(tactic_discard) + [t for _, t in shebeens]
    players = []
    for seat in range(seats):
        hand = tuple(sorted(hands.get(seat, ())))
        held = tuple(sorted(tactics.get(seat, ())))
        cabinet = [None] * len(POSITIONS)
        for position, card in cabinets.get(seat, {}).items():
            cabinet[POSITIONS.index(position)] = card
        used_main += [*hand, *(c for c in cabinet if c)]
        used_tactics += held
        players.append(Player(hand=hand, tactics=held, cabinet=tuple(cabinet)))
    deck = main_deck if main_deck is not None else [c for c in state.main_deck if c not in used_main]
    tdeck = (
        tactic_deck if tactic_deck is not None else [c for c in state.tactic_deck if c not in used_tactics]
    )
    turn = speaker if turn is None else turn
    return state.with_(
        stage=TURNS,
        round=1,
        speaker=speaker,
        final=final,
        players=tuple(players),
        table=tuple(table),
        main_deck=tuple(sorted(deck)),
        tactic_deck=tuple(sorted(tdeck)),
        tactic_discard=tuple(sorted(tactic_discard)),
        turn=turn,
        turns_done=(turn - speaker) % seats if turns_done is None else turns_done,
        gained=tuple(gained),
        censured=tuple(censured),
        shebeens=tuple(shebeens),
        window=window,
        stats=(SeatStats(),) * seats,
    )


def act(state: HocState, seat: int | None, kind: str, **fields: Any) -> tuple[HocState, list]:
    """Apply one command; return the new state and its events."""
    return apply(ENGINE, state, {"type": kind, "seat": seat, **fields})


def do(state: HocState, seat: int | None, kind: str, **fields: Any) -> HocState:
    return act(state, seat, kind, **fields)[0]


def refused(state: HocState, seat: int | None, kind: str, **fields: Any) -> str:
    """The rule code a command is refused with."""
    with pytest.raises(RuleViolation) as err:
        ENGINE.decide(state, {"type": kind, "seat": seat, **fields})
    return err.value.code


def passes(state: HocState, *seats: int) -> HocState:
    """The named seats pass on the open window, in that order."""
    for seat in seats:
        state = do(state, seat, "PassReaction")
    return state


def everyone_passes(state: HocState) -> HocState:
    """Every seat the open window waits for passes (a window waits for every
    seat that may answer, whatever its hand), so the window closes."""
    return passes(state, *waiting_seats(state))


def types(events: list) -> list[str]:
    return [e.type for e in events]


def draw(state: HocState, cards: list[str]) -> tuple[HocState, list]:
    """Answer the waiting draw with ``cards``."""
    request = ENGINE.chance(state)
    assert request is not None
    return act(state, None, "DrawCards", cards=cards, **request.fixed)


def cabinet(state: HocState, seat: int) -> dict[str, str]:
    return {p: c for p, c in zip(POSITIONS, state.players[seat].cabinet, strict=True) if c}
