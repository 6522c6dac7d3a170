"""What players see: views, plain-English lines, luck, statistics.

Nothing is held in a hand: the only unknown is the order of the three decks,
and the state holds no order (every draw names its card). Views show each
deck's size, not its contents, and events need no redaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.base import Event
from engines.kit.labels import is_index
from engines.kit.table import counted, with_article
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.catalog import Board
from engines.maccreedys_mansion.effects import resolve_card
from engines.maccreedys_mansion.flow import actor, chance_request
from engines.maccreedys_mansion.query import complete_locations, debt_total, markers_in_hand, money
from engines.maccreedys_mansion.state import OVER, MmState, dump_state
from engines.maccreedys_mansion.words import card_name, dollars, location_name, room_name, space_name

DECKS = ("job_deck", "event_deck", "haunt_deck")
HAUNT_TARGETS = {
    "worker": "a worker",
    "room": "a room",
    "location": "a location",
    "inspector": "the Inspector",
}


def _counts(types: Sequence[str], counts: Sequence[int]) -> dict[str, int]:
    return dict(zip(types, counts, strict=True))


def view(state: MmState, seat: int | None) -> dict[str, Any]:
    data = dump_state(state)
    if state.phase != OVER:
        for deck in DECKS:
            data[f"{deck}_size"] = len(data.pop(deck))
    board = state.board
    request = chance_request(state)
    data.update(
        {
            "catalog": {"id": board.id, "version": board.version, "reconstruction": board.reconstruction},
            "you": seat,
            "awaiting": actor(state),
            "awaiting_card": None if request is None else request.fixed["deck"],
            "complete_locations": complete_locations(state),
            "companies": [
                {
                    "seat": s,
                    "status": c.status.status,
                    "since": c.status.since,
                    "active": c.active,
                    "invested": c.invested,
                    "money": money(state, s),
                    "debts": list(c.debts),
                    "debt_total": debt_total(state, s),
                    "jobs": list(c.jobs),
                    "hired": _counts(board.worker_types, c.hired),
                    "unplaced": _counts(board.worker_types, c.unplaced),
                    "storage": _counts(board.resource_types, c.storage),
                    "dedicated": _counts(board.resource_types, c.dedicated),
                    "due": c.due,
                    "markers_in_hand": markers_in_hand(state, s),
                }
                for s, c in enumerate(state.companies)
            ],
        }
    )
    return data


def redact(event: Event, seat: int | None) -> Event:
    return event


def _who(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"


def _word(d: Mapping[str, Any], name: str, key: str) -> Any:
    """The name an event carries for the id under ``key``; an event stored
    before events carried names goes by the id."""
    return d.get(name) or d[key]


def _by(d: Mapping[str, Any], names: Sequence[str]) -> str:
    if d.get("seat") is not None:
        return f"{_who(names, d['seat'])}'s haunting"
    return _word(d, "name", "card")


def _won(result: Mapping[str, Any], names: Sequence[str]) -> str:
    """A completed job and who takes it."""
    owner = "nobody (a tie)" if result["owner"] is None else _who(names, result["owner"])
    return f"{_word(result, 'name', 'job')} to {owner}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


_NAMERS: dict[str, Callable[[Board, str], str | None]] = {
    "cards": card_name,
    "space": space_name,
    "room": room_name,
    "location": location_name,
    "target": lambda board, target: HAUNT_TARGETS.get(target),
}


def awaited_label(state: MmState, command: dict[str, Any], names: Sequence[str]) -> str:
    """The draw the table is about to enter."""
    return f"A {command['deck']} card is drawn"


def label_value(state: MmState, field: str, value: Any, names: Sequence[str]) -> str | None:
    """One value of a command's field in the scorepad's words: a card by its
    name, a room or a location by its title, a space by its place in its
    location, a haunt's target, a seat by its player. Workers, resources and
    debt items are words already (None)."""
    if field == "seat":
        return _who(names, value) if is_index(value, len(names)) else None
    namer = _NAMERS.get(field) if isinstance(field, str) else None
    return namer(state.board, value) if namer and isinstance(value, str) else None


def describe(event: Event, names: Sequence[str]) -> str:
    d = event.data
    t = event.type
    who = _who(names, d.get("seat"))
    lines = {
        ev.GAME_STARTED: lambda: (
            f"The mansion opens to {d.get('seats')} companies; {_who(names, d.get('first'))} goes first."
        ),
        ev.JOB_DRAWN: lambda: (
            "Job card drawn "
            + ("and set aside (its location is already complete)" if d["set_aside"] else "to the job track")
            + f": {_word(d, 'name', 'card')}."
        ),
        ev.ROUND_STARTED: lambda: f"Round {d['round']} begins with hiring.",
        ev.PHASE_BEGAN: lambda: f"Round {d['round']}: the {d['phase'].replace('-', ' ')} phase begins.",
        ev.WORKER_HIRED: lambda: f"{who} hires {with_article(d['worker'])}.",
        ev.RESOURCES_BOUGHT: lambda: f"{who} buys {counted(d['count'], d['resource'])}.",
        ev.HIRING_PASSED: lambda: f"{who} passes on hiring.",
        ev.WORKER_PLACED: lambda: (
            f"{who} places {with_article(d['worker'])} on {_word(d, 'space_name', 'space')}."
        ),
        ev.DAY_ENDED: lambda: (
            f"The day ends: {_plural(len(d['kept']), 'marker')} kept, "
            f"{len(d['lost'])} lost for want of resources."
        ),
        ev.RESOURCE_DEDICATED: lambda: (
            f"{who} dedicates {d['resource']} to mark {_word(d, 'space_name', 'space')}."
        ),
        ev.DAY_FINISHED: lambda: f"{who} dedicates nothing more today.",
        ev.DECK_RESHUFFLED: lambda: f"The {d['deck']} discards are shuffled into a new deck.",
        ev.EVENT_REVEALED: lambda: f"Event card revealed: {_word(d, 'name', 'card')}.",
        ev.HAUNT_REVEALED: lambda: f"Haunt card revealed: {_word(d, 'name', 'card')}.",
        ev.CARD_RESOLVED: lambda: f"{_word(d, 'name', 'card')} is resolved.",
        ev.LOCATION_BROKEN: lambda: (
            f"{_by(d, names)} breaks the {_word(d, 'location_name', 'location')}: "
            f"{_plural(len(d['markers']), 'marker')} removed, {_plural(len(d['jobs']) + len(d.get('won', [])), 'job')} back in the deck."
        ),
        ev.ROOM_HAUNTED: lambda: (
            f"{_by(d, names)} haunts the {_word(d, 'room_name', 'room')}: "
            f"nobody works there in round {d['round']}."
        ),
        ev.WORKERS_STRUCK: lambda: f"No {d['worker']} may be hired until after round {d['until']}.",
        ev.WORKER_HAUNTED: lambda: (
            f"{who} haunts {with_article(d['worker'])} out of work for round {d['round']}."
        ),
        ev.COMPANY_FINED: lambda: f"{who} pays {dollars(d['amount'])} ({_word(d, 'name', 'card')}).",
        ev.BONUS_PAID: lambda: f"{who} receives {dollars(d['amount'])} ({_word(d, 'name', 'card')}).",
        ev.INSPECTION_CANCELLED: lambda: f"{_by(d, names)} keeps the Inspector away in round {d['round']}.",
        ev.HAUNT_PASSED: lambda: f"{who} does not haunt.",
        ev.JOBS_INSPECTED: lambda: (
            f"Inspection: {_plural(len(d['results']), 'job')} completed"
            + "".join(f"; {_won(r, names)}" for r in d["results"])
            + "."
        ),
        ev.INSPECTION_SKIPPED: lambda: f"There is no Inspection in round {d['round']}.",
        ev.COMPANY_PAID: lambda: (
            f"{who} earns {dollars(d['jobs'])}, pays {dollars(d['wages'])} in wages and "
            f"{dollars(d['vendors'])} to vendors"
            + (
                f", and owes {_plural(len(d['wage_debts']) + len(d['vendor_debts']), 'debt')}."
                if d["wage_debts"] or d["vendor_debts"]
                else "."
            )
        ),
        ev.COMPANY_CLOSED: lambda: f"{who} is bankrupt and closes.",
        ev.INVESTMENT_LIQUIDATED: lambda: (
            f"{who} liquidates {dollars(d['amount'])} of investments"
            + (" (a closed company must)." if d["forced"] else ".")
        ),
        ev.DIVIDENDS_COLLECTED: lambda: f"{who} collects {dollars(d['amount'])} in dividends.",
        ev.FUNDS_INVESTED: lambda: f"{who} invests {dollars(d['amount'])}.",
        ev.INVESTMENTS_PASSED: lambda: f"{who} leaves the investments as they are.",
        ev.DEBT_PAID: lambda: f"{who} pays {with_article(d['item'])} debt of {dollars(d['amount'])}.",
        ev.SETTLING_FINISHED: lambda: f"{who} settles no more debts.",
        ev.COMPANY_REOPENED: lambda: f"{who} re-opens for business.",
        ev.COMPANY_STAYED_CLOSED: lambda: f"{who} stays closed.",
        ev.COMPANY_CLOSED_FOR_GOOD: lambda: f"{who} has nothing left and is closed for good.",
        ev.BID_PLACED: lambda: f"{who} bids {dollars(d['amount'])} for the First Player Marker.",
        ev.BID_PASSED: lambda: f"{who} passes.",
        ev.FIRST_PLAYER_CHOSEN: lambda: (
            f"{who} takes the First Player Marker"
            + (f" for {dollars(d['paid'])}." if d["paid"] else " (no bids).")
        ),
        ev.GAME_DECIDED: lambda: (
            f"The game ends ({d.get('ended_by', d.get('reason', '')).replace('-', ' ')}) after round {d['round']}."
        ),
    }
    line = lines.get(t)
    return line() if line else f"{t}."


def _worth(state: MmState, card: str, seat: int) -> int:
    """What a card does to a seat: its money change, less $1,000 per marker it removes."""
    worth = 0
    for event in resolve_card(state, card):
        if event.data.get("seat") == seat and event.type == ev.COMPANY_FINED:
            worth -= event.data["amount"]
        elif event.data.get("seat") == seat and event.type == ev.BONUS_PAID:
            worth += event.data["amount"]
        elif event.type == ev.LOCATION_BROKEN:
            worth -= 1000 * sum(1 for _, s in event.data["markers"] if s == seat)
    return worth


def luck(state: MmState, event: Event) -> dict[int, float]:
    """An Event or Haunt card against every card the deck could have given."""
    if event.type not in (ev.EVENT_REVEALED, ev.HAUNT_REVEALED):
        return {}
    pool = state.event_deck if event.type == ev.EVENT_REVEALED else state.haunt_deck
    if event.data["card"] not in pool:
        return {}
    out = {}
    for seat, company in enumerate(state.companies):
        if not company.status.in_game:
            continue
        worths = [_worth(state, card, seat) for card in pool]
        mine = _worth(state, event.data["card"], seat)
        below = sum(w < mine for w in worths)
        equal = sum(w == mine for w in worths)
        out[seat] = (below + equal / 2) / len(worths)
    return out


def statistics(state: MmState) -> dict[str, Any]:
    return {
        "rounds": state.round,
        "ended_by": state.ended_by,
        "complete_locations": len(complete_locations(state)),
        "seats": [
            {
                "seat": s,
                "money": money(state, s),
                "active": c.active,
                "invested": c.invested,
                "debts": len(c.debts),
                "status": c.status.status,
                "jobs_won": len(c.jobs),
                "jobs": list(c.jobs),
                "job_pay": c.tally.job_pay,
                "wages_paid": c.tally.wages_paid,
                "vendors_paid": c.tally.vendors_paid,
                "dividends": c.tally.dividends,
                "bids_paid": c.tally.bids_paid,
                "workers_hired": c.tally.workers_hired,
                "markers_placed": c.tally.markers_placed,
                "markers_lost": c.tally.markers_lost,
                "closures": c.tally.closures,
                "haunts": c.tally.haunts,
            }
            for s, c in enumerate(state.companies)
        ],
    }
