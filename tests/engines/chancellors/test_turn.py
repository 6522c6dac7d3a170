"""Setup, (D) escalation, (E) drawing, the endings, and the chance that feeds them."""

import pytest

from engines.base import GameConfig
from engines.chancellors import ENGINE
from engines.chancellors import events as ev
from engines.chancellors.cards import CARDS
from engines.chancellors.state import CHOOSE, CONTROL, DISCARD, HELP, OVER

from .builders import (
    act,
    acts,
    config,
    draw,
    of_type,
    part,
    pass_,
    pending,
    refused,
    roll,
    solve,
    table,
    types,
)

EVAN, MAIRE = 0, 1


def start(cfg: GameConfig):
    state = ENGINE.initial_state(cfg)
    events = ENGINE.setup(cfg)
    for event in events:
        state = ENGINE.evolve(state, event)
    return state, events


# --------------------------------------------------------------------- setup
@pytest.mark.parametrize(("seats", "problems"), [(2, 3), (3, 4), (4, 5)])
def test_there_is_one_problem_per_player_plus_one(seats, problems):
    state, _ = start(config(seats))
    assert len(state.problems) == problems
    assert ENGINE.min_seats == 2 and ENGINE.max_seats == 4


def test_the_sailor_soldier_and_diplomat_are_taken_out_as_the_services():
    state, events = start(config(3))
    assert {"sailor", "soldier", "diplomat"}.isdisjoint(state.pile)
    assert len(state.pile) == 33
    assert state.services == (None, None, None)
    assert types(events) == [ev.GAME_STARTED]


def test_pawns_courts_and_the_excuse_join_only_with_the_extended_deck():
    ranks = lambda state: sorted({CARDS[c].rank for c in state.pile} - set("23456789"))  # noqa: E731
    basic, _ = start(config(3))
    assert ranks(basic) == ["ace", "crown"]
    extended, _ = start(config(3, extended_deck=True))
    assert ranks(extended) == ["ace", "court", "crown", "excuse", "pawn"] and len(extended.pile) == 42
    pawns_only, _ = start(config(3, pawns=True))
    assert ranks(pawns_only) == ["ace", "crown", "pawn"]
    no_excuse, _ = start(config(3, extended_deck=True, excuse=False))
    assert "excuse" not in no_excuse.pile and len(no_excuse.pile) == 41


def test_the_target_score_is_100_unless_agreed_otherwise():
    assert start(config(2))[0].target == 100
    assert start(config(2, target=60))[0].target == 60


def test_the_opening_rolls_each_problem_then_deals_three_cards_to_each_player():
    state, _ = start(config(3))
    for problem in range(4):
        assert pending(state) == {"command": "RollDice", "dice": 2, "draw": 0, "problem": problem}
        assert ENGINE.legal_commands(state, 0) == []
        state, _ = act(state, roll(state, 2, problem + 1))
    assert [p.dice for p in state.problems] == [(2, 1), (2, 2), (2, 3), (2, 4)]
    dealt = [["ace-of-moons", "author", "pact"], ["sea", "mill", "cave"], ["end", "forest", "market"]]
    for seat in range(3):
        request = ENGINE.chance(state)
        assert (request.command, request.draw, request.seat, dict(request.fixed)) == (
            "DrawCards",
            3,
            seat,
            {"player": seat},
        )
        state, events = act(state, draw(state, *dealt[seat]))
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in dealt]
    assert types(events) == [ev.CARDS_DEALT, ev.TURN_BEGAN]
    assert state.phase == CHOOSE and state.turn == 1


# ---------------------------------------------------------------- escalation
def everyone_passes(state):
    while state.phase == HELP:
        (seat,) = ENGINE.view(state, None)["to_act"]
        state, events = act(state, pass_(seat))
    return state, events


