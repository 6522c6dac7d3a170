"""MacCreedy's Mansion on the table: each room's locations with the workers
their spaces need and who holds them, which are complete, the job track, the
revealed Event or Haunt card, and each company's funds, workers, storage, debts
and jobs (nothing in this game is hidden but the decks' order)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engines.kit import table as t
from engines.maccreedys_mansion.flow import actor
from engines.maccreedys_mansion.query import complete, debt_total, in_play, markers_in_hand, money, occupied
from engines.maccreedys_mansion.state import OVER, MmState
from engines.maccreedys_mansion.words import dollars


def job(state: MmState, job_id: str) -> dict[str, Any]:
    j = state.board.job[job_id]
    where = state.board.location[j.location].name if j.location in state.board.location else ""
    return t.card(j.name, f"Job at {where}" if where else "Job", f"Pays {dollars(j.reward)}")


def event_card(state: MmState, card_id: str) -> dict[str, Any]:
    c = state.board.card[card_id]
    kind = "Haunt" if any(h.id == card_id for h in state.board.haunts) else "Event"
    return t.card(c.name, kind, c.text)


def _counts(types: Sequence[str], counts: Sequence[int]) -> str:
    return t.listing([t.counted(n, t.words(k).lower()) for k, n in zip(types, counts, strict=False) if n])


def _room(state: MmState, room: Any, names: Sequence[str]) -> dict[str, Any]:
    taken = occupied(state)
    lines = []
    for loc_id in room.locations:
        loc = state.board.location[loc_id]
        spaces = []
        for space_id in loc.spaces:
            space = state.board.space[space_id]
            holder = taken.get(space_id)
            who = f" ({t.name_of(names, holder)})" if holder is not None else ""
            spaces.append(t.words(space.worker) + who)
        done = " — complete" if complete(state, loc_id) else ""
        lines.append(f"{loc.name}: {', '.join(spaces)}{done}")
    covered = room.id in state.covered or not all(in_play(state, loc) for loc in room.locations)
    title = room.name + (" (covered)" if covered else "")
    return t.group(title, note="; ".join(lines))


def table(state: MmState, viewer: t.Viewer, names: Sequence[str]) -> dict[str, Any]:
    over = state.phase == OVER
    board = state.board
    now = actor(state)
    seats = []
    for s, c in enumerate(state.companies):
        notes = [
            t.words(c.status.status) if c.status.status != "open" else "",
            f"Active funds {dollars(c.active)}, invested {dollars(c.invested)}",
            f"Hired: {_counts(board.worker_types, c.hired)}" if any(c.hired) else "",
            f"Not yet placed: {_counts(board.worker_types, c.unplaced)}" if any(c.unplaced) else "",
            f"Storage: {_counts(board.resource_types, c.storage)}" if any(c.storage) else "",
            f"Dedicated: {_counts(board.resource_types, c.dedicated)}" if any(c.dedicated) else "",
            f"Debts: {t.listing([t.counted(n, t.words(k).lower()) for k, n in sorted(Counter(c.debts).items())])}"
            f" (worth {dollars(debt_total(state, s))})"
            if c.debts
            else "",
            f"Markers in hand: {markers_in_hand(state, s)}",
        ]
        if state.high_bidder == s and state.high_bid:
            notes.append(f"High bid {dollars(state.high_bid)}")
        groups = [t.group("Jobs won", [job(state, j) for j in c.jobs])]
        seats.append(t.seat_area(names, s, groups, f"Worth {dollars(money(state, s))}", s == now, notes))
    areas = [_room(state, room, names) for room in board.rooms]
    areas.append(t.group("Job track", [job(state, j) for j in state.track]))
    if state.revealed:
        areas.append(t.group("Revealed", [event_card(state, state.revealed)]))
    areas += [
        t.pile("Job deck", len(state.job_deck)),
        t.pile("Event deck", len(state.event_deck)),
        t.group("Event discards", [event_card(state, c) for c in state.event_discard]),
        t.pile("Haunt deck", len(state.haunt_deck)),
        t.group("Haunt discards", [event_card(state, c) for c in state.haunt_discard]),
    ]
    facts = [
        t.fact("First player", t.name_of(names, state.first)),
        t.fact("Rounds", f"{state.round} of {state.max_rounds}"),
    ]
    if over and state.ended_by:
        facts.append(t.fact("Ended by", t.words(state.ended_by)))
    round, turn = heading(state, names)
    return t.table(seats, areas, facts, round=round, turn=turn)


def heading(state: MmState, names: Sequence[str]) -> tuple[str, str]:
    if state.phase == OVER:
        return "The end", ""
    return (
        f"Round {state.round}" if state.round else "Setting up",
        t.listing([t.words(state.phase), t.whose(names, actor(state))]),
    )
