"""(B) Solving problems with control and (C) without help."""

from engines.chancellors import ENGINE
from engines.chancellors import events as ev
from engines.chancellors.state import CONTROL, HELP, PART, SOLVED

from .builders import act, acts, of_type, part, pass_, refused, solve, table

TARRANT, OTHER = 0, 1


def to_act(state):
    return ENGINE.view(state, None)["to_act"]


# ----------------------------------------------------------- (B) with control
def test_services_act_in_order_diplomatic_corps_army_navy():
    state = table(
        phase=CONTROL,
        hands=[["ace-of-waves"], ["ace-of-moons"], ["ace-of-wyrms"]],
        services={"navy": 0, "diplomatic-corps": 1, "army": 2},
    )
    order = []
    while state.phase == CONTROL:
        (seat,) = to_act(state)
        order.append(seat)
        state, _ = act(state, pass_(seat))
    assert order == [1, 2, 0]


def test_a_player_with_two_services_may_solve_two_problems():
    state = table(
        phase=CONTROL,
        hands=[["pact", "mill"], ["ace-of-wyrms"], []],
        problems=[(3, 4), (4, 4), (2, 2), (1, 1)],
        services={"diplomatic-corps": 0, "navy": 0, "army": 1},
    )
    state, events = acts(state, solve(0, 0, "pact"), pass_(1), solve(0, 1, "mill"))
    assert [e.data["service"] for e in of_type(events, ev.PROBLEM_SOLVED)] == ["diplomatic-corps", "navy"]
    assert state.scores[0] == 7 + 8


def test_cards_may_share_a_suit_with_any_service_the_player_controls():
    state = table(
        2,
        phase=CONTROL,
        hands=[["mill", "pact"], []],
        services={"diplomatic-corps": 0, "navy": 0},
        problems=[(3, 4), (2, 2), (2, 2)],
    )
    state, _ = act(state, solve(0, 0, "mill"))  # a Navy card, played when the Diplomatic corps acts
    assert state.scores == (7, 0)
    state = table(
        2,
        phase=CONTROL,
        hands=[["mill", "pact"], []],
        services={"diplomatic-corps": 0, "navy": 0},
        problems=[(3, 4), (2, 2), (2, 2)],
    )
    state, _ = act(state, pass_(0, abdicate=True))
    assert refused(state, solve(0, 0, "pact")).code == "suit-does-not-match-service"


def test_tarrant_may_play_only_cards_sharing_a_suit_with_the_army():
    # Tarrant controls only the Army (Wyrms and Knots).
    state = table(
        2,
        phase=CONTROL,
        hands=[["castle", "chance-meeting"], []],
        services={"army": TARRANT},
        problems=[(3, 4)] * 3,
    )
    violation = refused(state, solve(TARRANT, 0, "chance-meeting"))
    assert violation.code == "suit-does-not-match-service"
    assert violation.details == {"cards": ["chance-meeting"]}
    state, events = act(state, solve(TARRANT, 0, "castle"))
    assert ENGINE.describe(events[0], ["Tarrant", "Ursula"]) == (
        "Tarrant solves the 3 and 4 with the Army, playing the 7 of Suns and Knots, and scores 7."
    )


def test_cards_for_a_whole_problem_must_add_up_to_the_dice_total():
    state = table(
        2, phase=CONTROL, hands=[["castle", "battle"], []], services={"army": 0}, problems=[(4, 5)] * 3
    )
    violation = refused(state, solve(0, 0, "castle"))
    assert violation.code == "cards-too-low"
    assert violation.details == {"value": 7, "need": 9}
    state, _ = act(state, solve(0, 0, "castle", "battle"))  # 11 is more than enough
    assert state.scores == (9, 0)


def test_aces_count_one_and_number_cards_their_rank():
    state = table(
        2, phase=CONTROL, hands=[["ace-of-knots", "painter"], []], services={"army": 0}, problems=[(2, 2)] * 3
    )
    state, _ = act(state, solve(0, 0, "ace-of-knots", "painter"))
    assert state.scores == (4, 0)


