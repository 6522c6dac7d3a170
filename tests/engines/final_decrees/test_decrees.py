"""Decrees: stamping, enactment, and the chain-top head's removal, even on another's turn (FD-36 to FD-41)."""

from engines.final_decrees import ENGINE
from engines.final_decrees import events as ev
from engines.final_decrees.state import OVER

from .builders import act, cmd, refused, started, table, types

# The default catalog's decrees:
#   granary    executive, treasury, human-resources
#   fleet      admiralty, treasury, secret-service, executive
#   succession reform, executive, human-resources, secret-service
#   frontier   secret-service, admiralty, reform, treasury
#   works      human-resources, treasury, treasury, executive
NO_REFORM = [("executive", "human-resources"), ("executive", "admiralty"), ("admiralty", "secret-service")]


def test_fd36_a_decree_is_stamped_by_the_department_holding_it_when_it_is_the_next_step():
    state = table(personal=[3, 3, 3, 3, 3])
    refused(state, cmd("StampDecree", 0, decree="fleet-decree"), "not-next-step")
    state, _ = act(state, cmd("StampDecree", 0, decree="granary-decree"))
    assert state.decree("granary-decree").stamped == 1
    refused(state, cmd("StampDecree", 0, decree="granary-decree"), "not-next-step")
    refused(table(active=2), cmd("StampDecree", 2, decree="granary-decree"), "decree-not-here")


def test_fd37_the_stamping_player_loses_one_personal_blame():
    state, events = act(table(personal=[3, 3, 3, 3, 3]), cmd("StampDecree", 0, decree="granary-decree"))
    assert state.personal[0] == 2 and events[0].data["relief"] == 1


def test_fd38_fd39_an_uncontrolled_enacting_departments_own_head_chooses():
    state = table(active=2, decrees={"frontier-decree": ("treasury", 3)}, personal=[3, 3, 3, 3, 3])
    state, events = act(state, cmd("StampDecree", 2, decree="frontier-decree"))
    enacted = events[-1]
    assert enacted.type == ev.DECREE_ENACTED
    assert enacted.data == {
        "seat": 2,
        "decree": "frontier-decree",
        "ordinal": 1,
        "allowance": 10,
        "department": "treasury",
        "top": "treasury",
        "chooser": 2,
    }
    assert state.awaiting.seat == 2 and state.awaiting.amount == 10


def test_fd39_the_chain_top_head_removes_blame_during_another_players_turn():
    state = table(
        active=1,
        arrows=NO_REFORM,
        decrees={"granary-decree": ("human-resources", 2)},
        personal=[9, 9, 9, 9, 9],
    )
    state, events = act(state, cmd("StampDecree", 1, decree="granary-decree"))
    assert events[-1].data["top"] == "executive" and events[-1].data["chooser"] == 0
    assert ENGINE.view(state, None)["to_act"] == [0]
    assert ENGINE.legal_commands(state, 1) == []
    violation = refused(state, cmd("EndTurn", 1), "awaiting-seat")
    assert violation.details["seat"] == 0 and violation.details["command"] == "RemoveBlame"
    state, events = act(state, cmd("RemoveBlame", 0, players=[9, 0, 0, 0, 0], departments={}))
    assert state.personal[0] == 0 and state.awaiting is None
    assert state.active == 1 and state.actions_left == 2  # the Human Resources head's turn resumes
    refused(state, cmd("RemoveBlame", 0, players=[], departments={}), "nothing-awaited")


def test_fd39_if_the_top_department_has_no_head_no_extra_blame_is_removed():
    state = table(active=1, decrees={"granary-decree": ("human-resources", 2)})  # Reform is on top and empty
    state, events = act(state, cmd("StampDecree", 1, decree="granary-decree"))
    assert events[-1].data["top"] == "reform" and events[-1].data["chooser"] is None
    assert state.awaiting is None and state.enacted == 1


