"""Rounds of named phases and the round limit (engines/kit/rounds.py)."""

from dataclasses import dataclass, replace

import pytest

from engines.base import Event
from engines.kit.rounds import Phase, PhaseMachine, round_limit_reached


@dataclass(frozen=True)
class Toy:
    phase: str = "deal"
    round: int = 1
    dealt: bool = False
    waiting: bool = False


def _advance(state, phase):
    return [Event("PhaseBegan", {"phase": phase})] if phase else [Event("RoundEnded", {"round": state.round})]


MACHINE = PhaseMachine(
    [
        Phase("deal", lambda s: [] if s.dealt else [Event("Dealt")], lambda s: s.dealt),
        Phase("play", lambda s: [], lambda s: not s.waiting),
    ],
    _advance,
)


def test_a_phase_takes_its_automatic_events_first():
    assert MACHINE.automatic(Toy(), "deal") == [Event("Dealt")]


def test_a_done_phase_begins_the_next_and_the_last_ends_the_round():
    assert MACHINE.automatic(Toy(dealt=True), "deal") == [Event("PhaseBegan", {"phase": "play"})]
    assert MACHINE.automatic(replace(Toy(), phase="play"), "play") == [Event("RoundEnded", {"round": 1})]


def test_a_phase_waiting_for_someone_takes_no_event():
    assert MACHINE.automatic(Toy(waiting=True), "play") == []


def test_the_phases_are_in_order():
    assert MACHINE.first == "deal" and MACHINE.after("deal") == "play" and MACHINE.after("play") is None


def test_phase_names_are_distinct():
    with pytest.raises(ValueError):
        PhaseMachine([Phase("a", list, bool), Phase("a", list, bool)], _advance)


@pytest.mark.parametrize(
    "round_, limit, reached", [(3, 3, True), (2, 3, False), (4, 3, True), (99, None, False)]
)
def test_the_round_limit_ends_the_game_after_its_last_round(round_, limit, reached):
    assert round_limit_reached(round_, limit) is reached
