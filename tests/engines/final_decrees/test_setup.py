"""Setup: seats, the board, the sealed bid for Human Resources, assignment, the deck (FD-1 to FD-17)."""

import pytest

from engines.base import RuleViolation
from engines.final_decrees import ENGINE
from engines.final_decrees import events as ev
from engines.final_decrees.present import decline_window
from engines.final_decrees.state import ASSIGN, BID, DEAL, PLAY

from .builders import DECLINE, act, acts, cmd, config, refused, started, types


def bids(state, *amounts):
    return acts(state, *(cmd("PlaceBid", s, amount=a) for s, a in enumerate(amounts) if a is not None))


@pytest.mark.parametrize("seats", [3, 6])
def test_fd1_the_game_is_for_five_players_or_four(seats):
    with pytest.raises(RuleViolation) as info:
        ENGINE.initial_state(config(seats))
    assert info.value.code == "seats"


def test_fd1_four_players_remove_the_department_of_reform():
    assert "reform" not in started(4).departments
    assert started(5).departments == (
        "reform",
        "executive",
        "human-resources",
        "treasury",
        "secret-service",
        "admiralty",
    )


def test_fd7_initial_control_structure_and_treasury_independent():
    five = started(5)
    assert set(five.arrows) == {
        ("reform", "executive"),
        ("executive", "human-resources"),
        ("executive", "admiralty"),
        ("admiralty", "secret-service"),
    }
    four = started(4)
    assert set(four.arrows) == set(five.arrows) - {("reform", "executive")}


def test_fd16_all_five_decrees_start_on_the_executive_branch():
    assert [d.at for d in started().decrees] == ["executive"] * 5


def test_fd8_a_bid_is_one_to_six_and_sealed():
    state = started()
    refused(state, cmd("PlaceBid", 0, amount=7), "bid-out-of-range")
    refused(state, cmd("PlaceBid", 0, amount=0), "bid-out-of-range")
    state, events = act(state, cmd("PlaceBid", 0, amount=4))
    assert ENGINE.redact(events[0], 1).data == {"seat": 0, "round": 1}
    assert ENGINE.redact(events[0], 0).data["amount"] == 4
    assert ENGINE.view(state, 1)["bid_made"] == [True, False, False, False, False]
    assert "4" not in str(ENGINE.view(state, 1)["bid_made"])
    refused(state, cmd("PlaceBid", 0, amount=2), "already-bid")


def test_worked_example_e4_tied_highest_gain_two_and_rebid():
    """A 6, B 6, C 4, D 2, E 2; rebid A 5, B 3: personal A 7, B 10, C 4, D 7, E 7."""
    state, events = bids(started(), 6, 6, 4, 2, 2)
    revealed = events[-1]
    assert revealed.type == ev.BIDS_REVEALED and revealed.data["rebid"] == [0, 1]
    assert state.personal == (2, 2, 4, 7, 7)
    assert state.phase == BID and state.bidders == (0, 1)
    refused(state, cmd("PlaceBid", 2, amount=3), "not-in-the-rebid")
    state, events = bids(state, 5, 3)
    assert state.personal == (7, 10, 4, 7, 7)
    assert state.phase == ASSIGN and state.head("human-resources") == 0


def test_worked_example_e5_all_bidding_the_same_counts_as_the_most():
    state, _ = bids(started(), 3, 3, 3, 3, 3)
    assert state.personal == (2, 2, 2, 2, 2)
    assert state.bidders == (0, 1, 2, 3, 4) and state.phase == BID


def test_fd9_fd11_fd12_middle_bidders_gain_their_bid_lowest_five_more_highest_heads_hr():
    state, _ = bids(started(4), 5, 1, 3, 1)
    assert state.personal == (5, 6, 3, 6)
    assert state.head("human-resources") == 0