def test_the_lower_die_of_each_unsolved_problem_goes_up_by_one():
    state = table(2, phase=HELP, problems=[(3, 4), (2, 2), (5, 1)])
    state, events = everyone_passes(state)
    escalated = of_type(events, ev.PROBLEMS_ESCALATED)[0]
    assert [p.dice for p in state.problems] == [(4, 4), (3, 2), (5, 2)]
    assert ENGINE.describe(escalated, ["Evan", "Maire"]) == (
        "Unsolved problems escalate: problem 1 from 3 and 4 to 4 and 4; problem 2 from 2 and 2 to 3 and 2; "
        "problem 3 from 5 and 1 to 5 and 2."
    )


def test_a_problem_already_at_six_and_six_ends_the_game_and_the_lowest_score_wins():
    state = table(3, phase=HELP, problems=[(3, 4), (6, 6), (2, 2), (1, 1)], scores=[40, 12, 30])
    state, events = everyone_passes(state)
    assert types(events)[-2:] == [ev.CATASTROPHE_STRUCK, ev.GAME_DECIDED]
    assert ENGINE.describe(events[-2], ["Selia", "Shar", "Henri"]) == (
        "Problem 2 is already at 6 and 6 and escalates out of control: the King sacks his Chancellors."
    )
    outcome = ENGINE.outcome(state)
    assert outcome.finished and outcome.ended_by == "catastrophe"
    assert outcome.places == (3, 1, 2)
    assert [p.dice for p in state.problems][:2] == [(3, 4), (6, 6)]  # the game ends at once


def test_tied_lowest_scores_share_the_win_after_a_catastrophe():
    state = table(3, phase=HELP, problems=[(6, 6), (2, 2), (2, 2), (2, 2)], scores=[12, 30, 12])
    state, events = everyone_passes(state)
    assert ENGINE.outcome(state).places == (1, 3, 1)
    assert ENGINE.describe(events[-1], ["Selia", "Shar", "Henri"]) == (
        "The game ends in catastrophe; with the lowest score, Selia and Henri share the win (12)."
    )


def test_the_set_aside_die_of_a_partly_solved_problem_is_rerolled_before_escalation():
    state = table(
        2,
        phase=CONTROL,
        hands=[["ace-of-knots"], []],
        services={"army": 0},
        problems=[(6, 3), (2, 2), (2, 2)],
    )
    state, _ = act(state, part(0, 0, "ace-of-knots", 3))
    state, _ = act(state, pass_(1))
    assert pending(state) == {"command": "RollDice", "dice": 1, "draw": 0, "problem": 0}
    state, events = act(state, roll(state, 2))
    assert events[0].type == ev.PROBLEM_UNFOLDED and events[0].data["dice"] == [6, 2]
    assert state.problems[0].dice == (6, 3)  # unfolded to 6 and 2, then escalated like any unsolved problem


def test_a_partly_solved_six_rerolled_to_six_escalates_out_of_control():
    # The strategy the rulebook describes: solve part of a problem with a 6 and reroll the other die.
    state = table(
        2,
        phase=CONTROL,
        hands=[["ace-of-knots"], []],
        services={"army": 0},
        problems=[(6, 3), (2, 2), (2, 2)],
    )
    state, _ = acts(state, part(0, 0, "ace-of-knots", 3), pass_(1))
    state, _ = act(state, roll(state, 6))
    assert ENGINE.outcome(state).ended_by == "catastrophe"
    assert ENGINE.outcome(state).places == (2, 1)  # 5 points against 0: the lowest score wins


def test_setting_the_six_aside_blocks_the_catastrophe():
    state = table(
        2,
        phase=CONTROL,
        hands=[["ace-of-knots"], []],
        services={"army": 0},
        problems=[(6, 3), (2, 2), (2, 2)],
    )
    state, _ = acts(state, part(0, 0, "ace-of-knots", 6), pass_(1))
    state, _ = act(state, roll(state, 6))
    assert not ENGINE.outcome(state).finished
    assert state.problems[0].dice == (4, 6)


