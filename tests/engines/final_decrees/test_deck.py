"""The stacked deck and Stagnation and Decline (FD-15, FD-19, FD-22, FD-42, FD-43), in both dealer modes."""

import json

import pytest

from engines.final_decrees import ENGINE
from engines.final_decrees import events as ev
from engines.final_decrees.present import decline_window
from engines.final_decrees.state import OVER
from tests.engine_contract import play_random_game

from .builders import DECLINE, act, cmd, config, draw, refused, table, types
from .test_contract import play_table_game

FEW = ["overtime-1", "overtime-2", "overtime-3", "cover-up-1", "cover-up-2", "cover-up-3", "scapegoat-1"]


def drawing(dealer="table", deck=FEW, window=None, **kw):
    """Seat 0 has just spent an action to draw."""
    state = table(dealer=dealer, deck=deck, window=window, **kw)
    state, _ = act(state, cmd("TakeDrawAction", 0))
    return state


def test_fd15_table_mode_refuses_the_decline_card_among_the_first_five_cards():
    state = drawing(window=(2, 5))
    assert DECLINE not in ENGINE.chance(state).pool
    refused(state, cmd("DrawCard", None, player=0, cards=[DECLINE]), "card-not-in-pool")


def test_fd15_table_mode_accepts_the_decline_card_once_it_may_be_next():
    state = drawing(window=(1, 5))
    assert DECLINE in ENGINE.chance(state).pool
    state, events = draw(state, DECLINE)
    assert events[0].data["decline"] and state.declines[0] == 1


def test_fd15_table_mode_forces_the_decline_card_before_the_bottom_twenty():
    state = drawing(window=(1, 1))
    assert ENGINE.chance(state).pool == (DECLINE,)
    refused(state, cmd("DrawCard", None, player=0, cards=["overtime-1"]), "card-not-in-pool")


def test_fd15_the_window_narrows_as_cards_leave_the_deck():
    state = drawing(window=(3, 6))
    state, _ = draw(state, "overtime-1")
    assert decline_window(state) == (2, 5) and len(state.deck) == len(FEW) - 1 + 1


def _decline_share(request):
    return request.pool.count(DECLINE) / len(request.pool)


@pytest.mark.parametrize("dealer", ["server", "table"])
def test_fd15_both_dealer_modes_deal_the_decline_card_with_its_true_chance(dealer):
    state = drawing(dealer, window=(2, 4))
    assert DECLINE not in ENGINE.chance(state).pool
    state, _ = draw(state, "overtime-1")
    state = state.with_(draws_owed=1)
    assert _decline_share(ENGINE.chance(state)) == pytest.approx(1 / 3)
    state, _ = draw(state, "overtime-2")
    state = state.with_(draws_owed=1)
    assert _decline_share(ENGINE.chance(state)) == pytest.approx(1 / 2)
    state, _ = draw(state, "overtime-3")
    state = state.with_(draws_owed=1)
    assert ENGINE.chance(state).pool == (DECLINE,)


def test_fd42_the_decline_card_discards_five_blames_the_heads_and_goes_back_into_the_deck():
    deck = FEW + ["briefing-papers-1", "briefing-papers-2", "secondment-1"]
    blame = {"reform": 3, "treasury": 2, "admiralty": 4}
    state = drawing(deck=deck, window=(1, 4), blame=blame, personal=[1, 1, 1, 1, 1])
    state, events = draw(state, DECLINE)
    request = ENGINE.chance(state)
    assert request.command == "DiscardFromDeck" and request.draw == 5 and DECLINE not in request.pool
    five = sorted(deck)[:5]
    state, events = act(state, cmd("DiscardFromDeck", None, cards=five))
    assert ENGINE.redact(events[0], 3) == events[0]  # face up (reading 15)
    played = next(e for e in events if e.type == ev.DECLINE_PLAYED)
    assert played.data["blame"] == [["treasury", 2, 2], ["admiralty", 4, 4]]
    assert state.personal == (1, 1, 3, 1, 5)
    assert state.blame_of("reform") == 3  # the empty department has no head to take it
    assert len(state.deck) == 6 and decline_window(state) == (1, 6)  # 5 cards left, the decline card anywhere
    assert list(state.discards) == five
    assert state.actions_left == 2 and "decline" not in state.hands[0]


def test_fd42_server_mode_may_deal_the_decline_card_anywhere_after_the_reshuffle():
    deck = FEW + ["briefing-papers-1"]
    state = drawing("server", deck=deck, window=(1, 1))
    state, _ = draw(state, DECLINE)
    state, _ = act(state, cmd("DiscardFromDeck", None, cards=sorted(deck)[:5]))
    state = state.with_(draws_owed=1)
    request = ENGINE.chance(state)
    assert request.command == "DrawCard" and _decline_share(request) == pytest.approx(1 / 4)


def test_reading_14_a_decline_card_drawn_at_step_two_gives_no_replacement_draw():
    state = table(deck=FEW * 1, window=(1, 3), active=4)
    state, _ = act(state, cmd("EndTurn", 4))
    assert state.active == 0
    state, _ = draw(state, DECLINE)
    state, _ = act(state, cmd("DiscardFromDeck", None, cards=sorted(FEW)[:5]))
    assert ENGINE.chance(state) is None and state.actions_left == 3 and state.hands[0] == ()