def test_a_crown_counts_as_the_higher_die():
    state = table(
        2, phase=CONTROL, hands=[["windfall", "market"], []], services={"army": 0}, problems=[(5, 6)] * 3
    )
    assert refused(state, solve(0, 0, "windfall")).details == {"value": 6, "need": 11}
    state, _ = act(state, solve(0, 0, "windfall", "market"))
    assert state.scores == (11, 0)


def test_two_crowns_solve_any_problem():
    state = table(
        2, phase=CONTROL, hands=[["windfall", "calamity"], []], services={"army": 0}, problems=[(6, 6)] * 3
    )
    state, _ = act(state, solve(0, 0, "windfall", "calamity"))
    assert state.scores == (12, 0)


def test_solving_a_whole_problem_scores_its_total_and_sets_the_dice_aside_for_the_turn():
    state = table(
        phase=CONTROL,
        hands=[["pact"], ["betrayal"], []],
        services={"diplomatic-corps": 0, "army": 1},
        problems=[(3, 4), (2, 2), (2, 2), (2, 2)],
    )
    state, _ = act(state, solve(0, 0, "pact"))
    assert state.problems[0].status == SOLVED
    assert ENGINE.view(state, None)["problems"][0] == {"dice": [], "set_aside": [3, 4], "status": "solved"}
    assert refused(state, solve(1, 0, "betrayal")).code == "problem-already-solved"
    assert "pact" in state.discards and state.hands[0] == ()


def test_part_of_a_problem_takes_one_card_of_at_most_the_lower_die():
    state = table(
        2, phase=CONTROL, hands=[["battle", "painter"], []], services={"army": 0}, problems=[(3, 5)] * 3
    )
    assert refused(state, part(0, 0, "battle", 3)).code == "card-too-high-for-part"
    state, events = act(state, part(0, 0, "painter", 3))
    assert state.problems[0].status == PART
    assert events[0].data["points"] == 4


def test_solving_part_scores_half_the_total_rounded_up():
    state = table(2, phase=CONTROL, hands=[["ace-of-knots"], []], services={"army": 0}, problems=[(3, 4)] * 3)
    state, events = act(state, part(0, 0, "ace-of-knots", 4))
    assert state.scores == (4, 0)  # half of 7, rounded up
    assert ENGINE.describe(events[0], ["Tarrant", "Ursula"]) == (
        "Tarrant solves part of the 3 and 4 with the Army, playing the Ace of Knots, sets the 4 aside and scores 4."
    )


def test_a_die_showing_one_is_partly_solved_only_by_an_ace():
    state = table(
        2, phase=CONTROL, hands=[["author", "ace-of-knots"], []], services={"army": 0}, problems=[(1, 5)] * 3
    )
    assert refused(state, part(0, 0, "author", 5)).code == "only-an-ace-solves-part-of-a-one"
    state, _ = act(state, part(0, 0, "ace-of-knots", 1))
    assert state.problems[0].dice == (5, 1)  # the 5 stays, the 1 is set aside


def test_a_crown_solves_part_only_when_the_dice_are_equal():
    state = table(
        2, phase=CONTROL, hands=[["windfall"], []], services={"army": 0}, problems=[(3, 4), (4, 4), (2, 2)]
    )
    assert refused(state, part(0, 0, "windfall", 4)).code == "crown-solves-part-only-of-a-pair"
    state, _ = act(state, part(0, 1, "windfall", 4))
    assert state.scores == (4, 0)


def test_only_an_ace_solves_part_of_a_problem_showing_two_ones():
    # A Crown of a pair of ones counts for 1, no more than the lower die, but the rulebook says
    # "If a problem has a die showing 1, then only any Ace can solve part of that problem."
    state = table(
        2,
        phase=CONTROL,
        hands=[["windfall", "ace-of-knots"], []],
        services={"army": 0},
        problems=[(1, 1), (2, 2), (3, 3)],
    )
    assert refused(state, part(0, 0, "windfall", 1)).code == "only-an-ace-solves-part-of-a-one"
    assert part(0, 0, "windfall", 1) not in ENGINE.legal_commands(state, 0)
    state, _ = act(state, part(0, 0, "ace-of-knots", 1))
    assert state.scores == (1, 0)


