"""Political Divide & Conquer on the table: each base with every group's stack
in order, the unaffiliated groups, hands to whom may see them, the deck with the
cards returned to its top and bottom (face down to whoever does not know them),
the attack under way and the discard heap."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.kit import table as t
from engines.political_divide_and_conquer.scoring import influence, wing, wing_totals
from engines.political_divide_and_conquer.state import OVER, PdcState


def card(state: PdcState, card_id: str) -> dict[str, Any]:
    """A card as printed: a group with its wing and influence, an asset or deficit with its
    influence, an event."""
    c = state.card(card_id)
    if c.type == "group":
        return t.card(c.name, f"{t.words(c.wing or '')}-wing group", str(c.influence))
    if c.type in ("asset", "deficit"):
        sign = "+" if c.influence > 0 else ""
        return t.card(c.name, t.words(c.type), f"{sign}{c.influence}")
    return t.card(c.name, t.words(c.type))


def _stack(state: PdcState, group: str, stack: tuple[str, ...], faces: dict[str, dict]) -> dict[str, Any]:
    """A group with its stack on it, oldest first, and what it now counts for."""
    cards = [faces[group], *(faces[c] for c in stack)]
    note = f"{t.words(wing(state, group))} wing, influence {influence(state, group)}"
    return t.group(state.card(group).name, cards, note=note)


def _known(state: PdcState, known: Sequence[Any], viewer: t.Viewer, over: bool) -> list[dict[str, Any]]:
    out = []
    for k in known:
        sees = over or viewer == "all" or (isinstance(viewer, int) and k.known_by(viewer))
        out.append(card(state, k.card) if sees else t.face_down())
    return out


class _Faces(dict):
    """Each card's face, worked out once per table."""

    def __init__(self, state: PdcState):
        super().__init__()
        self.state = state

    def __missing__(self, card_id: str) -> dict[str, Any]:
        self[card_id] = face = card(self.state, card_id)
        return face


def table(state: PdcState, viewer: t.Viewer, names: Sequence[str]) -> dict[str, Any]:
    over = state.stage == OVER
    acting = _acting(state)
    faces = _Faces(state)
    stacks = dict(state.stacks)

    def stack(group: str) -> dict[str, Any]:
        return _stack(state, group, stacks.get(group, ()), faces)

    seats = []
    for s, p in enumerate(state.players):
        sees = t.may_see(viewer, s, over)
        left, right = wing_totals(state, s)
        groups = [t.hand("Hand", [faces[c] for c in p.hand], len(p.hand), sees)]
        groups += [{**stack(g), "title": f"Base: {state.card(g).name}"} for g in p.base]
        if state.turn == s and state.drawn and not over:
            drawn = [card(state, c) for c in state.drawn] if sees else [t.face_down()] * len(state.drawn)
            groups.insert(0, t.group("Drawn this turn", drawn))
        points = abs(right - left) if not state.scores else state.scores[s]  # the score (PDC-34)
        seats.append(
            t.seat_area(
                names,
                s,
                groups,
                t.count_words(points, "point"),
                s in acting,
                [f"Left wing {left}, right wing {right}"],
            )
        )
    deck = state.deck
    areas = []
    if state.attack is not None:
        a = state.attack
        team = [card(state, g) for g in (*a.team, *a.from_base)]
        note = (
            f"{t.name_of(names, a.attacker)} attacks {state.card(a.target).name} to "
            f"{'take it over' if a.intent == 'take-over' else 'destroy it'}"
            + (f"; {names[a.defender]} defends" if a.defender is not None else "")
        )
        areas.append(t.group("Attack", team, note=note))
        if a.defence:
            areas.append(t.group("Defence", [card(state, g) for g in a.defence]))
    areas += [{**stack(g), "title": f"Unaffiliated: {state.card(g).name}"} for g in state.unaffiliated]
    areas += [
        t.group("Deck top", _known(state, deck.top, viewer, over), note="Returned on top"),
        t.pile("Deck", len(deck)),
        t.group("Deck bottom", _known(state, deck.bottom, viewer, over), note="Returned underneath"),
        t.group("Discard heap", [faces[c] for c in state.discard]),
    ]
    if state.turned_up:
        areas.append(t.group("Turned up at setup", [card(state, c) for c in state.turned_up]))
    areas = [a for a in areas if a["count"] or a["title"] in ("Deck", "Discard heap")]
    facts = [t.fact("Turns played", str(state.turns))]
    if state.ending is not None:
        facts.append(t.fact("Last card drawn by", t.name_of(names, state.ending)))
    round, turn = heading(state, names)
    return t.table(seats, areas, facts, round=round, turn=turn)


def heading(state: PdcState, names: Sequence[str]) -> tuple[str, str]:
    if state.stage == OVER:
        return "The end", ""
    round = f"Turn {state.turns + 1}" if state.turn is not None else "Setting up"
    acting = _acting(state)
    if state.window is not None and acting:
        return round, f"Waiting for {t.listing([names[s] for s in acting])}"
    return round, t.listing([t.whose(names, state.turn), t.words(state.step) if state.step else ""])


def _acting(state: PdcState) -> list[int]:
    if state.stage == OVER:
        return []
    if state.window is not None:
        return sorted(state.window.waiting)
    return [state.turn] if state.turn is not None else []
