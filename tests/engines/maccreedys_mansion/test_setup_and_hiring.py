"""Setup (MM-1 to MM-5), the round's phases and Hiring and Purchasing (MM-6)."""

import pytest

from engines.base import RuleViolation
from engines.kit.seats import SeatStatus
from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.flow import actor
from engines.maccreedys_mansion.query import placements
from engines.maccreedys_mansion.state import PHASES

from .builders import TRACK, act, company, config, fill, new_game, run, until


def test_the_game_seats_two_to_five_companies():
    assert (ENGINE.min_seats, ENGINE.max_seats) == (2, 5)
    for seats in (1, 6):
        with pytest.raises(RuleViolation) as refused:
            ENGINE.initial_state(config(seats))
        assert refused.value.code == "seats-out-of-range"


def test_each_company_starts_with_10000_active_and_20000_invested_and_five_jobs_on_the_track():
    state = new_game(3)
    assert all((c.active, c.invested) == (10_000, 20_000) for c in state.companies)
    assert state.track == tuple(TRACK) and state.phase == "hiring" and state.round == 1


def test_the_first_player_option_gives_the_marker():
    state = new_game(3, first_player=2)
    assert state.first == 2 and state.turn == 2
    with pytest.raises(RuleViolation) as refused:
        ENGINE.initial_state(config(2, first_player=3))
    assert refused.value.code == "first-player-not-a-seat"


def test_only_coverable_rooms_may_be_covered():
    with pytest.raises(RuleViolation) as refused:
        ENGINE.initial_state(config(2, covered_rooms=["kitchen"]))
    assert refused.value.code == "room-not-coverable"
    with pytest.raises(RuleViolation) as refused:
        ENGINE.initial_state(config(2, covered_rooms=["attic"]))
    assert refused.value.code == "no-such-room"


def test_a_covered_room_is_out_of_play():
    state = new_game(2, covered_rooms=["ballroom"])
    assert not any(state.board.job[j].location in ("dance-floor", "chandelier") for j in state.job_deck)
    state = act(state, {"type": "HireWorker", "seat": 0, "worker": "electrician"})
    state = until(state, "placement")
    spaces = {c["space"] for c in ENGINE.legal_commands(state, 0)}
    assert spaces and not any(s.startswith(("dance-floor", "chandelier")) for s in spaces)
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(
            state, {"type": "PlaceWorker", "seat": 0, "worker": "electrician", "space": "chandelier-1"}
        )
    assert refused.value.code == "room-covered"


def test_a_job_for_a_complete_location_is_set_aside_and_replaced():
    cfg = config(2)
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
    state = fill(state, "tub", 0)
    state, events = run(state, {"type": "DrawCard", "seat": None, "deck": "job", "cards": ["job-tub"]})
    assert events[0].type == ev.JOB_DRAWN and events[0].data["set_aside"] is True
    assert state.track == () and "job-tub" in state.job_done
    assert ENGINE.chance(state).fixed == {"deck": "job"}


def test_a_round_runs_the_twelve_phases_in_the_written_order():
    state = new_game(2)
    assert state.phase == "hiring"
    state, events = run(state, {"type": "PassHiring", "seat": 0})
    state, more = run(state, {"type": "PassHiring", "seat": 1})
    events += more
    while state.phase != "hiring":
        request = ENGINE.chance(state)
        if request is not None:
            command = {"type": "DrawCard", "seat": None, **request.fixed, "cards": ["event-quiet-day"]}
            if request.fixed["deck"] == "haunt":
                command["cards"] = ["haunt-creaking"]
        else:
            command = ENGINE.legal_commands(state, actor(state))[-1]
        state, more = run(state, command)
        events += more
    began = [e.data["phase"] for e in events if e.type == ev.PHASE_BEGAN]
    assert ("hiring", *began) == PHASES
    assert events[-1].type == ev.ROUND_STARTED and state.round == 2


def test_a_phase_that_needs_nobody_runs_by_itself():
    state = new_game(2)
    state = act(state, {"type": "PassHiring", "seat": 0})
    state = act(state, {"type": "PassHiring", "seat": 1})
    assert state.phase == "event" and ENGINE.chance(state).fixed == {"deck": "event"}


def test_rotations_start_with_the_first_player():
    state = new_game(3, first_player=1)
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "PassHiring", "seat": 0})
    assert refused.value.code == "not-your-turn"
    state = act(state, {"type": "PassHiring", "seat": 1})
    assert state.turn == 2