def test_pawns_and_courts_solve_like_crowns_worth_the_higher_die():
    # "Pawns and Courts match more services but otherwise work like Crowns; they are worth the
    # value of the higher of the two dice in the problem." The Court of Moons, Waves and Knots and
    # the Pawn of Moons, Wyrms and Knots both share Knots with the Army.
    state = table(
        2,
        phase=CONTROL,
        hands=[["consul", "watchman"], []],
        services={"army": 0},
        problems=[(5, 6), (4, 4), (3, 3)],
        extended_deck=True,
    )
    assert refused(state, solve(0, 0, "consul")).details == {"value": 6, "need": 11}
    assert refused(state, part(0, 0, "watchman", 5)).code == "crown-solves-part-only-of-a-pair"
    assert part(0, 1, "consul", 4) in ENGINE.legal_commands(state, 0)
    state, _ = act(state, solve(0, 0, "consul", "watchman"))
    assert state.scores == (11, 0)


def test_the_die_set_aside_must_be_one_of_the_problem():
    state = table(2, phase=CONTROL, hands=[["ace-of-knots"], []], services={"army": 0}, problems=[(3, 4)] * 3)
    assert refused(state, part(0, 0, "ace-of-knots", 6)).code == "no-such-die"


def test_the_rest_of_a_partly_solved_problem_cannot_be_solved_this_turn():
    state = table(
        2,
        phase=CONTROL,
        hands=[["ace-of-moons", "ace-of-waves", "pact"], ["betrayal"]],
        services={"diplomatic-corps": 0, "army": 1, "navy": 0},
        problems=[(3, 4), (2, 2), (2, 2)],
    )
    state, _ = act(state, part(0, 0, "ace-of-moons", 3))
    assert refused(state, solve(1, 0, "betrayal")).code == "problem-already-solved"
    state, _ = act(state, pass_(1))
    assert refused(state, part(0, 0, "ace-of-waves", 4)).code == "problem-already-solved"


def test_passing_may_abdicate_the_service_to_the_centre():
    state = table(
        phase=CONTROL,
        hands=[["ace-of-moons"], ["ace-of-wyrms"], []],
        services={"diplomatic-corps": 0, "army": 1},
    )
    state, events = acts(state, pass_(0, abdicate=True), pass_(1))
    assert state.services == (None, 1, None)
    assert [e.type for e in events[:2]] == [ev.SERVICE_ABDICATED, ev.SERVICE_PASSED]
    assert ENGINE.describe(events[0], ["Selia", "Shar", "Henri"]) == (
        "Selia passes and abdicates the Diplomatic corps."
    )


def test_only_the_player_whose_service_acts_may_solve():
    state = table(
        phase=CONTROL, hands=[["pact"], ["betrayal"], []], services={"diplomatic-corps": 0, "army": 1}
    )
    violation = refused(state, solve(1, 0, "betrayal"))
    assert violation.code == "not-your-turn" and violation.details == {"turn": 0}


def test_legal_commands_list_the_plays_that_solve_each_problem():
    state = table(
        2,
        phase=CONTROL,
        hands=[["castle", "battle", "chance-meeting", "ace-of-knots"], []],
        services={"army": 0},
        problems=[(4, 5), (1, 2), (6, 6)],
    )
    legal = ENGINE.legal_commands(state, 0)
    assert solve(0, 0, "battle", "castle") in legal
    assert solve(0, 1, "ace-of-knots") not in legal  # 1 is not enough for a 3
    assert solve(0, 1, "battle") in legal
    assert part(0, 1, "ace-of-knots", 1) in legal and part(0, 1, "ace-of-knots", 2) in legal
    assert not any("chance-meeting" in str(c) for c in legal)  # Moons and Leaves: not the Army's
    assert solve(0, 2, "ace-of-knots", "battle", "castle") in legal  # 1 + 4 + 7 reaches 12
    assert solve(0, 2, "battle", "castle") not in legal
    assert {"type": "Pass", "seat": 0, "abdicate": True} in legal
    for command in legal:
        ENGINE.decide(state, command)


