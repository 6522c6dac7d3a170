"""MacCreedy's Mansion state: frozen dataclasses, tuples and plain values.

Decks are sorted tuples (multisets): every draw names its card, so there is no
deck order to keep or to leak. Per-company counts of workers and resources are
tuples in the catalog's order (``Board.worker_types``, ``Board.resource_types``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.kit import shapes as v
from engines.kit import state_schema as records
from engines.kit.frozen import replace
from engines.kit.items import Record
from engines.kit.seats import SeatStatus
from engines.kit.state_schema import kept_out, shaped, state_schema
from engines.maccreedys_mansion.catalog import Board
from engines.maccreedys_mansion.events import Termination

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


# What the game shows of its state: the shapes of its fields (``engines.kit.shapes``).
# Card, space, worker and resource ids come from the game's catalog, so they are plain strings.
ALL_PHASES = (SETUP, *PHASES, OVER)
ENDINGS = ("", *(t.value for t in Termination))  # "": not ended yet


def ids(**kw):
    return v.array(v.string(), **kw)


def space_and_seat(**kw):
    return v.array(v.row(v.string(), v.seat()), **kw)


def item_and_round(**kw):
    return v.array(v.row(v.string(), v.count()), **kw)


def by_worker(**kw):
    return v.array(v.count(), description="By worker type, in the catalog's order.", **kw)


def by_resource(**kw):
    return v.array(v.count(), description="By resource, in the catalog's order.", **kw)


@dataclass(frozen=True)
class Tally:
    """What a company did over the game (statistics)."""

    job_pay: int = shaped(v.count(), default=0)
    wages_paid: int = shaped(v.count(), default=0)
    vendors_paid: int = shaped(v.count(), default=0)
    dividends: int = shaped(v.count(), default=0)
    bids_paid: int = shaped(v.count(), default=0)
    workers_hired: int = shaped(v.count(), default=0)
    markers_placed: int = shaped(v.count(), default=0)
    markers_lost: int = shaped(v.count(), default=0)
    closures: int = shaped(v.count(), default=0)
    haunts: int = shaped(v.count(), default=0)


TallyShape = state_schema(Tally, name="MaccreedysMansionTally")


@dataclass(frozen=True)
class Company:
    active: int = shaped(v.integer())
    invested: int = shaped(v.integer())
    status: SeatStatus = shaped(v.nested(v.SeatStatusState), default=SeatStatus())
    hired: tuple[int, ...] = shaped(by_worker(), default=(0, 0, 0, 0, 0))  # this round's workers
    unplaced: tuple[int, ...] = shaped(by_worker(), default=(0, 0, 0, 0, 0))  # hired, not yet placed today
    storage: tuple[int, ...] = shaped(by_resource(), default=(0, 0, 0, 0))
    dedicated: tuple[int, ...] = shaped(by_resource(), default=(0, 0, 0, 0))  # this round's, paid at Earnings
    #: one debt marker per item (a worker type or a resource), sorted
    debts: tuple[str, ...] = shaped(ids(), default=())
    jobs: tuple[str, ...] = shaped(ids(), default=())  # job cards won
    due: int = shaped(v.integer(), default=0)  # job pay from this round's Inspection
    tally: Tally = shaped(v.nested(TallyShape), default_factory=Tally)


CompanyShape = state_schema(Company, name="MaccreedysMansionCompany")


@dataclass(frozen=True)
class MmState(Record):
    board: Board = kept_out()  # the game's config holds the catalog
    seats: int = shaped(v.count())
    first: int = shaped(v.seat(description="The seat holding the First Player Marker."))
    max_rounds: int = shaped(v.count())
    covered: tuple[str, ...] = shaped(ids(description="Covered rooms."), default=())
    phase: str = shaped(v.string(ALL_PHASES), default=SETUP)
    round: int = shaped(v.count(), default=0)
    companies: tuple[Company, ...] = shaped(v.array(v.nested(CompanyShape)), default=())
    markers: tuple[tuple[str, int], ...] = shaped(
        space_and_seat(description="[space, seat] of every marker on the board."), default=()
    )  # sorted
    today: tuple[tuple[str, int, str], ...] = shaped(
        v.array(v.row(v.string(), v.seat(), v.string()), description="[space, seat, worker] placed today."),
        default=(),
    )  # in order
    kept: tuple[tuple[str, int], ...] = shaped(
        space_and_seat(description="[space, seat] of the markers kept at End of Day."), default=()
    )
    track: tuple[str, ...] = shaped(
        ids(description="Open job cards, in the order they were drawn."), default=()
    )
    job_deck: tuple[str, ...] = shaped(ids(), default=())
    job_done: tuple[str, ...] = shaped(ids(), default=())  # completed with no owner, or set aside as invalid
    event_deck: tuple[str, ...] = shaped(ids(), default=())
    event_discard: tuple[str, ...] = shaped(ids(), default=())
    haunt_deck: tuple[str, ...] = shaped(ids(), default=())
    haunt_discard: tuple[str, ...] = shaped(ids(), default=())
    revealed: str | None = shaped(
        v.string(null=True, description="This phase's Event or Haunt card."), default=None
    )
    resolving: bool = shaped(v.boolean(), default=False)  # the revealed card's effects are still to come
    turn: int | None = shaped(v.seat(null=True), default=None)  # the seat a rotation has reached
    passes: int = shaped(v.count(), default=0)  # consecutive passes in Hiring and Bidding
    done: tuple[int, ...] = shaped(v.array(v.seat()), default=())  # seats finished with this phase
    day_ended: bool = shaped(v.boolean(), default=False)
    inspected: bool = shaped(v.boolean(), default=False)
    high_bid: int = shaped(v.count(), default=0)
    high_bidder: int | None = shaped(v.seat(null=True), default=None)
    marker_moved: bool = shaped(v.boolean(), default=False)  # Bidding has settled the First Player Marker
    strikes: tuple[tuple[str, int], ...] = shaped(
        item_and_round(description="[worker, last round it cannot be hired]."), default=()
    )
    haunted_workers: tuple[tuple[str, int], ...] = shaped(
        item_and_round(description="[worker, round] one piece missing that round."), default=()
    )
    haunted_rooms: tuple[tuple[str, int], ...] = shaped(
        item_and_round(description="[room, round] nobody places there that round."), default=()
    )
    no_inspection: tuple[int, ...] = shaped(
        v.array(v.count(), description="Rounds without Inspection."), default=()
    )
    inspector_haunted: tuple[int, ...] = shaped(
        v.array(v.count(), description="Rounds a closed company haunted the Inspector."), default=()
    )
    ended_by: str = shaped(v.string(ENDINGS), default="")
    final_places: tuple[int, ...] = shaped(v.array(v.integer(1)), default=())

    def with_company(self, seat: int, **changes: Any) -> MmState:
        companies = list(self.companies)
        companies[seat] = replace(companies[seat], **changes)
        return replace(self, companies=tuple(companies))

    def with_tally(self, seat: int, **adds: int) -> MmState:
        tally = self.companies[seat].tally
        return self.with_company(
            seat, tally=replace(tally, **{k: getattr(tally, k) + v for k, v in adds.items()})
        )


def dump_state(state: MmState) -> dict[str, Any]:
    """The state as JSON, without the board (the game's config holds the catalog)."""
    return records.dump(state)
