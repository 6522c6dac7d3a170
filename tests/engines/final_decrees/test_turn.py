"""The turn and its actions (FD-18 to FD-35).

Seats: 0 Executive, 1 Human Resources, 2 Treasury, 3 Secret Service, 4 Admiralty; Reform is empty.
"""

from engines.final_decrees import ENGINE
from engines.final_decrees import events as ev

from .builders import act, acts, cmd, draw, refused, table, types


def turn_start(seat=0, **kw):
    """The state right after seat ``seat``'s previous neighbour ended their turn."""
    state = table(active=(seat - 1) % 5, **kw)
    state, events = act(state, cmd("EndTurn", (seat - 1) % 5))
    return state, events


def test_fd18_the_players_department_gains_one_blame_for_incompetence():
    state, events = turn_start(0, blame={"executive": 2})
    assert ev.TURN_STARTED in types(events)
    assert state.active == 0 and state.blame_of("executive") == 2 + 1


def test_fd19_the_player_draws_before_acting():
    state, _ = turn_start(0)
    assert ENGINE.chance(state).command == "DrawCard"
    refused(state, cmd("EndTurn", 0), "chance-pending")
    state, _ = draw(state, "overtime-1")
    assert "overtime-1" in state.hands[0] and state.actions_left == 3


def test_fd20_three_actions_then_the_turn_ends_and_fewer_is_allowed():
    state = table(blame={"executive": 6})
    move = {"from": "executive", "to": "admiralty", "amount": 1}
    state, _ = acts(state, *[cmd("SpreadBlame", 0, moves=[move])] * 2)
    assert state.actions_left == 1
    state, events = act(state, cmd("SpreadBlame", 0, moves=[move]))
    assert ev.TURN_ENDED in types(events) and state.active == 1
    state = table()
    state, events = act(state, cmd("EndTurn", 0))
    assert events[0].type == ev.TURN_ENDED and events[0].data["actions_unused"] == 3


def test_worked_example_e6_the_executive_gains_six_on_an_idle_first_turn():
    state, _ = turn_start(0)
    state, _ = draw(state, "overtime-1")
    state, events = act(state, cmd("EndTurn", 0))
    assert state.blame_of("executive") == 1 + 5


def test_fd21_step_four_blames_the_department_headed_at_the_end_of_the_turn():
    state = table(decrees={"granary-decree": ("treasury", 0), "fleet-decree": ("treasury", 0)})
    state, events = act(state, cmd("EndTurn", 2 - 2))
    assert events[0].data == {
        "seat": 0,
        "department": "executive",
        "decrees": 3,
        "actions_unused": 3,
        "lapsed": [],
    }


def test_fd22_the_draw_action_once_per_turn():
    state = table()
    state, _ = act(state, cmd("TakeDrawAction", 0))
    state, _ = draw(state, "overtime-1")
    assert state.actions_left == 2
    refused(state, cmd("TakeDrawAction", 0), "once-per-turn")


def test_only_the_turns_player_acts():
    refused(table(), cmd("EndTurn", 1), "not-your-turn")
    refused(table(), cmd("TakeDrawAction", 3), "not-your-turn")


# ---------------------------------------------------------------- spreading
def test_worked_example_e1_reform_spreads_over_everything_below_it():
    arrows = [("reform", "executive"), ("reform", "admiralty"), ("admiralty", "secret-service")]
    posts = ["reform", "human-resources", "treasury", "secret-service", "admiralty"]
    state = table(posts=posts, arrows=arrows, blame={"reform": 3, "executive": 2, "secret-service": 4})
    moves = [
        {"from": "reform", "to": "executive", "amount": 3},
        {"from": "secret-service", "to": "admiralty", "amount": 4},
        {"from": "executive", "to": "secret-service", "amount": 2},
    ]
    state, _ = act(state, cmd("SpreadBlame", 0, moves=moves))
    assert state.blame_of("reform") == 0
    assert (state.blame_of("executive"), state.blame_of("admiralty"), state.blame_of("secret-service")) == (
        3,
        4,
        2,
    )