# ----------------------------------------------------------- (C) without help
def help_order_by_passing(state):
    order = []
    while state.phase == HELP:
        (seat,) = to_act(state)
        order.append(seat)
        state, _ = act(state, pass_(seat))
    return order


def test_players_without_services_solve_clockwise_from_the_left_of_the_last_solver():
    state = table(
        4, phase=CONTROL, hands=[[], [], ["betrayal"], []], services={"army": 2}, problems=[(2, 2)] * 5
    )
    state, _ = act(state, solve(2, 0, "betrayal"))
    assert help_order_by_passing(state) == [3, 0, 1]


def test_a_part_solution_counts_as_the_most_recent_solve():
    state = table(4, phase=CONTROL, hands=[[], ["ace-of-knots"], [], []], services={"army": 1}, last_solver=3)
    state, _ = act(state, part(1, 0, "ace-of-knots", 3))
    assert help_order_by_passing(state) == [2, 3, 0]


def test_the_last_solver_may_be_from_an_earlier_turn():
    state = table(4, phase=CONTROL, hands=[[], [], ["betrayal"], []], services={"army": 2}, last_solver=3)
    state, _ = act(state, pass_(2))
    assert help_order_by_passing(state) == [0, 1, 3]


def test_before_anyone_has_solved_step_c_starts_at_the_first_seat():
    state = table(3, phase=HELP)
    assert help_order_by_passing(state) == [0, 1, 2]


def test_a_player_who_abdicated_solves_without_help():
    state = table(phase=CONTROL, hands=[["mill", "lunatic"], [], []], services={"navy": 0}, last_solver=2)
    state, _ = act(state, pass_(0, abdicate=True))
    assert help_order_by_passing(state) == [0, 1, 2]


def test_a_player_who_passed_without_abdicating_takes_no_part_in_step_c():
    state = table(phase=CONTROL, hands=[["mill", "lunatic"], [], []], services={"navy": 0}, last_solver=2)
    state, _ = act(state, pass_(0))
    assert help_order_by_passing(state) == [1, 2]


def test_without_control_the_cards_must_add_up_to_twice_the_dice_total():
    state = table(phase=HELP, hands=[["mill", "forest", "lunatic"], [], []], problems=[(3, 4)] * 4)
    violation = refused(state, solve(0, 0, "mill", "forest"))
    assert violation.code == "cards-too-low" and violation.details == {"value": 13, "need": 14}
    state, events = act(state, solve(0, 0, "mill", "lunatic"))
    assert state.scores == (7, 0, 0)  # still only the sum of the dice
    assert ENGINE.describe(events[0], ["Selia", "Shar", "Henri"]) == (
        "Selia solves the 3 and 4 without help, playing the 8 of Waves and Leaves and the 6 of Moons and Waves, "
        "and scores 7."
    )


def test_without_control_cards_of_any_suit_may_be_played():
    # The 8 of Waves and Leaves and the 9 of Moons and Suns share no suit.
    state = table(phase=HELP, hands=[["mill", "pact"], [], []], problems=[(3, 4)] * 4)
    state, _ = act(state, solve(0, 0, "mill", "pact"))
    assert state.scores[0] == 7


def test_without_control_only_whole_problems_may_be_solved():
    state = table(phase=HELP, hands=[["ace-of-moons"], [], []], problems=[(3, 4)] * 4)
    assert refused(state, part(0, 0, "ace-of-moons", 3)).code == "part-needs-a-service"


def test_a_player_without_services_solves_at_most_one_problem_a_turn():
    state = table(phase=HELP, hands=[["mill", "lunatic", "pact", "merchant"], [], []], problems=[(3, 4)] * 4)
    state, _ = act(state, solve(0, 0, "mill", "lunatic"))
    assert to_act(state) == [1]
    assert refused(state, solve(0, 1, "pact", "merchant")).code == "not-your-turn"


def test_a_player_without_services_cannot_abdicate():
    state = table(phase=HELP, hands=[[], [], []])
    assert refused(state, pass_(0, abdicate=True)).code == "nothing-to-abdicate"


