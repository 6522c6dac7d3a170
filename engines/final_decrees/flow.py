"""What the game does by itself, and the chance it waits for.

``automatic`` gives the events that follow without anyone's input (revealing
the bids, starting and ending turns, the decline card's blame, the end of the
game), so the state ``decide`` leaves always waits for a seat or for chance.
"""

from __future__ import annotations

import dataclasses

from engines.base import ChanceRequest, Event
from engines.final_decrees import events as ev
from engines.final_decrees.decide import reveal_bids, turn_end_data
from engines.final_decrees.state import BID, DEAL, OVER, PLAY, FdState

DECREE_COUNT = 5


def places(personal: tuple[int, ...]) -> list[int]:
    """FD-6, reading 18: the least personal blame wins; equal blame shares a place."""
    return [1 + sum(1 for other in personal if other < mine) for mine in personal]


def _ended(state: FdState, how: ev.Termination) -> Event:
    return Event(
        ev.GAME_DECIDED,
        {"ended_by": how.value, "places": places(state.personal), "personal": list(state.personal)},
    )


def _unseen_by(state: FdState, seat: int | None) -> tuple[str, ...]:
    """The cards ``seat`` (None: a spectator) cannot see: the deck's, but those it was told, and the other hands."""
    held = (c for s, hand in enumerate(state.hands) if s != seat for c in hand)
    return tuple(sorted([*state.deck.unseen_by(seat), *held]))


def chance(state: FdState) -> ChanceRequest | None:
    if state.phase == DEAL:
        return ChanceRequest("DealHands", draw=state.seats, pool=state.catalog.deck_cards)
    if state.phase != PLAY:
        return None
    deck = state.deck
    if state.declining:
        # The decline card is out, so no run holds a card: every order of the rest is alike.
        return ChanceRequest(
            "DiscardFromDeck", draw=state.declining, pool=deck.middle, unseen=_unseen_by(state, None)
        )
    if state.declining is None and state.draws_owed > 0:
        player = state.active
        request = deck.request("DrawCard", 1, seat=player, fixed={"player": player})
        return request and dataclasses.replace(request, dealt_to=player, unseen=_unseen_by(state, player))
    return None


def automatic(state: FdState) -> list[Event]:
    if state.phase == OVER:
        return []
    if state.phase == BID:
        if all(state.bids[s] is not None for s in state.bidders):
            return [reveal_bids(state)]
        return []
    if state.phase != PLAY or state.awaiting is not None:
        return []
    if state.declining == 0:
        return [_decline_played(state)]
    if state.declining is None and len(state.deck) == 0:
        return [_ended(state, ev.Termination.DECK_EXHAUSTED)]  # FD-43, reading 17: at once
    if state.enacted == DECREE_COUNT:
        return [_ended(state, ev.Termination.ALL_DECREES_ENACTED)]
    if chance(state) is not None:
        return []
    if state.active is None:
        seat = state.next_seat
        return [
            Event(ev.TURN_STARTED, {"turn": state.turn + 1, "seat": seat, "department": state.posts[seat]})
        ]
    if state.actions_left <= 0:
        return [Event(ev.TURN_ENDED, turn_end_data(state))]
    return []


def _decline_played(state: FdState) -> Event:
    """FD-42: departmental blame goes to the departments' heads; the card goes back into the deck."""
    blame = [
        [dept, state.head(dept), amount]
        for dept, amount in zip(state.departments, state.dept_blame, strict=True)
        if amount and state.head(dept) is not None
    ]
    reshuffled = len(state.deck) > 0
    window = [1, len(state.deck) + 1] if reshuffled else None
    return Event(ev.DECLINE_PLAYED, {"blame": blame, "reshuffled": reshuffled, "window": window})