def test_worked_example_e1_the_admiralty_moves_blame_into_the_secret_service_and_a_leaf_cannot_spread():
    arrows = [("reform", "executive"), ("reform", "admiralty"), ("admiralty", "secret-service")]
    posts = ["executive", "human-resources", "treasury", "secret-service", "admiralty"]
    state = table(posts=posts, arrows=arrows, blame={"admiralty": 5}, active=4)
    state, _ = act(
        state, cmd("SpreadBlame", 4, moves=[{"from": "admiralty", "to": "secret-service", "amount": 5}])
    )
    assert state.blame_of("secret-service") == 5
    leaf = table(posts=posts, arrows=arrows, active=3)
    refused(
        leaf,
        cmd("SpreadBlame", 3, moves=[{"from": "secret-service", "to": "admiralty", "amount": 1}]),
        "nothing-below",
    )


def test_reading_6_blame_is_spread_only_to_departments_below_not_up_to_ones_own():
    state = table(blame={"secret-service": 3}, active=4)  # Admiralty controls the Secret Service
    move = {"from": "secret-service", "to": "admiralty", "amount": 3}
    refused(state, cmd("SpreadBlame", 4, moves=[move]), "not-below-you")
    refused(
        state,
        cmd("SpreadBlame", 4, moves=[{"from": "treasury", "to": "secret-service", "amount": 1}]),
        "not-below-you",
    )
    refused(
        state,
        cmd("SpreadBlame", 4, moves=[{"from": "secret-service", "to": "secret-service", "amount": 1}]),
        "not-below-you",
    )
    refused(
        table(blame={"executive": 1}),
        cmd("SpreadBlame", 0, moves=[{"from": "executive", "to": "admiralty", "amount": 2}]),
        "not-enough-blame",
    )


# -------------------------------------------------------- forwarding, moving
def test_fd25_forwarding_to_the_next_steps_department_removes_one_personal_blame():
    state = table(personal=[4, 0, 0, 0, 0])
    state, _ = act(state, cmd("ForwardDecree", 0, decree="granary-decree", to="admiralty"))
    assert state.decree("granary-decree").at == "admiralty" and state.personal[0] == 4
    state, _ = act(state, cmd("ForwardDecree", 0, decree="fleet-decree", to="admiralty"))
    assert state.personal[0] == 3  # the Fleet Decree's first step is the Admiralty's
    refused(state, cmd("ForwardDecree", 0, decree="granary-decree", to="treasury"), "decree-not-here")
    refused(state, cmd("ForwardDecree", 0, decree="works-decree", to="executive"), "bad-destination")


def test_reading_13_a_decree_may_be_forwarded_to_the_empty_department():
    state, _ = act(table(), cmd("ForwardDecree", 0, decree="succession-decree", to="reform"))
    assert state.decree("succession-decree").at == "reform"


def test_fd26_any_pawn_moves_to_the_empty_department_and_a_player_who_moves_continues_there():
    state, events = act(table(), cmd("MovePlayer", 0, player=3))
    assert state.posts[3] == "reform" and state.empty_department == "secret-service"
    state, _ = act(state, cmd("MovePlayer", 0, player=0))
    assert state.posts[0] == "secret-service" and state.empty_department == "executive"
    state, _ = act(state, cmd("Investigate", 0, department="treasury"))  # now the Secret Service's head


# ------------------------------------------------------------------ powers
def test_fd28_treasury_gains_two_actions_once_per_turn():
    state = table(active=2)
    state, _ = act(state, cmd("GainActions", 2))
    assert state.actions_left == 3 - 1 + 2
    refused(state, cmd("GainActions", 2), "once-per-turn")
    refused(table(), cmd("GainActions", 0), "treasury-only")


def test_fd29_the_secret_service_investigates_another_department():
    state = table(active=3, blame={"treasury": 5}, personal=[1, 1, 1, 1, 1])
    state, _ = act(state, cmd("Investigate", 3, department="treasury"))
    assert state.blame_of("treasury") == 0 and state.personal[2] == 6
    refused(state, cmd("Investigate", 3, department="secret-service"), "cannot-investigate")


def test_reading_10_the_empty_department_cannot_be_investigated():
    refused(table(active=3), cmd("Investigate", 3, department="reform"), "cannot-investigate")


def test_fd30_maneuvers_remove_two_personal_and_four_admiralty_blame_once_per_turn():
    state = table(active=4, blame={"admiralty": 6}, personal=[5, 5, 5, 5, 5])
    state, _ = act(state, cmd("GoOnManeuvers", 4))
    assert state.personal[4] == 3 and state.blame_of("admiralty") == 2
    refused(state, cmd("GoOnManeuvers", 4), "once-per-turn")


