"""Placement (MM-7), End of Day (MM-8) and what completes a location."""

import pytest

from engines.base import RuleViolation
from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.query import complete, restored

from .builders import act, company, fill, marks, new_game, run


def hire(state, *plan):
    """Hiring: each (seat, worker or (resource, count)) in order, then everyone passes."""
    for seat, what in plan:
        while state.turn != seat:
            state = act(state, {"type": "PassHiring", "seat": state.turn})
        if isinstance(what, tuple):
            state = act(state, {"type": "BuyResources", "seat": seat, "resource": what[0], "count": what[1]})
        else:
            state = act(state, {"type": "HireWorker", "seat": seat, "worker": what})
    while state.phase == "hiring":
        state = act(state, {"type": "PassHiring", "seat": state.turn})
    return state


def place(state, seat, worker, space):
    return run(state, {"type": "PlaceWorker", "seat": seat, "worker": worker, "space": space})


def test_placement_goes_on_until_nobody_can_place():
    state = hire(new_game(2), (0, "carpenter"), (1, "mason"), (0, "carpenter"))
    assert state.phase == "placement"
    state, _ = place(state, 0, "carpenter", "front-door-1")
    state, _ = place(state, 1, "mason", "hearth-1")
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "PlaceWorker", "seat": 1, "worker": "mason", "space": "hearth-2"})
    assert refused.value.code == "not-your-turn"
    state, events = place(state, 0, "carpenter", "front-door-2")
    assert state.phase != "placement" and ev.DAY_ENDED in [e.type for e in events]


def test_a_placement_must_match_a_free_space_for_that_worker():
    state = hire(new_game(2), (0, "carpenter"), (1, "carpenter"))
    state, _ = place(state, 0, "carpenter", "front-door-1")
    for command, code in [
        ({"worker": "carpenter", "space": "front-door-1"}, "space-taken"),
        ({"worker": "carpenter", "space": "hearth-1"}, "wrong-worker"),
        ({"worker": "mason", "space": "hearth-1"}, "no-worker-to-place"),
        ({"worker": "carpenter", "space": "attic-1"}, "no-such-space"),
    ]:
        with pytest.raises(RuleViolation) as refused:
            ENGINE.decide(state, {"type": "PlaceWorker", "seat": 1, **command})
        assert refused.value.code == code


def test_a_company_without_a_marker_in_hand_cannot_place():
    state = hire(new_game(2), (0, "carpenter"), (1, "carpenter"))
    state = company(state, 0, debts=("carpenter",) * state.board.markers)
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "PlaceWorker", "seat": 0, "worker": "carpenter", "space": "shelves-1"})
    assert refused.value.code == "no-markers-left"
    assert ENGINE.legal_commands(state, 0) == []


def test_a_worker_without_its_resource_loses_its_marker():
    state = hire(new_game(2), (0, "carpenter"), (1, "mason"), (1, ("stone", 1)))
    state, _ = place(state, 0, "carpenter", "front-door-1")
    state, events = place(state, 1, "mason", "hearth-1")
    day = next(e for e in events if e.type == ev.DAY_ENDED).data
    assert day["kept"] == [["hearth-1", 1]] and day["lost"] == [["front-door-1", 0]]
    assert ("hearth-1", 1) in state.markers and ("front-door-1", 0) not in state.markers
    assert state.companies[1].storage[0] == 0 and state.companies[1].dedicated[0] == 1


def test_the_earliest_markers_stay_when_resources_run_short():
    state = hire(new_game(2), (0, "carpenter"), (0, "carpenter"), (0, ("lumber", 1)))
    state, _ = place(state, 0, "carpenter", "shelves-1")
    state, events = place(state, 0, "carpenter", "front-door-1")
    day = next(e for e in events if e.type == ev.DAY_ENDED).data
    assert day["kept"] == [["shelves-1", 0]] and day["lost"] == [["front-door-1", 0]]


def test_the_gasman_uses_pipes_like_the_plumber():
    state = hire(new_game(2), (0, "gasman"), (0, "plumber"), (0, ("pipes", 1)))
    state, _ = place(state, 0, "gasman", "stove-1")
    state, events = place(state, 0, "plumber", "stove-2")
    day = next(e for e in events if e.type == ev.DAY_ENDED).data
    assert day["kept"] == [["stove-1", 0]] and day["used"] == [[0, "pipes", 1]]


def test_a_dedicated_resource_places_a_marker_in_the_same_room():
    state = hire(new_game(2), (0, "carpenter"), (0, ("lumber", 3)), (0, ("stone", 1)))
    state, _ = place(state, 0, "carpenter", "shelves-1")
    assert state.phase == "end-of-day"
    legal = ENGINE.legal_commands(state, 0)
    spaces = {c["space"] for c in legal if c["type"] == "DedicateResource"}
    assert spaces == {"shelves-2", "shelves-3", "library-fireplace-1", "library-fireplace-2"}
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "DedicateResource", "seat": 0, "space": "front-door-1"})
    assert refused.value.code == "cannot-dedicate"
    state, _ = run(state, {"type": "DedicateResource", "seat": 0, "space": "shelves-2"})
    state, _ = run(state, {"type": "DedicateResource", "seat": 0, "space": "library-fireplace-1"})
    assert {("shelves-2", 0), ("library-fireplace-1", 0)} <= set(state.markers)
    assert state.companies[0].dedicated == (1, 2, 0, 0)
    state, _ = run(state, {"type": "FinishDay", "seat": 0})
    assert state.phase == "event"


def test_a_location_is_complete_when_every_space_holds_a_marker():
    state = new_game(2)
    state = marks(state, ("front-door-1", 0))
    assert not complete(state, "front-door")
    state = marks(state, ("front-door-2", 1))
    assert complete(state, "front-door")
    assert not restored(state)
    for location in state.board.locations:
        state = fill(state, location.id, 0)
    assert restored(state)


def test_resources_in_storage_are_paid_for_only_when_dedicated():
    state = hire(new_game(2), (0, "mason"), (0, ("stone", 4)))
    state, events = place(state, 0, "mason", "hearth-1")
    while state.phase not in ("investments", "settle-up", "re-open", "bidding"):
        request = ENGINE.chance(state)
        if request:
            card = "event-quiet-day" if request.fixed["deck"] == "event" else "haunt-creaking"
            state, more = run(state, {"type": "DrawCard", "seat": None, **request.fixed, "cards": [card]})
        else:
            state, more = run(state, {"type": "FinishDay", "seat": 0})
        events += more
    paid = next(e for e in events if e.type == ev.COMPANY_PAID and e.data["seat"] == 0).data
    assert paid["wages"] == 2000 and paid["vendors"] == 500
    assert state.companies[0].storage[0] == 3 and state.companies[0].active == 10_000 - 2500
