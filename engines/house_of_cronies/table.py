"""House of Cronies on the table: cabinets by position, hands and tactics to
whom may see them, the cards laid out, the auction, the tactic being answered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.house_of_cronies.catalog import ALLY, CRONY, POSITIONS, TACTIC_NAMES
from engines.house_of_cronies.query import active_placer, votes
from engines.house_of_cronies.state import OPENING, OVER, HocState
from engines.house_of_cronies.tactics import point_of_order_seats, window_seats
from engines.kit import table as t


def card(state: HocState, card_id: str) -> dict[str, Any]:
    """A card as printed: a crony or ally with its votes, money with its face value, a tactic."""
    c = state.card(card_id)
    if c.type in (CRONY, ALLY):
        return t.card(c.name, t.words(c.type), t.count_words(c.votes, "vote"))
    if c.is_money:
        return t.card(c.label(), t.words(c.type), str(c.value))
    return t.card(c.label(), "Tactic")


def _position(position: str) -> str:
    return t.words(position)


def table(state: HocState, viewer: t.Viewer, names: Sequence[str]) -> dict[str, Any]:
    over = state.stage == OVER
    totals, penalties = votes(state) if not over else (list(state.votes), [0] * state.seats)
    acting = _acting(state)
    seats = []
    for s, p in enumerate(state.players):
        sees = t.may_see(viewer, s, over)
        cabinet = [
            {**card(state, c), "kind": _position(pos)}
            for pos, c in zip(POSITIONS, p.cabinet, strict=True)
            if c
        ]
        vacant = [_position(pos) for pos, c in zip(POSITIONS, p.cabinet, strict=True) if not c]
        groups = [
            t.group("Cabinet", cabinet, note=f"Vacant: {t.listing(vacant)}" if vacant else ""),
            t.hand("Hand", [card(state, c) for c in p.hand], len(p.hand), sees, "Main deck"),
            t.hand("Tactics", [card(state, c) for c in p.tactics], len(p.tactics), sees, "Tactic"),
        ]
        if p.to_place:
            shown = sees or state.stage != OPENING
            groups.append(t.hand("To place", [card(state, c) for c in p.to_place], len(p.to_place), shown))
        notes = []
        if s == state.speaker:
            notes.append("Speaker")
        if s in state.censured:
            notes.append("Under a motion of no confidence")
        if penalties[s]:
            notes.append(f"Penalty: {t.count_words(penalties[s], 'vote')}")
        seats.append(
            t.seat_area(
                names, s, groups, score=t.count_words(totals[s], "vote"), acting=s in acting, notes=notes
            )
        )
    areas = [
        t.group("Laid out on the table", [card(state, c) for c in state.table]),
        t.pile("Main deck", len(state.main_deck)),
        t.pile("Tactic deck", len(state.tactic_deck)),
        t.group("Main discards", [card(state, c) for c in state.main_discard]),
        t.group("Tactic discards", [card(state, c) for c in state.tactic_discard]),
    ]
    if state.auction is not None:
        a = state.auction
        areas.insert(
            0,
            t.group(
                "Auction",
                [card(state, a.card)],
                note=f"High bid {a.value} by {t.name_of(names, a.high)}"
                + (f"; {names[a.asking]} is asked to raise" if a.asking is not None else ""),
            ),
        )
    if state.chain:
        areas.insert(
            0,
            t.group(
                "Tactics in play",
                [card(state, x.card) for x in state.chain],
                note=t.listing(
                    [f"{t.name_of(names, x.seat)}: {TACTIC_NAMES.get(x.kind, '')}" for x in state.chain]
                ),
            ),
        )
    facts = [t.fact("Speaker", t.name_of(names, state.speaker))]
    if state.shebeens:
        facts.append(
            t.fact("Safe at the shebeen", t.listing([state.card(c).name for c, _ in state.shebeens]))
        )
    if over:
        facts.append(t.fact("Result", "The votes are counted"))
    round, turn = heading(state, names)
    return t.table(seats, areas, facts, round=round, turn=turn)


def heading(state: HocState, names: Sequence[str]) -> tuple[str, str]:
    if state.stage == OVER:
        return "The election", ""
    round = "Final round" if state.final else (f"Round {state.round}" if state.round else "Opening")
    if state.chain or state.window is not None:
        acting = _acting(state)
        return round, f"Waiting for {t.listing([names[s] for s in acting])}" if acting else ""
    return round, t.whose(names, state.turn) if state.turn is not None else ""


def _acting(state: HocState) -> list[int]:
    """The seats the game waits for: a window's, the placer's, the auction's, the turn's."""
    if state.stage == OVER:
        return []
    if state.chain:
        return point_of_order_seats(state)
    if state.window is not None:
        return window_seats(state)
    placer = active_placer(state)
    if placer is not None:
        return [placer]
    if state.auction is not None and state.auction.asking is not None:
        return [state.auction.asking]
    return [state.turn] if state.turn is not None else []
