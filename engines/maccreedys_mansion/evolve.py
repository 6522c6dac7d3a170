"""Applying events to the state (pure; never raises for an event ``decide`` made)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engines.base import Event
from engines.kit.frozen import replace
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.state import HIRING, OVER, MmState


def _add(pile: tuple, items: Iterable) -> tuple:
    return tuple(sorted((*pile, *items)))


def _remove(pile: tuple, items: Iterable) -> tuple:
    left = list(pile)
    for item in items:
        left.remove(item)
    return tuple(left)


def _bump(counts: tuple[int, ...], index: int, by: int) -> tuple[int, ...]:
    return tuple(n + by if i == index else n for i, n in enumerate(counts))


def _done(state: MmState, seat: int) -> MmState:
    return state.with_(done=(*state.done, seat))


def _source_seat(state: MmState, data) -> MmState:
    """A haunt taken by a closed company ends its turn in the Haunt phase."""
    seat = data.get("seat")
    return state if seat is None else _done(state, seat).with_tally(seat, haunts=1)


def _round_started(s: MmState, d) -> MmState:
    zeros_w = (0,) * len(s.board.workers)
    zeros_r = (0,) * len(s.board.prices)
    companies = tuple(
        replace(c, hired=zeros_w, unplaced=zeros_w, dedicated=zeros_r, due=0) for c in s.companies
    )
    return s.with_(
        phase=HIRING,
        round=d["round"],
        companies=companies,
        turn=d["turn"],
        passes=0,
        done=(),
        today=(),
        kept=(),
        revealed=None,
        resolving=False,
        day_ended=False,
        inspected=False,
        high_bid=0,
        high_bidder=None,
        marker_moved=False,
    )


def _phase_began(s: MmState, d) -> MmState:
    return s.with_(phase=d["phase"], turn=d["turn"], passes=0, done=(), revealed=None, resolving=False)


def _job_drawn(s: MmState, d) -> MmState:
    s = s.with_(job_deck=_remove(s.job_deck, [d["card"]]))
    if d["set_aside"]:
        return s.with_(job_done=_add(s.job_done, [d["card"]]))
    return s.with_(track=(*s.track, d["card"]))


def _hired(s: MmState, d) -> MmState:
    i = s.board.worker_types.index(d["worker"])
    c = s.companies[d["seat"]]
    s = s.with_company(d["seat"], hired=_bump(c.hired, i, 1), unplaced=_bump(c.unplaced, i, 1))
    return s.with_tally(d["seat"], workers_hired=1).with_(passes=0, turn=d["next"])


def _bought(s: MmState, d) -> MmState:
    i = s.board.resource_types.index(d["resource"])
    c = s.companies[d["seat"]]
    return s.with_company(d["seat"], storage=_bump(c.storage, i, d["count"])).with_(passes=0, turn=d["next"])


def _placed(s: MmState, d) -> MmState:
    i = s.board.worker_types.index(d["worker"])
    c = s.companies[d["seat"]]
    s = s.with_company(d["seat"], unplaced=_bump(c.unplaced, i, -1))
    s = s.with_(today=(*s.today, (d["space"], d["seat"], d["worker"])), turn=(d["seat"] + 1) % s.seats)
    return s.with_tally(d["seat"], markers_placed=1)


def _day_ended(s: MmState, d) -> MmState:
    kept = tuple((space, seat) for space, seat in d["kept"])
    for seat, resource, n in d["used"]:
        i = s.board.resource_types.index(resource)
        c = s.companies[seat]
        s = s.with_company(seat, storage=_bump(c.storage, i, -n), dedicated=_bump(c.dedicated, i, n))
    for _, seat in d["lost"]:
        s = s.with_tally(seat, markers_lost=1)
    zeros_w = (0,) * len(s.board.workers)
    for seat in range(s.seats):
        s = s.with_company(seat, unplaced=zeros_w)
    return s.with_(markers=_add(s.markers, kept), kept=kept, today=(), day_ended=True)


def _dedicated(s: MmState, d) -> MmState:
    i = s.board.resource_types.index(d["resource"])
    c = s.companies[d["seat"]]
    s = s.with_company(d["seat"], storage=_bump(c.storage, i, -1), dedicated=_bump(c.dedicated, i, 1))
    s = s.with_(markers=_add(s.markers, [(d["space"], d["seat"])]))
    return s.with_tally(d["seat"], markers_placed=1)


def _reshuffled(s: MmState, d) -> MmState:
    deck = d["deck"]
    return s.with_(**{f"{deck}_deck": tuple(sorted(d["cards"])), f"{deck}_discard": ()})


def _revealed(deck: str) -> Callable[[MmState, dict], MmState]:
    def apply(s: MmState, d) -> MmState:
        return s.with_(
            **{
                f"{deck}_deck": _remove(getattr(s, f"{deck}_deck"), [d["card"]]),
                f"{deck}_discard": _add(getattr(s, f"{deck}_discard"), [d["card"]]),
            },
            revealed=d["card"],
            resolving=True,
        )

    return apply


def _broken(s: MmState, d) -> MmState:
    gone = {(space, seat) for space, seat in d["markers"]}
    won = d.get("won", [])  # absent from locations broken before won jobs came back: they stay won
    s = s.with_(
        markers=tuple(m for m in s.markers if m not in gone),
        job_done=_remove(s.job_done, d["jobs"]),
        job_deck=_add(s.job_deck, [*d["jobs"], *(job for _, job in won)]),
    )
    for seat, job in won:
        s = s.with_company(seat, jobs=tuple(j for j in s.companies[seat].jobs if j != job))
    return _source_seat(s, d)


def _room_haunted(s: MmState, d) -> MmState:
    return _source_seat(s.with_(haunted_rooms=(*s.haunted_rooms, (d["room"], d["round"]))), d)


def _worker_haunted(s: MmState, d) -> MmState:
    return _source_seat(s.with_(haunted_workers=(*s.haunted_workers, (d["worker"], d["round"]))), d)


def _cancelled(s: MmState, d) -> MmState:
    s = s.with_(no_inspection=tuple(sorted({*s.no_inspection, d["round"]})))
    if d.get("seat") is not None:
        s = s.with_(inspector_haunted=(*s.inspector_haunted, d["round"]))
    return _source_seat(s, d)


def _funds(s: MmState, seat: int, active: int = 0, invested: int = 0) -> MmState:
    c = s.companies[seat]
    return s.with_company(seat, active=c.active + active, invested=c.invested + invested)


def _inspected(s: MmState, d) -> MmState:
    for result in d["results"]:
        s = s.with_(track=tuple(j for j in s.track if j != result["job"]))
        owner = result["owner"]
        if owner is None:
            s = s.with_(job_done=_add(s.job_done, [result["job"]]))
        else:
            s = s.with_company(owner, jobs=(*s.companies[owner].jobs, result["job"]))
        for seat, amount in result["pay"]:
            s = s.with_company(seat, due=s.companies[seat].due + amount)
    return s.with_(inspected=True)


def _paid(s: MmState, d) -> MmState:
    seat = d["seat"]
    c = s.companies[seat]
    zeros_w = (0,) * len(s.board.workers)
    s = s.with_company(
        seat,
        active=c.active + d["jobs"] - d["wages"] - d["vendors"],
        debts=_add(c.debts, [*d["wage_debts"], *d["vendor_debts"]]),
        hired=zeros_w,
        unplaced=zeros_w,
        dedicated=(0,) * len(s.board.prices),
        due=0,
    )
    return s.with_tally(seat, job_pay=d["jobs"], wages_paid=d["wages"], vendors_paid=d["vendors"])


def _status(change: str) -> Callable[[MmState, dict], MmState]:
    def apply(s: MmState, d) -> MmState:
        seat = d["seat"]
        status = getattr(s.companies[seat].status, change)(s.round)
        s = s.with_company(seat, status=status)
        if change == "close":
            s = s.with_tally(seat, closures=1)
        if change == "reopen":
            s = _done(s, seat)
        return s

    return apply


def _liquidated(s: MmState, d) -> MmState:
    s = _funds(s, d["seat"], active=d["amount"], invested=-d["amount"])
    return s if d["forced"] else _done(s, d["seat"])


def _debt_paid(s: MmState, d) -> MmState:
    c = s.companies[d["seat"]]
    s = s.with_company(d["seat"], debts=_remove(c.debts, [d["item"]]))
    return _funds(s, d["seat"], active=-d["amount"])


def _chosen(s: MmState, d) -> MmState:
    s = s.with_(first=d["seat"], marker_moved=True)
    if d["paid"]:
        s = _funds(s, d["seat"], active=-d["paid"]).with_tally(d["seat"], bids_paid=d["paid"])
    return s


def _ended(s: MmState, d) -> MmState:
    ended_by = d["ended_by"] if "ended_by" in d else d["reason"]  # ``reason`` in games recorded before
    return s.with_(phase=OVER, ended_by=ended_by, final_places=tuple(d["places"]), turn=None)


HANDLERS: dict[str, Callable[[MmState, dict], MmState]] = {
    ev.GAME_STARTED: lambda s, d: s,
    ev.JOB_DRAWN: _job_drawn,
    ev.ROUND_STARTED: _round_started,
    ev.PHASE_BEGAN: _phase_began,
    ev.WORKER_HIRED: _hired,
    ev.RESOURCES_BOUGHT: _bought,
    ev.HIRING_PASSED: lambda s, d: s.with_(passes=s.passes + 1, turn=d["next"]),
    ev.WORKER_PLACED: _placed,
    ev.DAY_ENDED: _day_ended,
    ev.RESOURCE_DEDICATED: _dedicated,
    ev.DAY_FINISHED: lambda s, d: _done(s, d["seat"]),
    ev.DECK_RESHUFFLED: _reshuffled,
    ev.EVENT_REVEALED: _revealed("event"),
    ev.HAUNT_REVEALED: _revealed("haunt"),
    ev.CARD_RESOLVED: lambda s, d: s.with_(resolving=False),
    ev.LOCATION_BROKEN: _broken,
    ev.ROOM_HAUNTED: _room_haunted,
    ev.WORKERS_STRUCK: lambda s, d: s.with_(strikes=(*s.strikes, (d["worker"], d["until"]))),
    ev.WORKER_HAUNTED: _worker_haunted,
    ev.COMPANY_FINED: lambda s, d: _funds(s, d["seat"], active=-d["amount"]),
    ev.BONUS_PAID: lambda s, d: _funds(s, d["seat"], active=d["amount"]),
    ev.INSPECTION_CANCELLED: _cancelled,
    ev.HAUNT_PASSED: lambda s, d: _done(s, d["seat"]),
    ev.JOBS_INSPECTED: _inspected,
    ev.INSPECTION_SKIPPED: lambda s, d: s.with_(inspected=True),
    ev.COMPANY_PAID: _paid,
    ev.COMPANY_CLOSED: _status("close"),
    ev.INVESTMENT_LIQUIDATED: _liquidated,
    ev.DIVIDENDS_COLLECTED: lambda s, d: _done(
        _funds(s, d["seat"], active=d["amount"]), d["seat"]
    ).with_tally(d["seat"], dividends=d["amount"]),
    ev.FUNDS_INVESTED: lambda s, d: _done(_funds(s, d["seat"], -d["amount"], d["amount"]), d["seat"]),
    ev.INVESTMENTS_PASSED: lambda s, d: _done(s, d["seat"]),
    ev.DEBT_PAID: _debt_paid,
    ev.SETTLING_FINISHED: lambda s, d: _done(s, d["seat"]),
    ev.COMPANY_REOPENED: _status("reopen"),
    ev.COMPANY_STAYED_CLOSED: lambda s, d: _done(s, d["seat"]),
    ev.COMPANY_CLOSED_FOR_GOOD: _status("close_for_good"),
    ev.BID_PLACED: lambda s, d: s.with_(
        high_bid=d["amount"], high_bidder=d["seat"], passes=0, turn=d["next"]
    ),
    ev.BID_PASSED: lambda s, d: s.with_(passes=s.passes + 1, turn=d["next"]),
    ev.FIRST_PLAYER_CHOSEN: _chosen,
    ev.GAME_DECIDED: _ended,
}


def evolve(state: MmState, event: Event) -> MmState:
    return HANDLERS[event.type](state, event.data)
