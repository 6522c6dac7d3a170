"""Final Decrees on the table: the departments with their heads, blame and
decrees, the control arrows between them as a diagram, each decree's stamped
steps, hands and sealed bids to whom may see them, personal blame as the score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.final_decrees.departments import TITLES
from engines.final_decrees.present import to_act
from engines.final_decrees.state import BID, OVER, FdState
from engines.kit import table as t


def department(name: str) -> str:
    title = TITLES.get(name, t.words(name))
    return title[:1].upper() + title[1:]


def card(state: FdState, card_id: str) -> dict[str, Any]:
    c = state.catalog.card(card_id)
    return t.card(c.name, "Stagnation and Decline" if c.stagnation else "Action", c.text)


def _decree(state: FdState, decree: Any) -> dict[str, Any]:
    name = state.catalog.decree(decree.id).name
    steps = [department(s) + (" (stamped)" if i < decree.stamped else "") for i, s in enumerate(decree.steps)]
    where = "Enacted" if decree.enacted else f"At {TITLES.get(decree.at, t.words(decree.at or ''))}"
    return t.group(
        name, note=f"{where}; steps {decree.stamped} of {len(decree.steps)} stamped: {', '.join(steps)}"
    )


def table(state: FdState, viewer: t.Viewer, names: Sequence[str]) -> dict[str, Any]:
    over = state.phase == OVER
    acting = to_act(state)
    seats = []
    for s in range(state.seats):
        sees = t.may_see(viewer, s, over)
        hand = state.hands[s] if s < len(state.hands) else ()
        post = state.posts[s] if s < len(state.posts) else None
        notes = [f"Heads {TITLES.get(post, '')}" if post else ""]
        if state.phase == BID and s in state.bidders:
            bid = state.bids[s] if state.bids else None
            if bid is None:
                notes.append("Has not bid yet")
            else:
                notes.append(f"Bids {bid}" if sees else "Has bid (sealed)")
        if state.active == s and not over:
            notes.append(f"{t.count_words(state.actions_left, 'action')} left")
        personal = state.personal[s] if s < len(state.personal) else 0
        seats.append(
            t.seat_area(
                names,
                s,
                [t.hand("Hand", [card(state, c) for c in hand], len(hand), sees)],
                f"{personal} personal blame",
                s in acting,
                notes,
            )
        )
    nodes = []
    for d in state.departments:
        head = state.head(d)
        decrees = [state.catalog.decree(x.id).name for x in state.decrees_at(d)]
        detail = [
            f"Head: {names[head]}" if head is not None else "No head",
            f"Blame {state.blame_of(d)}",
        ]
        if decrees:
            detail.append(t.listing(decrees))
        nodes.append({"title": department(d), "detail": " · ".join(detail)})
    arrows = [(department(a), department(b)) for a, b in state.arrows]
    areas = [_decree(state, d) for d in state.decrees]
    areas += [t.pile("Deck", len(state.deck)), t.group("Discards", [card(state, c) for c in state.discards])]
    facts = [
        t.fact("Decrees enacted", str(state.enacted)),
        t.fact(
            "Stagnation and Decline", "In the deck" if state.catalog.decline in state.deck.middle else "Out"
        ),
    ]
    if state.awaiting is not None:
        facts.append(t.fact("Awaiting", f"{t.name_of(names, state.awaiting.seat)} must answer"))
    if state.offers.open:
        facts.append(t.fact("Open offers", str(len(state.offers.open))))
    round, turn = heading(state, names)
    return t.table(seats, areas, facts, round=round, turn=turn, diagram=t.diagram(nodes, arrows))


PHASES = {"bid": "Bidding for Human Resources", "assign": "Assigning departments", "deal": "Dealing"}


def heading(state: FdState, names: Sequence[str]) -> tuple[str, str]:
    if state.phase == OVER:
        return "The end", ""
    return (
        f"Turn {state.turn}" if state.turn else "Setting up",
        t.whose(names, state.active) if state.active is not None else PHASES.get(state.phase, ""),
    )