def test_wholly_solved_problems_are_rerolled_and_do_not_escalate_this_turn():
    state = table(
        2, phase=CONTROL, hands=[["betrayal"], []], services={"army": 0}, problems=[(3, 4), (2, 2), (2, 2)]
    )
    state, events = acts(state, solve(0, 0, "betrayal"), pass_(1))
    escalated = of_type(events, ev.PROBLEMS_ESCALATED)[0]
    assert [c["problem"] for c in escalated.data["changes"]] == [1, 2]
    assert pending(state) == {"command": "RollDice", "dice": 2, "draw": 0, "problem": 0}
    state, events = act(state, roll(state, 6, 6))
    assert state.problems[0].dice == (6, 6) and not ENGINE.outcome(state).finished
    assert ENGINE.describe(events[0], ["Evan", "Maire"]) == "Problem 1 is rerolled as a new problem: 6 and 6."


# -------------------------------------------------------------------- drawing
def test_everyone_draws_three_cards_at_the_end_of_the_turn():
    state = table(3, phase=HELP, hands=[["author"], [], ["pact"]])
    state, _ = everyone_passes(state)
    dealt = [
        ["ace-of-moons", "ace-of-suns", "sea"],
        ["mill", "cave", "end"],
        ["lunatic", "penitent", "market"],
    ]
    for seat, cards in enumerate(dealt):
        request = ENGINE.chance(state)
        assert (request.command, request.draw, request.seat) == ("DrawCards", 3, seat)
        state, _ = act(state, draw(state, *cards))
    assert [len(h) for h in state.hands] == [4, 3, 4]
    assert state.phase == CHOOSE and state.turn == 2


def test_hands_over_six_are_discarded_down_to_six_by_choice():
    hand = ["ace-of-moons", "ace-of-suns", "ace-of-waves", "ace-of-leaves", "ace-of-wyrms"]
    state = table(2, phase=HELP, hands=[hand, []])
    state, _ = everyone_passes(state)
    state, _ = act(state, draw(state, "author", "desert", "origin"))
    state, _ = act(state, draw(state, "journey", "painter", "savage"))
    assert state.phase == DISCARD
    assert ENGINE.view(state, None)["to_act"] == [0]
    assert (
        refused(state, {"type": "DiscardDown", "seat": 0, "cards": ["author"]}).code == "wrong-discard-count"
    )
    assert refused(state, {"type": "DiscardDown", "seat": 1, "cards": []}).code == "hand-within-limit"
    assert refused(state, {"type": "ChooseCard", "seat": 1, "card": "journey"}).code == "not-choosing-now"
    state, events = act(state, {"type": "DiscardDown", "seat": 0, "cards": ["author", "ace-of-moons"]})
    assert len(state.hands[0]) == 6 and {"author", "ace-of-moons"} <= set(state.discards)
    assert types(events) == [ev.CARDS_DISCARDED, ev.TURN_BEGAN]


def test_an_empty_draw_pile_reshuffles_the_discards():
    state = table(2, phase=HELP, pile=["pact", "mill"], discards=["sea", "cave", "end", "forest"])
    state, _ = everyone_passes(state)
    assert ENGINE.chance(state).draw == 2
    state, _ = act(state, draw(state, "pact", "mill"))
    request = ENGINE.chance(state)
    assert (request.draw, request.seat, sorted(request.pool)) == (1, 0, ["cave", "end", "forest", "sea"])
    state, events = act(state, draw(state, "sea"))
    assert types(events) == [ev.DISCARDS_RESHUFFLED, ev.CARDS_DRAWN]
    assert sorted(state.hands[0]) == ["mill", "pact", "sea"]
    assert state.pile == ("cave", "end", "forest") and state.discards == ()


def test_when_the_pile_and_the_discards_are_both_empty_players_draw_what_is_left():
    state = table(2, phase=HELP, pile=["pact"], discards=[])
    state, _ = everyone_passes(state)
    state, _ = act(state, draw(state, "pact"))
    assert ENGINE.chance(state) is None
    assert state.phase == CHOOSE and state.hands == (("pact",), ())