def test_hiring_ends_when_every_company_passes_consecutively():
    state = new_game(2)
    state = act(state, {"type": "PassHiring", "seat": 0})
    state = act(state, {"type": "HireWorker", "seat": 1, "worker": "mason"})
    state = act(state, {"type": "PassHiring", "seat": 0})
    assert state.phase == "hiring"
    state = act(state, {"type": "PassHiring", "seat": 1})
    assert state.phase == "placement"


def test_a_company_that_passed_may_hire_again():
    state = new_game(2)
    state = act(state, {"type": "PassHiring", "seat": 0})
    state = act(state, {"type": "BuyResources", "seat": 1, "resource": "stone", "count": 3})
    state = act(state, {"type": "HireWorker", "seat": 0, "worker": "carpenter"})
    assert state.companies[0].hired[0] == 1 and state.companies[1].storage[0] == 3


def test_nothing_is_paid_while_hiring():
    state = new_game(2)
    state = act(state, {"type": "HireWorker", "seat": 0, "worker": "gasman"})
    state = act(state, {"type": "BuyResources", "seat": 1, "resource": "pipes", "count": 5})
    assert [c.active for c in state.companies] == [10_000, 10_000]


def test_a_hiring_turn_buys_any_number_of_one_resource_up_to_a_thousand_and_the_pad_asks_for_it():
    state = new_game(2)
    bought = act(state, {"type": "BuyResources", "seat": 0, "resource": "stone", "count": 1000})
    assert bought.companies[0].storage[state.board.resource_types.index("stone")] == 1000
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "BuyResources", "seat": 0, "resource": "stone", "count": 1001})
    assert refused.value.code == "bad-count"
    asked = {a.command["resource"]: (a.field, a.low, a.high) for a in ENGINE.amounts(state, 0)}
    assert asked == {r: ("count", 1, 1000) for r in state.board.resource_types}
    assert ENGINE.amounts(state, 1) == [], "only the company whose turn it is"


def test_workers_are_piece_limited():
    state = new_game(2)
    state = act(state, {"type": "HireWorker", "seat": 0, "worker": "gasman"})
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "HireWorker", "seat": 1, "worker": "gasman"})
    assert refused.value.code == "worker-out-of-stock"
    assert {"type": "HireWorker", "seat": 1, "worker": "gasman"} not in ENGINE.legal_commands(state, 1)


def test_hiring_beyond_ones_means_is_allowed():
    state = new_game(2)
    state = company(state, 0, active=0)
    state = act(state, {"type": "HireWorker", "seat": 0, "worker": "gasman"})
    assert state.companies[0].hired[4] == 1


def test_a_closed_company_neither_hires_nor_places():
    state = new_game(3)
    state = company(state, 1, status=SeatStatus("closed", 0))
    state = act(state, {"type": "PassHiring", "seat": 0})
    assert state.turn == 2
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "HireWorker", "seat": 1, "worker": "mason"})
    assert refused.value.code == "company-closed"
    state = act(state, {"type": "PassHiring", "seat": 2})
    assert state.phase != "hiring"
    placing = company(new_game(3), 1, status=SeatStatus("closed", 0), unplaced=(1, 0, 0, 0, 0))
    assert placements(placing, 1) == [] and placements(company(placing, 1, status=SeatStatus()), 1)


def test_a_command_of_another_phase_is_refused():
    state = new_game(2)
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "PlaceBid", "seat": 0, "amount": 100})
    assert refused.value.code == "wrong-phase"


def test_a_seat_cannot_act_while_a_card_is_awaited():
    cfg = config(2)
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "PassHiring", "seat": 0})
    assert refused.value.code == "chance-pending"
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "DrawCard", "seat": None, "deck": "job", "cards": ["job-nowhere"]})
    assert refused.value.code == "card-not-in-pool"
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "DrawCard", "seat": None, "deck": "event", "cards": ["event-storm"]})
    assert refused.value.code == "wrong-chance"


@pytest.mark.parametrize(
    "command",
    [
        {"type": "HireWorker", "seat": 0, "worker": ["mason"]},
        {"type": "HireWorker", "seat": 0},
        {"type": "BuyResources", "seat": 0, "resource": "stone", "count": True},
        {"type": "BuyResources", "seat": 0, "resource": {"a": 1}, "count": 1},
        {"type": "PlaceWorker", "seat": 0, "worker": "mason", "space": None},
        {"type": "HireWorker", "seat": 9, "worker": "mason"},
        {"type": "Bogus", "seat": 0},
    ],
)
def test_a_malformed_command_is_a_rule_violation_that_changes_nothing(command):
    state = new_game(2)
    before = ENGINE.dump_state(state)
    with pytest.raises(RuleViolation):
        ENGINE.decide(state, command)
    assert ENGINE.dump_state(state) == before
