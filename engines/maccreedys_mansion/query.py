"""Questions about a state that the phases, decide, evolve and legal share."""

from __future__ import annotations

from collections import Counter

from engines.kit.seats import clockwise
from engines.maccreedys_mansion.state import MmState


def occupied(state: MmState) -> dict[str, int]:
    """Space -> the seat whose marker or worker is on it."""
    taken = dict(state.markers)
    taken.update({space: seat for space, seat, _ in state.today})
    return taken


def in_play(state: MmState, location: str) -> bool:
    return state.board.location[location].room not in state.covered


def complete(state: MmState, location: str) -> bool:
    """Every space of the location holds a marker."""
    taken = dict(state.markers)
    return all(space in taken for space in state.board.location[location].spaces)


def complete_locations(state: MmState) -> list[str]:
    return [loc.id for loc in state.board.locations if in_play(state, loc.id) and complete(state, loc.id)]


def restored(state: MmState) -> bool:
    """Every uncovered location is complete."""
    return all(complete(state, loc.id) for loc in state.board.locations if in_play(state, loc.id))


def contributions(state: MmState, location: str) -> dict[int, int]:
    """Seat -> its markers in the location."""
    spaces = set(state.board.location[location].spaces)
    return dict(Counter(seat for space, seat in state.markers if space in spaces))


def markers_in_hand(state: MmState, seat: int) -> int:
    on_board = sum(1 for _, s in state.markers if s == seat) + sum(1 for _, s, _ in state.today if s == seat)
    return state.board.markers - on_board - len(state.companies[seat].debts)


def struck(state: MmState, worker: str, round_: int) -> bool:
    return any(w == worker and round_ <= last for w, last in state.strikes)


def supply(state: MmState, worker: str) -> int:
    """Pieces of ``worker`` still to hire this round."""
    if struck(state, worker, state.round):
        return 0
    index = state.board.worker_types.index(worker)
    hired = sum(c.hired[index] for c in state.companies)
    haunted = sum(1 for w, r in state.haunted_workers if w == worker and r == state.round)
    return max(0, state.board.worker[worker].pieces - hired - haunted)


def room_haunted(state: MmState, room: str, round_: int) -> bool:
    return (room, round_) in state.haunted_rooms


def free_spaces(state: MmState, worker: str) -> list[str]:
    """Spaces a worker of this type may take today."""
    taken = occupied(state)
    return [
        s.id
        for s in state.board.spaces
        if s.worker == worker
        and s.id not in taken
        and s.room not in state.covered
        and not room_haunted(state, s.room, state.round)
    ]


def placements(state: MmState, seat: int) -> list[tuple[str, str]]:
    """(worker, space) the company may place now."""
    company = state.companies[seat]
    if not company.status.is_open or markers_in_hand(state, seat) < 1:
        return []
    options = []
    for index, worker in enumerate(state.board.worker_types):
        if company.unplaced[index]:
            options.extend((worker, space) for space in free_spaces(state, worker))
    return options


def dedications(state: MmState, seat: int) -> list[str]:
    """Free spaces the company may mark with a further resource at End of Day:
    in a room where it kept a marker today, needing a worker whose resource it stores."""
    company = state.companies[seat]
    if markers_in_hand(state, seat) < 1:
        return []
    rooms = {state.board.space[space].room for space, s in state.kept if s == seat}
    taken = occupied(state)
    board = state.board
    return [
        s.id
        for s in board.spaces
        if s.room in rooms
        and s.id not in taken
        and company.storage[board.resource_types.index(board.worker[s.worker].resource)] > 0
    ]


def debt_total(state: MmState, seat: int) -> int:
    return sum(state.board.item_price(item) for item in state.companies[seat].debts)


def money(state: MmState, seat: int) -> int:
    """Active plus invested funds, less unpaid debts at their listed prices."""
    company = state.companies[seat]
    return company.active + company.invested - debt_total(state, seat)


def dividend(invested: int) -> int:
    """10% of the invested funds, whole dollars; collectable only when $100 or more."""
    return invested // 10


def round_order(state: MmState, include) -> list[int]:
    """Seats clockwise from the First Player Marker that ``include`` accepts."""
    return clockwise(state.first, state.seats, include)


def next_from(state: MmState, seat: int, include) -> int | None:
    """The first seat after ``seat`` (clockwise, wrapping to ``seat`` itself) that ``include`` accepts."""
    order = clockwise((seat + 1) % state.seats, state.seats, include)
    return order[0] if order else None