def test_the_excuse_drawn_is_put_in_front_of_its_player():
    state = table(2, phase=HELP, extended_deck=True)
    state, _ = everyone_passes(state)
    state, events = act(state, draw(state, "excuse", "author", "pact"))
    assert state.excuse_holder == 0 and sorted(state.hands[0]) == ["author", "pact"]
    assert (
        ENGINE.describe(events[0], ["Evan", "Maire"])
        == "Evan draws three cards and puts the Excuse in front of them."
    )


# ------------------------------------------------------------------- endings
def evan_and_maire(evan_score, maire_score, problems=((3, 4), (4, 5), (1, 2))):
    return table(
        2,
        phase=CONTROL,
        hands=[["pact"], ["betrayal", "ace-of-knots"]],
        services={"diplomatic-corps": EVAN, "army": MAIRE},
        scores=[evan_score, maire_score],
        problems=problems,
    )


def test_evan_and_maire_both_reaching_102_share_the_win():
    state = evan_and_maire(95, 93)
    state, _ = act(state, solve(EVAN, 0, "pact"))
    assert state.scores[EVAN] == 102
    assert not ENGINE.outcome(state).finished  # play continues until the end of the turn
    state, events = act(state, solve(MAIRE, 1, "betrayal", "ace-of-knots"))
    outcome = ENGINE.outcome(state)
    assert outcome.finished and outcome.ended_by == "target-score"
    assert outcome.places == (1, 1) and outcome.scores == (102.0, 102.0)
    assert (
        ENGINE.describe(events[-1], ["Evan", "Maire"])
        == "The game ends; Evan and Maire share the win with 102."
    )


def test_after_the_turn_in_which_someone_reaches_the_target_the_highest_score_wins():
    state = evan_and_maire(95, 96)
    state, events = acts(state, solve(EVAN, 0, "pact"), solve(MAIRE, 1, "betrayal", "ace-of-knots"))
    assert types(events)[-2:] == [ev.PROBLEMS_ESCALATED, ev.GAME_DECIDED]
    assert ENGINE.outcome(state).places == (2, 1)
    assert state.phase == OVER


def test_a_catastrophe_in_the_final_turn_overrides_the_target():
    state = evan_and_maire(95, 50, problems=((3, 4), (4, 5), (6, 6)))
    state, _ = acts(state, solve(EVAN, 0, "pact"), pass_(MAIRE))
    assert ENGINE.outcome(state).ended_by == "catastrophe"
    assert ENGINE.outcome(state).places == (2, 1)


def test_nothing_may_be_done_once_the_game_is_over():
    state = evan_and_maire(95, 96)
    state, _ = acts(state, solve(EVAN, 0, "pact"), pass_(MAIRE))
    assert refused(state, pass_(MAIRE)).code == "game-over"
    assert ENGINE.legal_commands(state, MAIRE) == [] and ENGINE.chance(state) is None


# --------------------------------------------------------------------- chance
def test_a_die_outside_one_to_six_is_impossible():
    state, _ = start(config(2))
    for faces in ([0, 3], [3, 7], [2.5, 3], [True, 3]):
        assert (
            refused(state, {"type": "RollDice", "seat": None, "problem": 0, "dice": faces}).code
            == "impossible-die"
        )


def test_the_wrong_number_of_dice_is_rejected():
    state, _ = start(config(2))
    assert (
        refused(state, {"type": "RollDice", "seat": None, "problem": 0, "dice": [3]}).code
        == "wrong-dice-count"
    )


def test_dice_are_for_the_problem_the_game_waits_for():
    state, _ = start(config(2))
    assert (
        refused(state, {"type": "RollDice", "seat": None, "problem": 1, "dice": [3, 3]}).code
        == "wrong-chance"
    )


