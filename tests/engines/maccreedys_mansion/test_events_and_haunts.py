"""Events (MM-9) and the Haunt (MM-10): cards, and what closed companies do."""

import pytest

from engines.base import Event, RuleViolation
from engines.kit.seats import SeatStatus
from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.flow import actor
from engines.maccreedys_mansion.query import free_spaces, supply

from .builders import act, close, company, fill, new_game, quiet, run, settle, until

CLOSED = SeatStatus("closed", 1)


def draw(state, card):
    request = ENGINE.chance(state)
    return run(state, {"type": "DrawCard", "seat": None, **request.fixed, "cards": [card]})


def test_an_event_card_resolves_its_effects():
    state = until(new_game(3), "event")
    state = fill(state, "front-door", 1)
    state, events = draw(state, "event-storm")
    kinds = [e.type for e in events]
    assert kinds[:3] == [ev.EVENT_REVEALED, ev.LOCATION_BROKEN, ev.CARD_RESOLVED]
    assert not any(space.startswith("front-door") for space, _ in state.markers)
    assert state.phase == "haunt"


def test_a_bonus_comes_from_the_bank_and_a_fine_never_makes_funds_negative():
    state = until(new_game(3), "event")
    state = company(state, 2, active=300)
    after, _ = draw(state, "event-property-tax")
    assert [c.active for c in after.companies] == [9_000, 9_000, 0]
    after, _ = draw(state, "event-open-house")
    assert [c.active for c in after.companies] == [13_000, 10_000, 300]


def test_a_fine_never_makes_funds_negative():
    state = company(until(new_game(2), "event"), 0, active=0)
    state, events = draw(state, "event-property-tax")
    assert state.companies[0].active == 0
    assert [e.data["seat"] for e in events if e.type == ev.COMPANY_FINED] == [1]


def test_an_empty_deck_is_refilled_from_its_discards():
    state = until(new_game(2), "event")
    state = state.with_(event_deck=(), event_discard=("event-storm", "event-termites"))
    state, events = settle(state)
    assert events[0].type == ev.DECK_RESHUFFLED and state.event_deck == ("event-storm", "event-termites")
    assert ENGINE.chance(state).pool == ("event-storm", "event-termites")


def test_breaking_a_location_returns_its_unowned_jobs_to_the_deck():
    state = until(new_game(2), "event")
    state = fill(state, "tub", 0).with_(job_done=("job-tub",), job_deck=())
    state = company(state, 1, jobs=("job-front-door",))
    state, events = draw(state, "event-burst-pipe")
    broken = next(e for e in events if e.type == ev.LOCATION_BROKEN).data
    assert broken["jobs"] == ["job-tub"] and state.job_deck == ("job-tub",) and state.job_done == ()
    assert state.companies[1].jobs == ("job-front-door",)


def test_breaking_a_location_shuffles_its_won_jobs_back_into_the_job_deck():
    state = until(new_game(2), "event")
    state = fill(state, "tub", 0).with_(job_deck=())
    state = company(state, 0, jobs=("job-tub",), active=7_000)
    state = company(state, 1, jobs=("job-front-door",))
    state, events = draw(state, "event-burst-pipe")
    broken = next(e for e in events if e.type == ev.LOCATION_BROKEN).data
    assert broken["won"] == [[0, "job-tub"]]
    assert state.job_deck == ("job-tub",) and state.companies[0].jobs == ()
    assert state.companies[0].active == 7_000  # the money it was paid stays paid
    assert state.companies[1].jobs == ("job-front-door",)


def test_a_location_broken_before_won_jobs_came_back_replays_as_it_was_played():
    state = until(new_game(2), "event")
    state = fill(state, "tub", 0).with_(job_deck=())
    state = company(state, 0, jobs=("job-tub",))
    recorded = {
        "location": "tub",
        "location_name": "Tub",
        "markers": [],
        "jobs": [],
        "card": "event-burst-pipe",
    }
    state = ENGINE.evolve(state, Event(ev.LOCATION_BROKEN, recorded))
    assert state.companies[0].jobs == ("job-tub",) and state.job_deck == ()


def test_a_strike_stops_hiring_that_worker_next_round():
    state = until(new_game(2), "event")
    state, _ = draw(state, "event-electricians-strike")
    state = until(state, "hiring")
    assert state.round == 2 and supply(state, "electrician") == 0
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "HireWorker", "seat": state.turn, "worker": "electrician"})
    assert refused.value.code == "workers-on-strike"


