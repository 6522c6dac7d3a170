"""Applying events to the state. Pure; never raises for an event ``decide`` produced."""

from __future__ import annotations

from typing import Any

from engines.base import Event
from engines.final_decrees import events as ev
from engines.final_decrees.departments import HUMAN_RESOURCES
from engines.final_decrees.state import (
    ACTIONS_PER_TURN,
    ADMIRALTY_POWER,
    ASSIGN,
    DEAL,
    DRAW_ACTION,
    OVER,
    PLAY,
    TREASURY_POWER,
    FdState,
    seat_add,
)
from engines.kit.awaiting import Awaiting
from engines.kit.deck import Deck, Run, deck_of
from engines.kit.frozen import replace
from engines.kit.offers import Terms


def _dept_add(s: FdState, department: str, delta: int) -> tuple[int, ...]:
    i = s.departments.index(department)
    return tuple(v + delta if k == i else v for k, v in enumerate(s.dept_blame))


def _personal_add(s: FdState, seat: int, delta: int) -> FdState:
    return s.with_(personal=seat_add(s.personal, seat, delta))


def _hand(s: FdState, seat: int, add: tuple[str, ...] = (), remove: tuple[str, ...] = ()) -> FdState:
    hand = list(s.hands[seat])
    for card in remove:
        hand.remove(card)
    hands = list(s.hands)
    hands[seat] = tuple(sorted(hand + list(add)))
    return s.with_(hands=tuple(hands))


def _spend(s: FdState, event_type: str) -> FdState:
    return s.with_(actions_left=s.actions_left - 1) if event_type in ev.ACTIONS else s


# ------------------------------------------------------------------ setup
def _game_started(s: FdState, d: Any) -> FdState:
    return s


def _bid_placed(s: FdState, d: Any) -> FdState:
    bids = list(s.bids)
    bids[d["seat"]] = d["amount"]
    return s.with_(bids=tuple(bids))


def _bids_revealed(s: FdState, d: Any) -> FdState:
    personal = tuple(p + g for p, g in zip(s.personal, d["gains"], strict=True))
    first = s.first_bid if d["round"] > 1 else tuple(b or 0 for b in d["bids"])
    s = s.with_(personal=personal, first_bid=first, bids=(None,) * s.seats)
    if d["rebid"]:
        return s.with_(bidders=tuple(d["rebid"]), bid_round=d["round"] + 1)
    posts = [None] * s.seats
    posts[d["head"]] = HUMAN_RESOURCES
    return s.with_(bidders=(), phase=ASSIGN, posts=tuple(posts))


def _departments_assigned(s: FdState, d: Any) -> FdState:
    return s.with_(posts=tuple(d["posts"]), phase=DEAL)


TOP_PILE = 5
BOTTOM_PILE = 20


def stacked(cards: list[str], decline: str) -> Deck:
    """FD-15: the top 5, then the rest with the decline card shuffled in, then the bottom 20."""
    middle = len(cards) + 1 - TOP_PILE - BOTTOM_PILE
    runs = [Run(TOP_PILE), Run(middle, holds=(decline,)), Run(BOTTOM_PILE)]
    return deck_of([*cards, decline]).split(runs)


def _hands_dealt(s: FdState, d: Any) -> FdState:
    cards = d["cards"]
    rest = list(s.catalog.deck_cards)
    for card in cards:
        rest.remove(card)
    deck = stacked(rest, s.catalog.decline)
    hands = tuple((c,) for c in cards)
    first = s.head("executive")
    return s.with_(phase=PLAY, hands=hands, deck=deck, next_seat=first)


# ------------------------------------------------------------------- turn
def _turn_started(s: FdState, d: Any) -> FdState:
    headed = tuple(h + (d["department"],) if i == d["seat"] else h for i, h in enumerate(s.headed))
    return s.with_(
        headed=headed,
        turn=d["turn"],
        active=d["seat"],
        next_seat=None,
        actions_left=ACTIONS_PER_TURN,
        used=(),
        draws_owed=1,
        dept_blame=_dept_add(s, d["department"], 1),
    )


