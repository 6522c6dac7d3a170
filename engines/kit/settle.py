"""The settle loop: a command's events, then whatever the game does by itself.

``decide`` returns every event a command leads to, so that the state it
leaves always waits for a player's choice or for chance. Each engine names
its automatic steps (``automatic(state) -> events``, empty when the game
waits for someone); the loop is written once, here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engines.base import Event, State

Evolve = Callable[[State, Event], State]
Automatic = Callable[[State], Sequence[Event]]

# A game whose automatic steps never settle has a bug; this bound turns an
# endless loop into an error a test can see.
MAX_AUTOMATIC_STEPS = 10_000


def settle(state: State, events: Sequence[Event], evolve: Evolve, automatic: Automatic) -> list[Event]:
    """``events`` followed by the automatic events they lead to, in order."""
    return settled(state, events, evolve, automatic)[0]


def as_given(event: Event) -> Event:
    return event


def settled(
    state: State,
    events: Sequence[Event],
    evolve: Evolve,
    automatic: Automatic,
    normal: Callable[[Event], Event] = as_given,
) -> tuple[list[Event], State]:
    """``events`` followed by the automatic events they lead to, each as
    ``normal`` makes it (the form it is kept in), and the state they leave,
    each event evolved once."""
    out = [normal(event) for event in events]
    for event in out:
        state = evolve(state, event)
    for _ in range(MAX_AUTOMATIC_STEPS):
        more = [normal(event) for event in automatic(state)]
        if not more:
            return out, state
        for event in more:
            state = evolve(state, event)
        out.extend(more)
    raise RuntimeError("the game's automatic steps did not settle")