def test_fd13_lowest_in_a_rebid_gains_five_more():
    state, _ = bids(started(), 6, 6, 6, 1, 2)
    state, _ = bids(state, 4, 4, 1)  # A and B tie again, C is lowest in the rebid
    assert state.personal == (4, 4, 2 + 6, 6, 2)
    state, _ = bids(state, 2, 5)
    assert state.personal == (4 + 2 + 5, 4 + 5, 8, 6, 2)
    assert state.head("human-resources") == 1


def assigned(seats=5):
    state, _ = bids(started(seats), *([6] + [1] * (seats - 1)))
    return state


def test_fd14_the_hr_head_assigns_everyone_but_reform_stays_empty():
    state = assigned()
    refused(state, cmd("AssignDepartments", 1, posts=[]), "human-resources-only")
    bad = ["human-resources", "reform", "treasury", "secret-service", "admiralty"]
    refused(state, cmd("AssignDepartments", 0, posts=bad), "bad-assignment")
    posts = ["human-resources", "executive", "treasury", "secret-service", "admiralty"]
    state, _ = act(state, cmd("AssignDepartments", 0, posts=posts))
    assert state.phase == DEAL and state.empty_department == "reform"


def test_reading_1_four_players_leave_one_of_treasury_secret_service_admiralty_empty():
    state = assigned(4)
    no_executive = ["human-resources", "treasury", "secret-service", "admiralty"]
    refused(state, cmd("AssignDepartments", 0, posts=no_executive), "executive-must-be-headed")
    state, _ = act(
        state, cmd("AssignDepartments", 0, posts=["human-resources", "executive", "treasury", "admiralty"])
    )
    assert state.empty_department == "secret-service"


def test_reading_21_the_hr_head_stays_in_human_resources_at_setup():
    state = assigned()
    refused(
        state,
        cmd(
            "AssignDepartments",
            0,
            posts=["executive", "human-resources", "treasury", "secret-service", "admiralty"],
        ),
        "bad-assignment",
    )


def dealt(seats=5, dealer="server"):
    state, _ = bids(started(seats, dealer), *([6] + [1] * (seats - 1)))
    posts = ["human-resources", "treasury", "executive", "secret-service", "admiralty"][:seats]
    if seats == 4:
        posts = ["human-resources", "treasury", "executive", "admiralty"]
    state, _ = act(state, cmd("AssignDepartments", 0, posts=posts))
    return state


@pytest.mark.parametrize(("seats", "size", "window"), [(5, 55, (6, 35)), (4, 56, (6, 36))])
def test_fd15_one_card_each_then_the_decline_card_between_the_top_five_and_the_bottom_twenty(
    seats, size, window
):
    state = dealt(seats, "table")
    request = ENGINE.chance(state)
    assert request.command == "DealHands" and request.draw == seats and DECLINE not in request.pool
    cards = list(request.pool[:seats])
    state, events = act(state, cmd("DealHands", None, cards=cards))
    assert [h for h in state.hands] == [(c,) for c in cards]
    assert len(state.deck) == size and decline_window(state) == window
    assert ENGINE.redact(events[0], 1).data["cards"] == [None, cards[1], None, None, None][:seats]


def test_fd17_the_executive_head_plays_first():
    state = dealt(5, "table")
    request = ENGINE.chance(state)
    state, events = act(state, cmd("DealHands", None, cards=list(request.pool[:5])))
    assert state.phase == PLAY
    started_turn = [e for e in events if e.type == ev.TURN_STARTED][0]
    assert started_turn.data["seat"] == 2 and state.active == 2  # seat 2 heads the Executive
    assert ENGINE.chance(state).command == "DrawCard"


def test_fd15_server_mode_deals_no_position_and_keeps_the_decline_card_out_of_the_top_five():
    state = dealt(5, "server")
    state, events = act(state, cmd("DealHands", None, cards=list(ENGINE.chance(state).pool[:5])))
    assert types(events)[:2] == [ev.HANDS_DEALT, ev.TURN_STARTED]
    request = ENGINE.chance(state)
    assert request.command == "DrawCard" and DECLINE not in request.pool
    assert decline_window(state) == (6, 35)
