"""Building MacCreedy's Mansion games for rule tests."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

from engines.base import GameConfig
from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion.flow import actor
from engines.maccreedys_mansion.state import MmState
from tests.engine_contract import apply

CATALOG = json.loads(
    (Path(__file__).parents[3] / "engines" / "maccreedys_mansion" / "default_catalog.json").read_text()
)
NAMES = ["Ada", "Bram", "Cleo", "Dov", "Esme"]
TRACK = ["job-front-door", "job-hearth", "job-shelves", "job-tub", "job-stove"]


def catalog() -> dict:
    return copy.deepcopy(CATALOG)


def config(seats: int = 2, dealer: str = "server", board: dict | None = None, **options) -> GameConfig:
    return GameConfig(seats=seats, options=options, dealer=dealer, catalog=board or catalog())


def new_game(seats: int = 2, track=TRACK, **options) -> MmState:
    """Round 1, Hiring: the track dealt with ``track`` in order."""
    cfg = config(seats, **options)
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
    for job in track:
        state = act(state, {"type": "DrawCard", "seat": None, "deck": "job", "cards": [job]})
    return state


def act(state: MmState, command: dict) -> MmState:
    return run(state, command)[0]


def run(state: MmState, command: dict):
    return apply(ENGINE, state, command)


def settle(state: MmState):
    """The automatic events from ``state`` and the state they lead to."""
    events = ENGINE.settle(state, [])
    for event in events:
        state = ENGINE.evolve(state, event)
    return state, events


def marks(state: MmState, *pairs: tuple[str, int]) -> MmState:
    """``state`` with markers on these (space, seat) pairs."""
    return state.with_(markers=tuple(sorted({*state.markers, *pairs})))


def company(state: MmState, seat: int, **changes) -> MmState:
    return state.with_company(seat, **changes)


def fill(state: MmState, location: str, seat: int) -> MmState:
    return marks(state, *[(space, seat) for space in state.board.location[location].spaces])


PASSES = {
    "hiring": "PassHiring",
    "end-of-day": "FinishDay",
    "haunt": "PassHaunt",
    "investments": "PassInvestments",
    "settle-up": "FinishSettling",
    "re-open": "StayClosed",
    "bidding": "PassBid",
}


def quiet(state: MmState, pool) -> str:
    """A card that does nothing (a job: the first), so ``until`` changes nothing by chance."""
    calm = [c for c in sorted(pool) if c in state.board.card and not state.board.card[c].effect]
    return calm[0] if calm else sorted(pool)[0]


def until(state: MmState, phase: str, card: str | None = None, max_steps: int = 500) -> MmState:
    """Play on, everyone passing (placing the first legal worker; drawing ``card`` or
    a card that does nothing), until ``phase`` begins."""
    return advance(state, phase, card, max_steps)[0]


def advance(state: MmState, phase: str, card: str | None = None, max_steps: int = 500):
    """``until``, also returning every event on the way; ``phase`` may be one
    the game passes through without stopping. Stops early if the game ends."""
    events = []
    for _ in range(max_steps):
        if state.phase in (phase, "over"):
            return state, events
        request = ENGINE.chance(state)
        if request is not None:
            pick = card if card in request.pool else quiet(state, request.pool)
            command = {"type": "DrawCard", "seat": None, **request.fixed, "cards": [pick]}
        else:
            seat = actor(state)
            if state.phase == "placement":
                command = ENGINE.legal_commands(state, seat)[0]
            else:
                command = {"type": PASSES[state.phase], "seat": seat}
        state, more = run(state, command)
        events += more
        if any(e.type == "PhaseBegan" and e.data["phase"] == phase for e in more):
            return state, events
    raise AssertionError(f"never reached {phase}")


def with_round(state: MmState, **changes) -> MmState:
    return replace(state, **changes)


def close(state: MmState, *seats: int, status: str = "closed") -> MmState:
    """``state`` (in Hiring) with these companies closed; the hiring turn moves to an open one."""
    from engines.kit.seats import SeatStatus
    from engines.maccreedys_mansion.flow import hiring_seats

    for seat in seats:
        state = state.with_company(seat, status=SeatStatus(status, max(state.round - 1, 0)))
    order = hiring_seats(state)
    return state.with_(turn=order[0] if order else None)