def test_each_closed_company_may_haunt_once():
    state = close(new_game(3), 0, 2)
    state = until(state, "haunt")
    state, _ = draw(state, "haunt-creaking")
    assert ENGINE.legal_commands(state, 1) == []
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "PassHaunt", "seat": 2})
    assert refused.value.code == "not-your-turn"
    state, _ = run(state, {"type": "Haunt", "seat": 0, "target": "worker", "worker": "gasman"})
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "Haunt", "seat": 0, "target": "worker", "worker": "mason"})
    assert refused.value.code == "not-your-turn"
    state, _ = run(state, {"type": "PassHaunt", "seat": 2})
    assert state.phase != "haunt"


def test_an_open_company_does_not_haunt():
    state = close(new_game(2), 0)
    state, _ = draw(until(state, "haunt"), "haunt-creaking")
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "Haunt", "seat": 1, "target": "inspector"})
    assert refused.value.code == "company-open"


def test_a_company_closed_for_good_still_haunts():
    state = close(new_game(3), 1, status="out")
    state, _ = draw(until(state, "haunt"), "haunt-creaking")
    assert {"type": "PassHaunt", "seat": 1} in ENGINE.legal_commands(state, 1)


def test_a_haunted_worker_leaves_the_next_hiring_supply():
    state = close(new_game(2), 0)
    state, _ = draw(until(state, "haunt"), "haunt-creaking")
    state, _ = run(state, {"type": "Haunt", "seat": 0, "target": "worker", "worker": "gasman"})
    assert supply(state, "gasman") == 1
    state = until(state, "hiring")
    assert supply(state, "gasman") == 0 and supply(state, "mason") == 6


def test_a_haunted_room_takes_no_placement_next_round():
    state = close(new_game(2), 0)
    state, _ = draw(until(state, "haunt"), "haunt-creaking")
    state, _ = run(state, {"type": "Haunt", "seat": 0, "target": "room", "room": "library"})
    state = until(state, "hiring")
    assert not any(s.startswith("shelves") for s in free_spaces(state, "carpenter"))
    state = act(state, {"type": "HireWorker", "seat": 1, "worker": "carpenter"})
    state = act(state, {"type": "PassHiring", "seat": 1})
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "PlaceWorker", "seat": 1, "worker": "carpenter", "space": "shelves-1"})
    assert refused.value.code == "room-haunted"


def test_only_an_incomplete_room_is_haunted_and_only_a_completed_location_is_broken():
    state = close(new_game(2), 0)
    for location in state.board.room["bathroom"].locations:
        state = fill(state, location, 1)
    state, _ = draw(until(state, "haunt"), "haunt-creaking")
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "Haunt", "seat": 0, "target": "room", "room": "bathroom"})
    assert refused.value.code == "room-not-incomplete"
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "Haunt", "seat": 0, "target": "location", "location": "hearth"})
    assert refused.value.code == "location-not-complete"
    state, events = run(state, {"type": "Haunt", "seat": 0, "target": "location", "location": "tub"})
    assert events[0].type == ev.LOCATION_BROKEN and events[0].data["seat"] == 0
    assert not any(space.startswith("tub") for space, _ in state.markers)


def test_a_haunted_inspector_means_no_job_pay_this_round():
    state = close(new_game(2), 0)
    state = fill(state, "front-door", 1)
    state, _ = draw(until(state, "haunt"), "haunt-creaking")
    state, events = run(state, {"type": "Haunt", "seat": 0, "target": "inspector"})
    assert ev.INSPECTION_SKIPPED in [e.type for e in events]
    assert state.companies[1].jobs == () and "job-front-door" in state.track


def test_the_inspector_cannot_be_haunted_two_rounds_running():
    state = close(new_game(3), 0, 2)
    state, _ = draw(until(state, "haunt"), "haunt-creaking")
    state, _ = run(state, {"type": "Haunt", "seat": 0, "target": "inspector"})
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "Haunt", "seat": 2, "target": "inspector"})
    assert refused.value.code == "no-inspection-this-round"
    state, _ = run(state, {"type": "PassHaunt", "seat": 2})
    state = until(state, "haunt")
    state, _ = draw(state, quiet(state, ENGINE.chance(state).pool))
    seat = actor(state)
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "Haunt", "seat": seat, "target": "inspector"})
    assert refused.value.code == "inspector-haunted-last-round"
    assert not [c for c in ENGINE.legal_commands(state, seat) if c.get("target") == "inspector"]


def test_a_haunt_card_may_keep_the_inspector_away():
    state = fill(new_game(2), "front-door", 1)
    state, events = draw(until(state, "haunt"), "haunt-grey-lady")
    assert ev.INSPECTION_CANCELLED in [e.type for e in events] and ev.INSPECTION_SKIPPED in [
        e.type for e in events
    ]