def test_only_cards_still_in_the_draw_pile_can_be_drawn():
    state = table(2, phase=HELP, hands=[["pact"], []], discards=["mill"])
    state, _ = everyone_passes(state)
    command = draw(state, "pact", "author", "desert")
    assert refused(state, command).code == "card-not-in-pool"
    assert refused(state, draw(state, "mill", "author", "desert")).code == "card-not-in-pool"
    assert refused(state, draw(state, "author", "author", "desert")).code == "card-not-in-pool"
    assert refused(state, draw(state, "author", "desert")).code == "wrong-card-count"
    assert refused(state, {**draw(state, "author", "desert", "origin"), "player": 1}).code == "wrong-chance"
    assert refused(state, {**draw(state, "author", "desert", "origin"), "seat": 0}).code == "dealer-only"


def test_chance_of_the_wrong_kind_is_refused_as_impossible():
    # A recorder's typo must be refused by a rule, never crash or slip through as a number.
    state, _ = start(config(2, dealer="table"))
    roll_for = {"type": "RollDice", "seat": None, "dice": [3, 3]}
    assert refused(state, {**roll_for, "problem": False}).code == "wrong-chance"
    assert refused(state, {**roll_for, "problem": 0, "dice": ["3", 3]}).code == "impossible-die"
    for _ in range(3):
        state, _ = act(state, roll(state, 3, 3))
    dealt = {"type": "DrawCards", "seat": None, "player": 0}
    assert refused(state, {**dealt, "player": False, "cards": ["pact", "mill", "sea"]}).code == "wrong-chance"
    assert refused(state, {**dealt, "cards": [["pact"], "mill", "sea"]}).code == "wrong-card-count"


def test_malformed_plays_are_refused_by_a_rule():
    state = table(2, phase=CONTROL, hands=[["ace-of-knots", "battle"], []], services={"army": 0})
    assert refused(state, {**solve(0, 0), "cards": [["battle"]]}).code == "no-cards"
    assert refused(state, part(0, 0, "ace-of-knots", True)).code == "no-such-die"  # True is not a die
    state = table(2, phase=CONTROL, hands=[["ace-of-knots"], []], services={"army": 0}, problems=[(1, 3)] * 3)
    assert refused(state, part(0, 0, "ace-of-knots", True)).code == "no-such-die"
    hand = ["ace-of-moons", "ace-of-suns", "ace-of-waves", "ace-of-leaves", "ace-of-wyrms"]
    state = table(2, phase=HELP, hands=[hand, []])
    state, _ = everyone_passes(state)
    state, _ = act(state, draw(state, "author", "desert", "origin"))
    state, _ = act(state, draw(state, "journey", "painter", "savage"))
    discard = {"type": "DiscardDown", "seat": 0, "cards": [["author"], {"x": 1}]}
    assert refused(state, discard).code == "wrong-discard-count"


def test_players_cannot_act_while_chance_is_pending():
    state, _ = start(config(2))
    assert refused(state, pass_(0)).code == "chance-pending"
    assert refused(state, {"type": "DrawCards", "seat": None, "player": 0, "cards": ["pact"]}).code == (
        "no-chance-pending"
    )


def test_chance_is_refused_when_none_is_pending():
    state = table(2)
    assert (
        refused(state, {"type": "RollDice", "seat": None, "problem": 0, "dice": [1, 1]}).code
        == "no-chance-pending"
    )
    assert refused(state, {"type": "Shout", "seat": 0}).code == "unknown-command"
    assert refused(state, {"type": "ChooseCard", "seat": 5, "card": "pact"}).code == "no-such-seat"


def test_in_table_mode_the_dealer_lists_possible_chance_for_the_recorder():
    cfg = config(2, dealer="table")
    state, _ = start(cfg)
    dice = ENGINE.legal_commands(state, None)
    assert len(dice) == 36 and {"type": "RollDice", "seat": None, "problem": 0, "dice": [6, 1]} in dice
    for _ in range(3):
        state, _ = act(state, ENGINE.legal_commands(state, None)[0])
    draws = ENGINE.legal_commands(state, None)
    assert len(draws) == 33  # one run of three cards starting at each card of the pile
    assert all(c["player"] == 0 and len(c["cards"]) == 3 for c in draws)
    for command in draws[:5]:
        ENGINE.decide(state, command)