def test_reading_8_and_9_maneuvers_remove_what_there_is_and_blame_never_goes_below_zero():
    state = table(active=4, blame={"admiralty": 1}, personal=[0, 0, 0, 0, 1])
    state, _ = act(state, cmd("GoOnManeuvers", 4))
    assert state.personal[4] == 0 and state.blame_of("admiralty") == 0


def test_fd31_human_resources_reassigns_everyone_leaving_exactly_one_department_empty():
    state = table(active=1)
    posts = ["treasury", "reform", "executive", "secret-service", "admiralty"]
    state, _ = act(state, cmd("ReassignPlayers", 1, posts=posts))
    assert state.posts == tuple(posts) and state.empty_department == "human-resources"
    refused(table(active=1), cmd("ReassignPlayers", 1, posts=["treasury"] * 5), "bad-assignment")
    refused(table(), cmd("ReassignPlayers", 0, posts=posts), "human-resources-only")


def test_fd32_the_executive_restructures_without_loops():
    state = table()
    refused(state, cmd("Restructure", 0, change="add", arrow=["treasury", "executive"]), "already-controlled")
    refused(state, cmd("Restructure", 0, change="add", arrow=["secret-service", "reform"]), "control-loop")
    state, _ = act(state, cmd("Restructure", 0, change="add", arrow=["executive", "treasury"]))
    assert ("executive", "treasury") in state.arrows
    state, _ = act(state, cmd("Restructure", 0, change="reverse", arrow=["reform", "executive"]))
    assert ("executive", "reform") in state.arrows and ("reform", "executive") not in state.arrows
    state = table()
    refused(
        state, cmd("Restructure", 0, change="reverse", arrow=["executive", "admiralty"]), "already-controlled"
    )
    refused(
        state,
        cmd(
            "Restructure",
            0,
            change="move",
            arrow=["admiralty", "secret-service"],
            to=["secret-service", "admiralty"],
        ),
        "bad-move",
    )
    state, _ = act(
        state,
        cmd(
            "Restructure",
            0,
            change="move",
            arrow=["admiralty", "secret-service"],
            to=["treasury", "secret-service"],
        ),
    )
    assert ("treasury", "secret-service") in state.arrows
    state, _ = act(state, cmd("Restructure", 0, change="remove", arrow=["treasury", "secret-service"]))
    assert len(state.arrows) == 3


def test_worked_example_e2_admiralty_maneuvers_moves_to_treasury_and_gains_two_actions():
    posts = ["executive", "human-resources", "reform", "secret-service", "admiralty"]  # Treasury empty
    state = table(posts=posts, active=4, blame={"admiralty": 4}, personal=[5, 5, 5, 5, 5])
    state, _ = acts(state, cmd("GoOnManeuvers", 4), cmd("MovePlayer", 4, player=4))
    assert state.posts[4] == "treasury" and state.empty_department == "admiralty"
    refused(state, cmd("GoOnManeuvers", 4), "admiralty-only")
    state, _ = act(state, cmd("GainActions", 4))
    assert state.actions_left == 2  # five actions in all, three spent
    assert state.personal[4] == 3 and state.blame_of("admiralty") == 0


def test_fd35_once_per_turn_counts_per_turn_whatever_departments_the_player_passes_through():
    posts = ["executive", "human-resources", "reform", "secret-service", "treasury"]  # Admiralty empty
    state = table(posts=posts, active=4)
    state, _ = acts(state, cmd("GainActions", 4), cmd("MovePlayer", 4, player=4))
    state, _ = act(state, cmd("MovePlayer", 4, player=2))  # Reform's head to the empty Treasury
    refused(state, cmd("GainActions", 4), "treasury-only")
    assert state.used == ("treasury",)


def test_reading_24_turns_pass_by_seat_whatever_departments_the_players_head():
    state = table(active=1)
    posts = ["admiralty", "human-resources", "treasury", "secret-service", "executive"]
    state, _ = act(state, cmd("ReassignPlayers", 1, posts=posts))
    state, events = act(state, cmd("EndTurn", 1))
    assert state.active == 2 and events[-1].data["department"] == "treasury"
