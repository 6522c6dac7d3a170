"""Chancellors on the table: the problems' dice, the three services and who
controls each, hands and face-down choices to whom may see them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.chancellors.cards import CARDS, SERVICES
from engines.chancellors.present import to_act
from engines.chancellors.state import OPEN, OVER, PART, SOLVED, ChancellorsState
from engines.kit import table as t


def card(card_id: str) -> dict[str, Any]:
    """A Decktet card as printed: its name, its suits, its rank."""
    c = CARDS[card_id]
    if c.rank == "excuse":
        return t.card(c.name, "Excuse")
    suits = t.listing([s.capitalize() for s in c.suits])
    rank = c.rank if c.rank.isdigit() else c.rank.capitalize()
    return t.card(c.name, suits, rank)


def _problem(number: int, dice: tuple[int, ...], status: str) -> dict[str, Any]:
    if status == SOLVED:
        note = f"Solved: dice {t.listing([str(d) for d in dice])} set aside"
    elif status == PART:
        note = f"Partly solved: die {dice[0]} stays, {dice[1]} set aside"
    elif dice:
        note = f"Dice {t.listing([str(d) for d in dice])}"
    else:
        note = "Not rolled yet"
    return t.group(f"Problem {number}", note=note)


def table(state: ChancellorsState, viewer: t.Viewer, names: Sequence[str]) -> dict[str, Any]:
    over = state.phase == OVER
    acting = to_act(state)
    seats = []
    for s in range(state.seats):
        sees = t.may_see(viewer, s, over)
        hand = sorted(state.hands[s])
        groups = [t.hand("Hand", [card(c) for c in hand], len(hand), sees)]
        chosen = state.chosen[s] if s < len(state.chosen) else None
        if chosen is not None:
            groups.append(t.group("Chosen face down", [card(chosen) if sees else t.face_down()]))
        held = [
            sv.title[:1].upper() + sv.title[1:] for i, sv in enumerate(SERVICES) if state.services[i] == s
        ]
        notes = [f"Controls {t.listing(held)}" if held else ""]
        if state.excuse_holder == s:
            notes.append("Holds the Excuse")
        seats.append(
            t.seat_area(names, s, groups, t.count_words(state.scores[s], "point"), s in acting, notes)
        )
    areas = [
        _problem(i + 1, p.dice, p.status)
        for i, p in enumerate(state.problems)
        if p.status in (OPEN, PART, SOLVED)
    ]
    for i, sv in enumerate(SERVICES):
        holder = state.services[i]
        areas.append(
            t.group(
                sv.title[:1].upper() + sv.title[1:],
                [card(sv.card)],
                note=f"Controlled by {names[holder]}" if holder is not None else "Nobody controls it",
            )
        )
    areas += [t.pile("Draw pile", len(state.pile)), t.group("Discards", [card(c) for c in state.discards])]
    facts = [t.fact("Target", t.count_words(state.target, "point"))]
    if over and state.ended_by:
        facts.append(t.fact("Ended by", t.words(state.ended_by)))
    round, turn = heading(state, names)
    return t.table(seats, areas, facts, round=round, turn=turn)


def heading(state: ChancellorsState, names: Sequence[str]) -> tuple[str, str]:
    if state.phase == OVER:
        return "The end", ""
    acting = to_act(state)
    waiting = f"Waiting for {t.listing([names[s] for s in acting])}" if acting else ""
    return (
        f"Turn {state.turn}" if state.turn else "Opening",
        t.listing([waiting, "" if state.phase is None else t.words(state.phase)]),
    )
