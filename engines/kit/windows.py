"""Windows: a moment every seat in a list must answer before the game goes on.

Some games let players act at any time (Political Divide & Conquer's events:
"any time before rolling dice"). Those *any-time actions* are open to every
seat whenever the game is not waiting for chance. When the server deals the
chance itself it deals it in the same transaction as the action that caused
it, so nobody would ever get the chance to act between the two. A game
therefore opens a window before such chance: the chance is asked for only
once every seat the window waits for has passed.

- ``open_window(kind, seats)`` opens one (the game emits ``WindowOpened``);
- a seat answers with a pass (``WindowPassed``), or with an any-time action,
  which *reopens* the window: everyone but the actor must pass again, since
  the action may change what they want to do;
- when nobody is left to answer, the game's automatic step emits one
  ``WindowClosed`` (``closing``).

The same three events and ``PassWindow`` command serve every game, so their
lines (``describe``) are written once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import Event, RuleViolation
from engines.kit.frozen import replace

WINDOW_OPENED = "WindowOpened"  # kind, seats
WINDOW_PASSED = "WindowPassed"  # kind, seat
WINDOW_CLOSED = "WindowClosed"  # kind
WINDOW_EVENTS = (WINDOW_OPENED, WINDOW_PASSED, WINDOW_CLOSED)
PASS_WINDOW = "PassWindow"


@dataclass(frozen=True)
class Window:
    kind: str
    seats: tuple[int, ...]  # every seat that must answer
    passed: tuple[int, ...] = ()

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats still to answer, in seat order."""
        return tuple(s for s in self.seats if s not in self.passed)

    def passing(self, seat: int) -> Window:
        return replace(self, passed=tuple(sorted({*self.passed, seat})))

    def reopened(self, by: int | None) -> Window:
        """After an any-time action by ``by``: every other seat answers again."""
        return replace(self, passed=(by,) if by in self.seats else ())

    def dump(self) -> dict[str, Any]:
        return {"kind": self.kind, "seats": list(self.seats), "passed": list(self.passed)}

    @staticmethod
    def load(data: Mapping[str, Any] | None) -> Window | None:
        if data is None:
            return None
        return Window(data["kind"], tuple(data["seats"]), tuple(data["passed"]))


def open_window(kind: str, seats: Iterable[int]) -> Event:
    """The event that opens a window waiting for ``seats``."""
    return Event(WINDOW_OPENED, {"kind": kind, "seats": sorted(set(seats))})


def decide_pass(window: Window | None, seat: int) -> list[Event]:
    """Judge ``PassWindow``: refused when no window waits for ``seat``."""
    if window is None:
        raise RuleViolation("no-window-open", "There is nothing to pass on: no window is open.")
    if seat not in window.seats:
        raise RuleViolation("not-in-window", f"This {window.kind} window does not wait for seat {seat}.")
    if seat in window.passed:
        raise RuleViolation("already-passed", f"Seat {seat} has passed in this window.")
    return [Event(WINDOW_PASSED, {"kind": window.kind, "seat": seat})]


def closing(window: Window | None) -> list[Event]:
    """The automatic step: ``WindowClosed`` once nobody is left to answer."""
    if window is None or window.waiting:
        return []
    return [Event(WINDOW_CLOSED, {"kind": window.kind})]


def evolve_window(window: Window | None, event: Event) -> Window | None:
    """Apply a window event; any other event leaves the window as it is."""
    if event.type == WINDOW_OPENED:
        return Window(event.data["kind"], tuple(event.data["seats"]))
    if event.type == WINDOW_PASSED and window is not None:
        return window.passing(event.data["seat"])
    if event.type == WINDOW_CLOSED:
        return None
    return window


def pass_commands(window: Window | None, seat: int | None) -> list[dict[str, Any]]:
    """``PassWindow`` for ``seat`` if the open window waits for it."""
    if window is None or seat is None or seat not in window.waiting:
        return []
    return [{"type": PASS_WINDOW, "seat": seat}]


def view(window: Window | None) -> dict[str, Any] | None:
    """Who a window waits for is public."""
    if window is None:
        return None
    return {"kind": window.kind, "waiting_for": list(window.waiting)}


def describe(event: Event, names: Sequence[str], kinds: Mapping[str, str]) -> str:
    """A window event's line; ``kinds`` names each window kind in plain words."""
    kind = kinds.get(event.data.get("kind", ""), str(event.data.get("kind")))
    if event.type == WINDOW_OPENED:
        return f"Last call before {kind}: everyone may still act, or pass."
    if event.type == WINDOW_PASSED:
        seat = event.data.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"Seat {seat}"
        return f"{who} passes before {kind}."
    return f"Everyone has passed: {kind} goes ahead."