def test_the_excuse_lets_a_player_without_services_solve_as_if_with_one_then_passes_left():
    state = table(
        phase=HELP, hands=[["mill"], [], []], problems=[(3, 4)] * 4, extended_deck=True, excuse_holder=0
    )
    assert refused(state, solve(0, 0, "mill")).code == "cards-too-low"  # 8 is not twice 7
    state, events = act(state, solve(0, 0, "mill", excuse=True))
    assert state.scores[0] == 7
    assert state.excuse_holder == 1
    assert ENGINE.describe(events[1], ["Selia", "Shar", "Henri"]) == "Selia passes the Excuse to Shar."


def test_the_excuse_allows_solving_part_of_a_problem():
    state = table(
        phase=HELP,
        hands=[[], [], ["ace-of-moons"]],
        problems=[(3, 4)] * 4,
        extended_deck=True,
        excuse_holder=2,
    )
    state, _ = acts(state, pass_(0), pass_(1), part(2, 0, "ace-of-moons", 4, excuse=True))
    assert state.scores == (0, 0, 4)
    assert state.excuse_holder == 0


def test_the_excuse_is_used_once_a_turn():
    state = table(
        phase=HELP, hands=[["mill"], ["pact"], []], problems=[(3, 4)] * 4, extended_deck=True, excuse_holder=0
    )
    state, _ = act(state, solve(0, 0, "mill", excuse=True))
    assert refused(state, solve(1, 1, "pact", excuse=True)).code == "excuse-already-used"


def test_the_excuse_is_only_for_its_holder_and_only_without_services():
    state = table(phase=HELP, hands=[["mill"], [], []], extended_deck=True, excuse_holder=1)
    assert refused(state, solve(0, 0, "mill", excuse=True)).code == "no-excuse"
    state = table(
        phase=CONTROL,
        hands=[["pact"], [], []],
        services={"diplomatic-corps": 0},
        extended_deck=True,
        excuse_holder=0,
    )
    assert refused(state, solve(0, 0, "pact", excuse=True)).code == "excuse-only-without-services"


def test_the_excuse_is_not_for_a_turn_on_which_its_holder_controlled_a_service():
    # "On a turn when you do not control any of the services, you may solve problems just as if
    # you did." Selia controlled the Navy this turn: after abdicating it she solves without help.
    state = table(
        phase=CONTROL,
        hands=[["mill", "lunatic"], [], []],
        services={"navy": 0},
        problems=[(3, 4)] * 4,
        extended_deck=True,
        excuse_holder=0,
        last_solver=2,
    )
    state, _ = act(state, pass_(0, abdicate=True))
    assert to_act(state) == [0]
    assert refused(state, solve(0, 0, "mill", excuse=True)).code == "excuse-only-without-services"
    assert not any(c.get("excuse") for c in ENGINE.legal_commands(state, 0))
    state, _ = act(state, solve(0, 0, "mill", "lunatic"))  # twice the total, without help
    assert state.scores[0] == 7 and state.excuse_holder == 0


def test_the_excuse_may_be_used_with_cards_of_any_suit():
    # The 8 of Waves and Leaves and the 9 of Moons and Suns share no suit.
    state = table(
        phase=HELP,
        hands=[["mill", "pact"], [], []],
        problems=[(6, 6)] * 4,
        extended_deck=True,
        excuse_holder=0,
    )
    state, _ = act(state, solve(0, 0, "mill", "pact", excuse=True))
    assert state.scores[0] == 12


def test_legal_commands_without_help_offer_the_excuse_only_to_its_holder():
    state = table(
        phase=HELP,
        hands=[["mill", "lunatic"], [], []],
        problems=[(3, 4)] * 4,
        extended_deck=True,
        excuse_holder=0,
    )
    legal = ENGINE.legal_commands(state, 0)
    assert solve(0, 0, "lunatic", "mill") in legal
    assert solve(0, 0, "mill", excuse=True) in legal
    assert part(0, 0, "mill", 3, excuse=True) not in legal  # 8 is above the lower die
    for command in legal:
        ENGINE.decide(state, command)
    assert ENGINE.legal_commands(state, 1) == []
