"""The chance the game waits for and the steps it takes by itself between players' choices."""

from __future__ import annotations

import dataclasses

from engines.base import ChanceRequest, Event
from engines.kit import windows
from engines.kit.deck import MIDDLE
from engines.political_divide_and_conquer import events as ev
from engines.political_divide_and_conquer.catalog import GROUP
from engines.political_divide_and_conquer.evolve import ROLL_WINDOW
from engines.political_divide_and_conquer.scoring import base_cards, places, score
from engines.political_divide_and_conquer.state import DONE, OVER, PRE_ROLL, ROLL, SETUP, Draw, PdcState


def turn_up_done(state: PdcState) -> bool:
    """Setup turns cards up until a group appears, or no group is left in the deck."""
    return bool(state.unaffiliated) or not any(state.card(c).type == GROUP for c in state.deck.middle)


def _unseen_by(state: PdcState, seat: int | None) -> tuple[str, ...]:
    """The cards ``seat`` (None: a spectator) cannot see: the deck's, but
    those it was told, the other hands and the cards another seat's turn has drawn."""
    held = (c for s, p in enumerate(state.players) if s != seat for c in p.hand)
    drawn = state.drawn if state.turn != seat else ()
    return tuple(sorted([*state.deck.unseen_by(seat), *held, *drawn]))


def chance(state: PdcState) -> ChanceRequest | None:
    if state.stage in (OVER, "new"):
        return None
    if state.pending:
        p = state.pending[0]
        if isinstance(p, Draw):
            request = state.deck.request(
                "DrawCards", min(p.count, len(state.deck)), seat=p.seat, fixed={"to": p.seat}
            )
            return request and dataclasses.replace(request, dealt_to=p.seat, unseen=_unseen_by(state, p.seat))
        return ChanceRequest(
            "TakeRandomCards",
            draw=p.count,
            pool=state.players[p.source].hand,
            seat=p.by,
            fixed={"source": p.source},
            unseen=_unseen_by(state, None),
        )
    if state.stage == SETUP:
        if not turn_up_done(state):
            request = state.deck.request("TurnUpCard", 1)
            return request and dataclasses.replace(request, unseen=_unseen_by(state, None))
        if not state.turned_up and len(state.contenders) > 1:
            return ChanceRequest(
                "RollForFirst", dice=len(state.contenders), fixed={"seats": list(state.contenders)}
            )
        return None
    if state.attack is not None and state.attack.step == ROLL:
        return ChanceRequest(
            "RollAttack", dice=2, seat=state.attack.attacker, fixed={"target": state.attack.target}
        )
    return None


def _influence_counted(state: PdcState) -> Event:
    scores = [score(state, s) for s in range(state.seats)]
    cards = [base_cards(state, s) for s in range(state.seats)]
    discarded = {str(s): list(p.hand) for s, p in enumerate(state.players)}
    data = {"scores": scores, "base_cards": cards, "places": places(scores, cards), "discarded": discarded}
    return Event(ev.GAME_DECIDED, {"ended_by": ev.Termination.DECK_EXHAUSTED.value, **data})


def automatic(state: PdcState) -> list[Event]:
    """The events the game takes by itself now, or [] when it waits for someone."""
    if state.stage in (OVER, "new"):
        return []
    if state.pending:
        p = state.pending[0]
        place = state.deck.next_place()
        if isinstance(p, Draw) and place is not None and place != MIDDLE:
            card = state.deck.top[0].card if place == "top" else state.deck.bottom[0].card
            return [
                Event(ev.CARDS_DRAWN, {"seat": p.seat, "cards": [card], "place": place, "reason": p.reason})
            ]
        return []
    if state.stage == SETUP:
        if not turn_up_done(state):
            return []
        if state.turned_up:
            return [Event(ev.CARDS_SHUFFLED_IN, {"cards": list(state.turned_up)})]
        if len(state.contenders) == 1:
            return [Event(ev.TURN_STARTED, {"seat": state.contenders[0], "final": False})]
        return []
    attack = state.attack
    if attack is not None:
        if attack.step == PRE_ROLL and state.window is None:
            return [windows.open_window(ROLL_WINDOW, range(state.seats))]
        return windows.closing(state.window)
    if state.step == DONE:
        return [Event(ev.TURN_ENDED, {"seat": state.turn, "took": "attack"})]
    if state.step is None and state.turn is not None:
        if state.ending is None:
            return [Event(ev.TURN_STARTED, {"seat": (state.turn + 1) % state.seats, "final": False})]
        if state.ending == state.turn:
            return [_influence_counted(state)]
        return [Event(ev.TURN_STARTED, {"seat": state.ending, "final": True})]
    return []
