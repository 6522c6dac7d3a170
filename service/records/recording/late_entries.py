"""An entry made on a version the game has since moved past.

Several phones may record one table game. An entry chosen on a phone that
had not yet seen another phone's entry is still applied when the entry means
what its maker meant: the same actor's command is legal now, nothing entered
in between was that actor's own, and nothing in between changed what they
were answering (a seat's legal entries, or the chance the table awaits, are
the same as when they chose). Otherwise nothing is stored and the maker is
told, in one line, what was entered meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import Engine, Event
from service.records.access import Viewer
from service.records.log import fold
from service.records.log.store import StoredEvent

#: The newest lines of what was entered meanwhile that the one line names.
LINES = 2


@dataclass(frozen=True)
class Verdict:
    applies: bool
    changed: str = ""  # what was entered meanwhile, when the entry no longer applies


def judge(
    engine: Engine,
    then: Any,
    now: Any,
    between: Sequence[StoredEvent],
    actor: int | None,
    command: dict[str, Any],
    names: Sequence[str],
    viewer: Viewer = "all",
) -> Verdict:
    """May ``actor``'s ``command``, chosen on state ``then``, be applied on
    ``now``, the events ``between`` having been entered since?"""
    if any(e.type in fold.SERVICE_EVENTS for e in between):
        return Verdict(False, _meanwhile(engine, between, names, viewer, "An entry was taken back"))
    if any(_actor_of(e) == actor for e in between if "command" in e.metadata):
        return Verdict(False, _meanwhile(engine, between, names, viewer))
    if actor is None:
        same_question = engine.chance(then) == engine.chance(now)
        still_legal = same_question and engine.chance(now) is not None
    else:
        asked = engine.legal_commands(then, actor)
        same_question = asked == engine.legal_commands(now, actor)
        still_legal = {**command, "seat": actor} in asked
    if not (same_question and still_legal):
        return Verdict(False, _meanwhile(engine, between, names, viewer))
    return Verdict(True)


def _actor_of(event: StoredEvent) -> int | None:
    return event.metadata["command"].get("seat")


def _meanwhile(
    engine: Engine, between: Sequence[StoredEvent], names: Sequence[str], viewer: Viewer, head: str = ""
) -> str:
    lines = []
    for stored in between:
        if stored.type in fold.SERVICE_EVENTS:
            continue
        event = Event(stored.type, stored.data)
        if viewer != "all":
            event = engine.redact(event, viewer)
        try:
            lines.append(engine.describe(event, names).rstrip("."))
        except Exception:  # noqa: BLE001 - a line of text must not fail the answer
            continue
    said = "; ".join(lines[-LINES:])
    more = f" (and {len(lines) - LINES} more)" if len(lines) > LINES else ""
    what = head or "Meanwhile"
    return f"{what}: {said}{more}. Choose again." if said else f"{what}. Choose again."