def test_reading_14_a_decline_card_drawn_by_the_draw_action_still_uses_the_action():
    state = drawing(window=(1, 3))
    state, _ = draw(state, DECLINE)
    state, _ = act(state, cmd("DiscardFromDeck", None, cards=sorted(FEW)[:5]))
    assert state.actions_left == 2
    refused(state, cmd("TakeDrawAction", 0), "once-per-turn")


def test_reading_16_with_fewer_than_five_cards_left_the_decline_card_ends_the_game():
    deck = ["overtime-1", "overtime-2"]
    state = drawing(deck=deck, window=(1, 1), blame={"executive": 3}, personal=[2, 2, 2, 2, 2])
    state, _ = draw(state, DECLINE)
    assert ENGINE.chance(state).draw == 2
    state, events = act(state, cmd("DiscardFromDeck", None, cards=deck))
    assert types(events)[-2:] == [ev.DECLINE_PLAYED, ev.GAME_DECIDED]
    assert events[-2].data["reshuffled"] is False
    assert (
        state.phase == OVER and state.personal[0] == 5 and ENGINE.outcome(state).ended_by == "deck-exhausted"
    )


def test_reading_17_the_game_ends_at_once_when_the_last_card_is_drawn():
    state = drawing(deck=["overtime-1"], decrees={"granary-decree": ("executive", 0)})
    state, events = draw(state, "overtime-1")
    assert types(events) == [ev.CARD_DRAWN, ev.GAME_DECIDED]  # no step 4
    assert state.blame_of("executive") == 0


def test_reading_25_the_decline_card_as_the_last_card_is_played_and_the_game_ends():
    state = drawing(deck=[], window=(1, 1), blame={"admiralty": 2})
    state, events = draw(state, DECLINE)
    assert types(events) == [ev.CARD_DRAWN, ev.DECLINE_PLAYED, ev.GAME_DECIDED]
    assert state.personal[4] == 12


def test_the_number_of_discards_is_an_option():
    assert ENGINE.initial_state(config(decline_discards=3)).discard_count == 3
    state = drawing(window=(1, 3)).with_(discard_count=3)
    state, _ = draw(state, DECLINE)
    assert ENGINE.chance(state).draw == 3


# --------------------------------------------------------- hidden information
def test_two_games_that_differ_only_in_a_hidden_card_look_the_same_to_everyone_else():
    """Seat 0 draws overtime-1 in one game and scapegoat-1 in the other, and trades it to seat 1."""
    seen = []
    for card in ("overtime-1", "scapegoat-1"):
        state = drawing(deck=["overtime-1", "scapegoat-1", "cover-up-1"], personal=[3, 3, 3, 3, 3])
        log = []
        state, events = draw(state, card)
        log += events
        state, events = act(state, cmd("OfferTrade", 0, to=1, give_cards=[card], ask_amount=1))
        log += events
        state, events = act(state, cmd("AcceptTrade", 1, offer=1, cards=[]))
        log += events
        seen.append(
            {
                seat: (
                    json.dumps(ENGINE.view(state, seat), sort_keys=True),
                    [ENGINE.redact(e, seat).to_dict() for e in log],
                    [ENGINE.describe(ENGINE.redact(e, seat), list("ABCDE")) for e in log],
                    ENGINE.legal_commands(state, seat),
                )
                for seat in (None, 2, 3, 4)
            }
        )
        assert card in json.dumps(ENGINE.view(state, 1)) and card in json.dumps(
            ENGINE.redact(log[-1], 0).data
        )
    assert seen[0] == seen[1]


def test_a_decline_card_drawn_in_the_middle_of_a_cards_draws_is_played_and_the_draws_go_on():
    deck = FEW + ["briefing-papers-2"]
    state = table(hands=[["briefing-papers-1"], [], [], [], []], deck=deck, window=(1, 3))
    state, _ = act(state, cmd("PlayCard", 0, card="briefing-papers-1"))
    state, _ = draw(state, DECLINE)
    assert ENGINE.chance(state).command == "DiscardFromDeck"
    state, _ = act(state, cmd("DiscardFromDeck", None, cards=sorted(deck)[:5]))
    assert ENGINE.chance(state).command == "DrawCard" and state.draws_owed == 1
    state, _ = draw(state, "scapegoat-1")
    assert state.hands[0] == ("scapegoat-1",)


def _first_decline_position(events):
    """How many cards had left the deck when the decline card first came out (1-based), or None."""
    left = 0
    for event in events:
        if event.type == ev.CARD_DRAWN:
            left += 1
            if event.data["decline"]:
                return left
        elif event.type == ev.CARDS_DISCARDED:
            left += len(event.data["cards"])
    return None


@pytest.mark.parametrize("dealer", ["server", "table"])
@pytest.mark.parametrize("seats", [4, 5])
def test_fd15_in_whole_games_the_decline_card_first_comes_out_after_five_cards_and_before_the_last_twenty(
    dealer, seats
):
    size = 60 - seats
    for seed in range(4):
        if dealer == "server":
            events = play_random_game(ENGINE, config(seats, dealer), seed, check_every=10_000).events
        else:
            _, events = play_table_game(config(seats, dealer), seed)
        position = _first_decline_position(events)
        assert position is None or 6 <= position <= size - 20, position
