"""MacCreedy's Mansion state: frozen dataclasses, tuples and plain values.

Decks are sorted tuples (multisets): every draw names its card, so there is no
deck order to keep or to leak. Per-company counts of workers and resources are
tuples in the catalog's order (``Board.worker_types``, ``Board.resource_types``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.kit.frozen import replace
from engines.kit.items import Record
from engines.kit.seats import SeatStatus
from engines.maccreedys_mansion.catalog import Board

SETUP = "setup"  # the job track is dealt
HIRING = "hiring"
PLACEMENT = "placement"
END_OF_DAY = "end-of-day"
EVENT = "event"
HAUNT = "haunt"
INSPECTION = "inspection"
EARNINGS = "earnings"
BANKRUPTCY = "bankruptcy"
INVESTMENTS = "investments"
SETTLE_UP = "settle-up"
REOPEN = "re-open"
BIDDING = "bidding"
OVER = "over"
PHASES = (
    HIRING,
    PLACEMENT,
    END_OF_DAY,
    EVENT,
    HAUNT,
    INSPECTION,
    EARNINGS,
    BANKRUPTCY,
    INVESTMENTS,
    SETTLE_UP,
    REOPEN,
    BIDDING,
)


@dataclass(frozen=True)
class Tally:
    """What a company did over the game (statistics)."""

    job_pay: int = 0
    wages_paid: int = 0
    vendors_paid: int = 0
    dividends: int = 0
    bids_paid: int = 0
    workers_hired: int = 0
    markers_placed: int = 0
    markers_lost: int = 0
    closures: int = 0
    haunts: int = 0


@dataclass(frozen=True)
class Company:
    active: int
    invested: int
    status: SeatStatus = SeatStatus()
    hired: tuple[int, ...] = (0, 0, 0, 0, 0)  # this round's workers, by worker type
    unplaced: tuple[int, ...] = (0, 0, 0, 0, 0)  # hired and not yet placed today
    storage: tuple[int, ...] = (0, 0, 0, 0)  # by resource type
    dedicated: tuple[int, ...] = (0, 0, 0, 0)  # resources dedicated this round, paid at Earnings
    debts: tuple[str, ...] = ()  # one debt marker per item (a worker type or a resource), sorted
    jobs: tuple[str, ...] = ()  # job cards won
    due: int = 0  # job pay from this round's Inspection
    tally: Tally = field(default_factory=Tally)


@dataclass(frozen=True)
class MmState(Record):
    board: Board
    seats: int
    first: int
    max_rounds: int
    covered: tuple[str, ...] = ()  # covered rooms
    phase: str = SETUP
    round: int = 0
    companies: tuple[Company, ...] = ()
    markers: tuple[tuple[str, int], ...] = ()  # (space, seat) of every marker on the board, sorted
    today: tuple[tuple[str, int, str], ...] = ()  # (space, seat, worker) placed today, in order
    kept: tuple[tuple[str, int], ...] = ()  # (space, seat) markers kept at End of Day
    track: tuple[str, ...] = ()  # open job cards, in the order they were drawn
    job_deck: tuple[str, ...] = ()
    job_done: tuple[str, ...] = ()  # completed with no owner, or set aside as invalid
    event_deck: tuple[str, ...] = ()
    event_discard: tuple[str, ...] = ()
    haunt_deck: tuple[str, ...] = ()
    haunt_discard: tuple[str, ...] = ()
    revealed: str | None = None  # this phase's Event or Haunt card
    resolving: bool = False  # the revealed card's effects are still to come
    turn: int | None = None  # the seat a rotation has reached
    passes: int = 0  # consecutive passes in Hiring and Bidding
    done: tuple[int, ...] = ()  # seats finished with this phase
    day_ended: bool = False
    inspected: bool = False
    high_bid: int = 0
    high_bidder: int | None = None
    marker_moved: bool = False  # Bidding has settled the First Player Marker
    strikes: tuple[tuple[str, int], ...] = ()  # (worker, last round it cannot be hired)
    haunted_workers: tuple[tuple[str, int], ...] = ()  # (worker, round) one piece missing that round
    haunted_rooms: tuple[tuple[str, int], ...] = ()  # (room, round) nobody places there that round
    no_inspection: tuple[int, ...] = ()  # rounds without Inspection
    inspector_haunted: tuple[int, ...] = ()  # rounds a closed company haunted the Inspector
    ended_by: str = ""
    final_places: tuple[int, ...] = ()

    def with_company(self, seat: int, **changes: Any) -> MmState:
        companies = list(self.companies)
        companies[seat] = replace(companies[seat], **changes)
        return replace(self, companies=tuple(companies))

    def with_tally(self, seat: int, **adds: int) -> MmState:
        tally = self.companies[seat].tally
        return self.with_company(
            seat, tally=replace(tally, **{k: getattr(tally, k) + v for k, v in adds.items()})
        )


_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """Tuples to lists and dataclasses to dicts, all the way down (faster than ``asdict``)."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, tuple | list):
        if all(isinstance(item, _SCALARS) for item in value):
            return list(value)
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}


def _tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuple(v) for v in value)
    return value


def dump_state(state: MmState) -> dict[str, Any]:
    """The state as JSON, without the board (the game's config holds the catalog)."""
    return {name: _plain(getattr(state, name)) for name in state.__dataclass_fields__ if name != "board"}


def load_state(data: dict[str, Any], board: Board) -> MmState:
    companies = tuple(
        Company(
            **{
                **{k: _tuple(v) for k, v in c.items()},
                "status": SeatStatus(**c["status"]),
                "tally": Tally(**c["tally"]),
            }
        )
        for c in data["companies"]
    )
    plain = {k: _tuple(v) for k, v in data.items() if k != "companies"}
    return MmState(board=board, companies=companies, **plain)
