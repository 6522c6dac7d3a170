"""Applying events to the state. Every function here is pure and never raises
for an event ``decide`` produced."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import Event, RuleViolation
from engines.chancellors import events as ev
from engines.chancellors.cards import EXCUSE, SERVICE_IDS, SERVICES
from engines.chancellors.state import (
    CHOOSE,
    CONTROL,
    OPEN,
    OVER,
    PART,
    RENEW,
    REVEAL,
    SOLVED,
    ChancellorsState,
    Problem,
)
from engines.chancellors.turns import flow


def _seat_tuple(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return tuple(v + delta if i == seat else v for i, v in enumerate(values))


def _without(cards: tuple[str, ...], taken: Sequence[str]) -> tuple[str, ...]:
    gone = set(taken)
    return tuple(c for c in cards if c not in gone)


def _game_started(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s


def _problem_rolled(s: ChancellorsState, d: Any) -> ChancellorsState:
    problems = list(s.problems)
    problems[d["problem"]] = Problem(tuple(d["dice"]), OPEN)
    return s.with_(problems=tuple(problems))


def _cards_drawn(s: ChancellorsState, d: Any) -> ChancellorsState:
    seat, cards = d["player"], d["cards"]
    to_hand = tuple(c for c in cards if c != EXCUSE)
    hands = list(s.hands)
    hands[seat] = hands[seat] + to_hand
    holder = seat if EXCUSE in cards else s.excuse_holder
    return s.with_(
        pile=_without(s.pile, cards), hands=tuple(hands), owed=s.owed - len(cards), excuse_holder=holder
    )


def _reshuffled(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s.with_(pile=tuple(sorted(s.pile + s.discards)), discards=())


def _turn_began(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s.with_(
        turn=d["turn"], phase=CHOOSE, chosen=(None,) * s.seats, excuse_used=False, acting=0, served=()
    )


def _card_chosen(s: ChancellorsState, d: Any) -> ChancellorsState:
    seat, card = d["seat"], d["card"]
    hands = list(s.hands)
    hands[seat] = _without(hands[seat], [card])
    chosen = list(s.chosen)
    chosen[seat] = card
    return s.with_(hands=tuple(hands), chosen=tuple(chosen))


def _cards_revealed(s: ChancellorsState, d: Any) -> ChancellorsState:
    played = tuple(c for c in d["cards"] if c is not None)
    return s.with_(phase=REVEAL, chosen=(None,) * s.seats, discards=s.discards + played)


def _service_settled(s: ChancellorsState, d: Any, holder: int | None) -> ChancellorsState:
    index = SERVICE_IDS.index(d["service"])
    services = list(s.services)
    services[index] = holder
    s = s.with_(services=tuple(services))
    if index == len(SERVICES) - 1:
        served = tuple(sorted({seat for seat in services if seat is not None}))
        s = s.with_(phase=CONTROL, acting=0, served=served)
    return s


def _service_taken(s: ChancellorsState, d: Any) -> ChancellorsState:
    seat = d["seat"]
    if d["previous"] != seat:
        s = s.with_(services_won=_seat_tuple(s.services_won, seat, 1))
    return _service_settled(s, d, seat)


def _service_deadlocked(s: ChancellorsState, d: Any) -> ChancellorsState:
    return _service_settled(s, d, None)


def _service_uncontested(s: ChancellorsState, d: Any) -> ChancellorsState:
    return _service_settled(s, d, s.services[SERVICE_IDS.index(d["service"])])


def _next_actor(s: ChancellorsState) -> ChancellorsState:
    if s.phase == CONTROL:
        return s.with_(acting=s.acting + 1)
    return s.with_(queue=s.queue[1:])


def _play(s: ChancellorsState, seat: int, cards: Sequence[str], points: int) -> ChancellorsState:
    hands = list(s.hands)
    hands[seat] = _without(hands[seat], cards)
    return s.with_(
        hands=tuple(hands),
        discards=s.discards + tuple(cards),
        scores=_seat_tuple(s.scores, seat, points),
        last_solver=seat,
    )


def _problem_solved(s: ChancellorsState, d: Any) -> ChancellorsState:
    seat = d["seat"]
    s = _play(s, seat, d["cards"], d["points"])
    problems = list(s.problems)
    problems[d["problem"]] = Problem(tuple(d["dice"]), SOLVED)
    s = s.with_(problems=tuple(problems), solved_whole=_seat_tuple(s.solved_whole, seat, 1))
    if d["service"] is None and not d["excuse"]:
        s = s.with_(solved_unaided=_seat_tuple(s.solved_unaided, seat, 1))
    return _next_actor(s)


def _problem_partly_solved(s: ChancellorsState, d: Any) -> ChancellorsState:
    seat = d["seat"]
    s = _play(s, seat, [d["card"]], d["points"])
    problems = list(s.problems)
    problems[d["problem"]] = Problem((d["kept"], d["set_aside"]), PART)
    s = s.with_(problems=tuple(problems), solved_part=_seat_tuple(s.solved_part, seat, 1))
    return _next_actor(s)


def _service_passed(s: ChancellorsState, d: Any) -> ChancellorsState:
    return _next_actor(s)


def _service_abdicated(s: ChancellorsState, d: Any) -> ChancellorsState:
    services = list(s.services)
    services[SERVICE_IDS.index(d["service"])] = None
    s = s.with_(services=tuple(services), abdications=_seat_tuple(s.abdications, d["seat"], 1))
    return _next_actor(s)


def _excuse_passed(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s.with_(
        excuse_holder=d["to"], excuse_used=True, excuse_uses=_seat_tuple(s.excuse_uses, d["seat"], 1)
    )


def _problem_unfolded(s: ChancellorsState, d: Any) -> ChancellorsState:
    problems = list(s.problems)
    problems[d["problem"]] = Problem(tuple(d["dice"]), OPEN)
    return s.with_(problems=tuple(problems))


def _problems_escalated(s: ChancellorsState, d: Any) -> ChancellorsState:
    problems = list(s.problems)
    for change in d["changes"]:
        problems[change["problem"]] = Problem(tuple(change["dice"]), OPEN)
    return s.with_(problems=tuple(problems), phase=RENEW)


def _catastrophe(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s


def _cards_discarded(s: ChancellorsState, d: Any) -> ChancellorsState:
    hands = list(s.hands)
    hands[d["seat"]] = _without(hands[d["seat"]], d["cards"])
    return s.with_(hands=tuple(hands), discards=s.discards + tuple(d["cards"]))


def _game_ended(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s.with_(phase=OVER, ended_by=d["ended_by"], places=tuple(d["places"]))


EVOLVERS = {
    ev.GAME_STARTED: _game_started,
    ev.PROBLEM_ROLLED: _problem_rolled,
    ev.CARDS_DEALT: _cards_drawn,
    ev.CARDS_DRAWN: _cards_drawn,
    ev.DISCARDS_RESHUFFLED: _reshuffled,
    ev.TURN_BEGAN: _turn_began,
    ev.CARD_CHOSEN: _card_chosen,
    ev.CARDS_REVEALED: _cards_revealed,
    ev.SERVICE_TAKEN: _service_taken,
    ev.SERVICE_DEADLOCKED: _service_deadlocked,
    ev.SERVICE_UNCONTESTED: _service_uncontested,
    ev.PROBLEM_SOLVED: _problem_solved,
    ev.PROBLEM_PARTLY_SOLVED: _problem_partly_solved,
    ev.SERVICE_PASSED: _service_passed,
    ev.SERVICE_ABDICATED: _service_abdicated,
    ev.SOLVING_PASSED: _service_passed,
    ev.EXCUSE_PASSED: _excuse_passed,
    ev.PROBLEM_UNFOLDED: _problem_unfolded,
    ev.PROBLEMS_ESCALATED: _problems_escalated,
    ev.CATASTROPHE_STRUCK: _catastrophe,
    ev.CARDS_DISCARDED: _cards_discarded,
    ev.GAME_DECIDED: _game_ended,
}


def apply(state: ChancellorsState, event: Event) -> ChancellorsState:
    evolver = EVOLVERS.get(event.type)
    if evolver is None:
        raise RuleViolation("unknown-event", f"Chancellors has no event {event.type!r}.")
    return flow(evolver(state, event.data))