def test_fd40_worked_example_e3_the_allowance_grows_ten_per_enactment():
    for before, allowance in ((0, 10), (1, 20), (2, 30)):
        state = table(active=2, enacted=before, decrees={"frontier-decree": ("treasury", 3)})
        state, events = act(state, cmd("StampDecree", 2, decree="frontier-decree"))
        assert events[-1].data["allowance"] == allowance


def test_fd41_blame_from_any_players_and_departments_up_to_the_allowance():
    state = table(
        active=2,
        decrees={"frontier-decree": ("treasury", 3)},
        personal=[6, 6, 6, 6, 6],
        blame={"admiralty": 5},
    )
    state, _ = act(state, cmd("StampDecree", 2, decree="frontier-decree"))
    refused(state, cmd("RemoveBlame", 2, players=[6, 5, 0, 0, 0], departments={}), "over-the-allowance")
    refused(state, cmd("RemoveBlame", 2, players=[7, 0, 0, 0, 0], departments={}), "not-enough-blame")
    refused(state, cmd("RemoveBlame", 1, players=[], departments={}), "awaiting-seat")
    state, events = act(state, cmd("RemoveBlame", 2, players=[0, 0, 5, 0, 0], departments={"admiralty": 3}))
    assert state.personal == (6, 6, 0, 6, 6) and state.blame_of("admiralty") == 2  # less than the full amount


def test_reading_23_the_removal_may_take_blame_from_the_empty_department():
    state = table(active=2, decrees={"frontier-decree": ("treasury", 3)}, blame={"reform": 4})
    state, _ = act(state, cmd("StampDecree", 2, decree="frontier-decree"))
    state, _ = act(state, cmd("RemoveBlame", 2, players=[], departments={"reform": 4}))
    assert state.blame_of("reform") == 0


def test_reading_11_an_enacted_decree_leaves_the_mat():
    on_treasury = {"granary-decree": ("treasury", 0), "fleet-decree": ("treasury", 0)}
    state = table(active=2, decrees={**on_treasury, "frontier-decree": ("treasury", 3)})
    state, _ = act(state, cmd("StampDecree", 2, decree="frontier-decree"))
    state, _ = act(state, cmd("RemoveBlame", 2, players=[], departments={}))
    assert state.decree("frontier-decree").at is None
    state, events = act(state, cmd("EndTurn", 2))
    assert events[0].data["decrees"] == 2


def test_reading_12_reform_steps_are_skipped_at_four_players():
    steps = {d.id: d.steps for d in started(4).decrees}
    assert steps["succession-decree"] == ("executive", "human-resources", "secret-service")
    assert steps["frontier-decree"] == ("secret-service", "admiralty", "treasury")
    assert {d.id: d.steps for d in started(5).decrees}["succession-decree"][0] == "reform"


def test_fd43_reading_17_the_game_ends_after_the_fifth_enactments_removal():
    state = table(active=2, enacted=4, decrees={"frontier-decree": ("treasury", 3)}, personal=[5, 4, 3, 2, 1])
    state, events = act(state, cmd("StampDecree", 2, decree="frontier-decree"))
    assert state.phase != OVER and state.awaiting.amount == 50
    state, events = act(state, cmd("RemoveBlame", 2, players=[0, 0, 2, 0, 0], departments={}))
    assert types(events)[-1] == ev.GAME_DECIDED
    outcome = ENGINE.outcome(state)
    assert outcome.finished and outcome.ended_by == "all-decrees-enacted"
    assert outcome.places == (5, 4, 1, 3, 2)


def test_worked_example_e7_departmental_blame_does_not_count_at_the_end():
    state = table(active=2, enacted=4, decrees={"frontier-decree": ("treasury", 3)}, personal=[4, 4, 4, 4, 4])
    state = state.with_(personal=(4, 3, 5, 5, 5), dept_blame=(0, 0, 15, 0, 0, 0))  # seat 1 heads HR with 15
    state, _ = act(state, cmd("StampDecree", 2, decree="frontier-decree"))
    state, _ = act(state, cmd("RemoveBlame", 2, players=[], departments={}))
    assert ENGINE.outcome(state).places[1] == 1 and ENGINE.outcome(state).places[0] == 2