def _card_drawn(s: FdState, d: Any) -> FdState:
    card, seat = d["card"], d["player"]
    s = s.with_(deck=s.deck.take_drawn([card]), draws_owed=s.draws_owed - 1)
    if card == s.catalog.decline:
        return s.with_(declining=min(s.discard_count, len(s.deck)), declines=seat_add(s.declines, seat, 1))
    return _hand(s, seat, add=(card,))


def _cards_discarded(s: FdState, d: Any) -> FdState:
    return s.with_(deck=s.deck.take_drawn(d["cards"]), discards=s.discards + tuple(d["cards"]), declining=0)


def _decline_played(s: FdState, d: Any) -> FdState:
    personal = list(s.personal)
    for _dept, seat, amount in d["blame"]:
        personal[seat] += amount
    blame = tuple(
        0 if s.head(dept) is not None else b for dept, b in zip(s.departments, s.dept_blame, strict=True)
    )
    s = s.with_(personal=tuple(personal), dept_blame=blame, declining=None)
    if d["reshuffled"]:
        return s.with_(deck=s.deck.shuffle_in([s.catalog.decline]))  # FD-42: it may be anywhere
    return s.with_(discards=s.discards + (s.catalog.decline,))


def _draw_action(s: FdState, d: Any) -> FdState:
    return s.with_(used=(*s.used, DRAW_ACTION), draws_owed=s.draws_owed + 1)


def _card_played(s: FdState, d: Any) -> FdState:
    seat = d["seat"]
    s = _hand(s, seat, remove=(d["card"],))
    personal = tuple(p + delta for p, delta in zip(s.personal, d["personal"], strict=True))
    blame = tuple(
        b + d["departmental"].get(dept, 0) for dept, b in zip(s.departments, s.dept_blame, strict=True)
    )
    s = s.with_(
        personal=personal,
        dept_blame=blame,
        discards=(*s.discards, d["card"]),
        actions_left=s.actions_left + d["actions"],
        draws_owed=s.draws_owed + d["draws"],
    )
    if d["posts"] is not None:
        s = s.with_(posts=tuple(d["posts"]))
    return s


def _blame_spread(s: FdState, d: Any) -> FdState:
    for move in d["moves"]:
        s = s.with_(dept_blame=_dept_add(s, move["from"], -move["amount"]))
        s = s.with_(dept_blame=_dept_add(s, move["to"], move["amount"]))
    return s


def _move_decree(s: FdState, decree_id: str, **changes: Any) -> FdState:
    return s.with_(decrees=tuple(replace(d, **changes) if d.id == decree_id else d for d in s.decrees))


def _decree_forwarded(s: FdState, d: Any) -> FdState:
    s = _move_decree(s, d["decree"], at=d["to"])
    return _personal_add(s, d["seat"], -d["relief"])


def _player_moved(s: FdState, d: Any) -> FdState:
    posts = list(s.posts)
    posts[d["player"]] = d["to"]
    return s.with_(posts=tuple(posts))


def _decree_stamped(s: FdState, d: Any) -> FdState:
    s = _move_decree(s, d["decree"], stamped=d["step"])
    s = _personal_add(s, d["seat"], -d["relief"])
    return s.with_(stamps=seat_add(s.stamps, d["seat"], 1))


def _decree_enacted(s: FdState, d: Any) -> FdState:
    """Reading 11: an enacted decree leaves the mat."""
    s = _move_decree(s, d["decree"], at=None)
    s = s.with_(enacted=d["ordinal"], enactments=seat_add(s.enactments, d["seat"], 1))
    if d["chooser"] is None:
        return s
    return s.with_(awaiting=Awaiting(d["chooser"], "RemoveBlame", "FD-39", d["allowance"]))


def _blame_removed(s: FdState, d: Any) -> FdState:
    personal = tuple(p - n for p, n in zip(s.personal, d["players"], strict=True))
    blame = tuple(
        b - d["departments"].get(dept, 0) for dept, b in zip(s.departments, s.dept_blame, strict=True)
    )
    total = sum(d["players"]) + sum(d["departments"].values())
    return s.with_(
        personal=personal, dept_blame=blame, awaiting=None, removed=seat_add(s.removed, d["seat"], total)
    )


def _actions_gained(s: FdState, d: Any) -> FdState:
    return s.with_(actions_left=s.actions_left + d["amount"], used=(*s.used, TREASURY_POWER))


