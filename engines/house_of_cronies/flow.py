"""The steps the game takes by itself between players' choices."""

from __future__ import annotations

from engines.base import ChanceRequest, Event
from engines.house_of_cronies import events as ev
from engines.house_of_cronies.query import (
    active_placer,
    open_positions,
    order_from,
    places,
    table_size,
    uses_corruption,
    votes,
)
from engines.house_of_cronies.state import BETWEEN, OPENING, OVER, TURNS, HocState
from engines.house_of_cronies.tactics import point_of_order_seats, resolve_chain, window_seats


def automatic(state: HocState) -> list[Event]:
    """The events the game takes by itself now, or [] when it waits for someone."""
    if state.stage in (OVER, "new"):
        return []
    if state.pending_draws:
        draw = state.pending_draws[0]
        if draw.deck == "tactics" and not state.tactic_deck:
            if state.tactic_discard:
                return [Event(ev.TACTIC_DECK_RESHUFFLED, {"cards": list(state.tactic_discard)})]
            return [Event(ev.TACTIC_DRAW_FORFEITED, {"seat": draw.to, "count": draw.count})]
        return []
    if state.chain:
        return [] if point_of_order_seats(state) else resolve_chain(state)
    placer = active_placer(state)
    if placer is not None:
        for card in state.players[placer].to_place:
            if not open_positions(state, placer, card):
                data = {"seat": placer, "card": card, "name": state.card(card).label()}
                return [Event(ev.CRONY_DISCARDED, data)]
        return []
    if state.window is not None:
        return [] if window_seats(state) else [Event(ev.REACTIONS_CLOSED, {"kind": state.window.kind})]
    if state.auction is not None:
        if state.auction.asking is not None:
            return []
        a = state.auction
        cards = list(a.bid_of(a.high))
        data = {
            "seat": a.high,
            "card": a.card,
            "name": state.card(a.card).label(),
            "cards": cards,
            "value": a.value,
            "corruption": uses_corruption(state, cards),
        }
        return [Event(ev.BID_WON, data)]
    if state.stage == OPENING:
        final = len(state.main_deck) < table_size(state.seats)
        return [Event(ev.ROUND_STARTED, {"round": 1, "speaker": state.speaker, "final": final})]
    if state.stage == TURNS and state.turn is None:
        if state.turns_done < state.seats:
            return [Event(ev.TURN_STARTED, {"seat": order_from(state, state.speaker)[state.turns_done]})]
        if state.final:
            totals, penalties = votes(state)
            data = {"totals": totals, "penalties": penalties, "places": places(totals)}
            return [Event(ev.GAME_DECIDED, {"ended_by": ev.Termination.ELECTION.value, **data})]
        data = {
            "round": state.round,
            "discarded": list(state.table),
            "next_speaker": (state.speaker + 1) % state.seats,
        }
        return [Event(ev.ROUND_ENDED, data)]
    if state.stage == BETWEEN:
        final = len(state.main_deck) < table_size(state.seats)
        return [Event(ev.ROUND_STARTED, {"round": state.round + 1, "speaker": state.speaker, "final": final})]
    return []


def draw_request(state: HocState) -> ChanceRequest | None:
    """The draw the game waits for: the first pending draw, from what its deck holds."""
    if not state.pending_draws or state.stage == OVER:
        return None
    draw = state.pending_draws[0]
    deck = state.main_deck if draw.deck == "main" else state.tactic_deck
    count = min(draw.count, len(deck))
    if count == 0:
        return None
    to = draw.to if isinstance(draw.to, int) else None
    return ChanceRequest(
        command="DrawCards",
        draw=count,
        pool=deck,
        seat=to,
        fixed={"deck": draw.deck, "to": draw.to},
        dealt_to=to,
        unseen=_unseen_by(state, to, draw.deck),
    )


def _unseen_by(state: HocState, seat: int | None, deck: str) -> tuple[str, ...]:
    """The cards of ``deck``'s kind ``seat`` (None: a spectator) cannot see:
    that deck, and what the other hands hold of its kind."""
    main = deck == "main"
    pile = state.main_deck if main else state.tactic_deck
    held = (c for s, p in enumerate(state.players) if s != seat for c in (p.hand if main else p.tactics))
    return tuple(sorted([*pile, *held]))
