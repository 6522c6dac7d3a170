"""What Event and Haunt cards and closed companies' haunts do, as events.

A card's effect is a list of operations from the catalog (six kinds, the only
ones the catalog schema accepts). Each becomes an event that ``evolve`` applies;
the operations of one card are worked out one after another, each on the
state the previous ones left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Event
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.evolve import evolve
from engines.maccreedys_mansion.query import complete, in_play
from engines.maccreedys_mansion.state import MmState
from engines.maccreedys_mansion.words import card_name, location_name, room_name


def break_location(state: MmState, location: str, source: Mapping[str, Any]) -> Event:
    """Every marker in the location comes off; if it was complete, its jobs are
    newly incomplete and go back into the Job Deck: ``jobs`` those nobody owns,
    ``won`` (seat, job) those a company won (it keeps what it was paid)."""
    spaces = set(state.board.location[location].spaces)
    markers = [[space, seat] for space, seat in state.markers if space in spaces]
    jobs, won = [], []
    if complete(state, location):
        jobs = sorted(j for j in state.job_done if state.board.job[j].location == location)
        won = [
            [seat, job]
            for seat, c in enumerate(state.companies)
            for job in c.jobs
            if state.board.job[job].location == location
        ]
    data = {"location": location, "location_name": location_name(state.board, location)}
    return Event(ev.LOCATION_BROKEN, {**data, "markers": markers, "jobs": jobs, "won": won, **source})


def card_source(state: MmState, card: str) -> dict[str, Any]:
    """The card an effect comes from: its id, and its name for the log."""
    return {"card": card, "name": card_name(state.board, card)}


def _targets(state: MmState, who: str) -> list[int]:
    if who == "first-player":
        return [state.first] if state.companies[state.first].status.in_game else []
    return [seat for seat, c in enumerate(state.companies) if c.status.in_game]


def _effect(state: MmState, effect: Mapping[str, Any], card: str) -> list[Event]:
    op = effect["op"]
    source = card_source(state, card)
    if op == "break-location":
        if not in_play(state, effect["location"]):
            return []
        return [break_location(state, effect["location"], source)]
    if op == "haunt-room":
        room = effect["room"]
        if state.board.room[room].id in state.covered:
            return []
        data = {"room": room, "room_name": room_name(state.board, room), "round": state.round + 1}
        return [Event(ev.ROOM_HAUNTED, {**data, **source})]
    if op == "strike":
        until = state.round + effect["rounds"]
        return [Event(ev.WORKERS_STRUCK, {"worker": effect["worker"], "until": until, **source})]
    if op == "fine":
        fines = [
            (seat, min(effect["amount"], state.companies[seat].active))
            for seat in _targets(state, effect["who"])
        ]
        return [
            Event(ev.COMPANY_FINED, {"seat": seat, "amount": amount, **source})
            for seat, amount in fines
            if amount
        ]
    if op == "bonus":
        return [
            Event(ev.BONUS_PAID, {"seat": seat, "amount": effect["amount"], **source})
            for seat in _targets(state, effect["who"])
        ]
    return [Event(ev.INSPECTION_CANCELLED, {"round": state.round, **source})]  # skip-inspection


def resolve_card(state: MmState, card: str) -> list[Event]:
    """The events of every operation on ``card``, then ``CardResolved``."""
    out: list[Event] = []
    for effect in state.board.card[card].effect:
        for event in _effect(state, effect, card):
            state = evolve(state, event)
            out.append(event)
    return [*out, Event(ev.CARD_RESOLVED, card_source(state, card))]