def _investigated(s: FdState, d: Any) -> FdState:
    s = s.with_(dept_blame=_dept_add(s, d["department"], -d["amount"]))
    return _personal_add(s, d["head"], d["amount"])


def _maneuvers(s: FdState, d: Any) -> FdState:
    s = s.with_(dept_blame=_dept_add(s, "admiralty", -d["departmental"]), used=(*s.used, ADMIRALTY_POWER))
    return _personal_add(s, d["seat"], -d["personal"])


def _reassigned(s: FdState, d: Any) -> FdState:
    return s.with_(posts=tuple(d["posts"]))


def _restructured(s: FdState, d: Any) -> FdState:
    return s.with_(arrows=tuple(tuple(a) for a in d["arrows"]))


def _turn_ended(s: FdState, d: Any) -> FdState:
    s = s.with_(dept_blame=_dept_add(s, d["department"], d["decrees"]))
    return s.with_(
        active=None, actions_left=0, used=(), offers=s.offers.lapsed(), next_seat=(d["seat"] + 1) % s.seats
    )


# ----------------------------------------------------------------- trades
def _trade_offered(s: FdState, d: Any) -> FdState:
    return s.with_(offers=s.offers.opened(d))


def _trade_accepted(s: FdState, d: Any) -> FdState:
    t = Terms.from_json(d)
    giver, taker = d["seat"], d["to"]
    s = s.with_(offers=s.offers.closed(d["offer"]))
    s = _personal_add(s, giver, -t.give_amount)
    s = _personal_add(s, taker, t.give_amount - t.ask_amount)
    s = _personal_add(s, giver, t.ask_amount)
    s = _hand(s, giver, remove=t.give_cards, add=tuple(d["take_cards"]))
    s = _hand(s, taker, remove=tuple(d["take_cards"]), add=t.give_cards)
    return s.with_(trades=seat_add(seat_add(s.trades, giver, 1), taker, 1))


def _trade_closed(s: FdState, d: Any) -> FdState:
    return s.with_(offers=s.offers.closed(d["offer"]))


def _game_ended(s: FdState, d: Any) -> FdState:
    return s.with_(
        phase=OVER, ended_by=d["ended_by"], places=tuple(d["places"]), offers=s.offers.lapsed(), awaiting=None
    )


EVOLVERS = {
    ev.GAME_STARTED: _game_started,
    ev.BID_PLACED: _bid_placed,
    ev.BIDS_REVEALED: _bids_revealed,
    ev.DEPARTMENTS_ASSIGNED: _departments_assigned,
    ev.HANDS_DEALT: _hands_dealt,
    ev.TURN_STARTED: _turn_started,
    ev.CARD_DRAWN: _card_drawn,
    ev.CARDS_DISCARDED: _cards_discarded,
    ev.DECLINE_PLAYED: _decline_played,
    ev.DRAW_ACTION_TAKEN: _draw_action,
    ev.CARD_PLAYED: _card_played,
    ev.BLAME_SPREAD: _blame_spread,
    ev.DECREE_FORWARDED: _decree_forwarded,
    ev.PLAYER_MOVED: _player_moved,
    ev.DECREE_STAMPED: _decree_stamped,
    ev.DECREE_ENACTED: _decree_enacted,
    ev.BLAME_REMOVED: _blame_removed,
    ev.ACTIONS_GAINED: _actions_gained,
    ev.DEPARTMENT_INVESTIGATED: _investigated,
    ev.MANEUVERS_HELD: _maneuvers,
    ev.PLAYERS_REASSIGNED: _reassigned,
    ev.CONTROL_RESTRUCTURED: _restructured,
    ev.TURN_ENDED: _turn_ended,
    ev.TRADE_OFFERED: _trade_offered,
    ev.TRADE_ACCEPTED: _trade_accepted,
    ev.TRADE_DECLINED: _trade_closed,
    ev.TRADE_WITHDRAWN: _trade_closed,
    ev.GAME_DECIDED: _game_ended,
}


def evolve(state: FdState, event: Event) -> FdState:
    state = EVOLVERS[event.type](state, event.data)
    return _spend(state, event.type)
