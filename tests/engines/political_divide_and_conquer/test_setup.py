"""Setup: seats, the deal, the opening unaffiliated group, the first player (PDC-1, PDC-6 to PDC-8)."""

import pytest

from engines.base import GameConfig, RuleViolation
from engines.political_divide_and_conquer import ENGINE

from .builders import ANN, BO, CY, DI, catalog, catalog_dict, config, do, group, of, refused, start


def begin(seats=4, **options):
    cfg = config(seats, **options)
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
    return state


@pytest.mark.parametrize("seats", [3, 9])
def test_pdc_1_four_to_eight_players(seats):
    with pytest.raises(RuleViolation) as info:
        ENGINE.initial_state(config(seats))
    assert info.value.code == "four-to-eight-players"


@pytest.mark.parametrize("seats", [4, 8])
def test_pdc_1_the_setup_does_not_depend_on_the_player_count(seats):
    state = begin(seats)
    request = ENGINE.chance(state)
    assert (request.command, request.draw, request.seat) == ("DrawCards", 6, 0)
    assert len(state.deck) == len(catalog().cards)


def test_pdc_6_each_player_is_dealt_six_hidden_cards():
    state = start(hands={ANN: [group("left", 1, 0)]})
    assert [len(p.hand) for p in state.players] == [6, 6, 6, 6]
    view = ENGINE.view(state, BO)
    assert "hand" not in view["players"][ANN] and view["players"][ANN]["hand_size"] == 6
    assert len(view["players"][BO]["hand"]) == 6


def test_pdc_7_cards_are_turned_up_until_a_group_and_the_others_go_back_into_the_deck():
    state = begin()
    for s in range(4):
        hand = [c for c in state.deck.middle if catalog().card(c).type == "group"][:6]
        state = do(state, {"type": "DrawCards", "seat": None, "to": s, "cards": hand})
    size = len(state.deck)
    event_card, deficit = of("event"), of("deficit", -2)
    state = do(state, {"type": "TurnUpCard", "seat": None, "cards": [event_card]})
    state = do(state, {"type": "TurnUpCard", "seat": None, "cards": [deficit]})
    assert state.turned_up == (event_card, deficit) and not state.unaffiliated
    opening = group("right", 2)
    state = do(state, {"type": "TurnUpCard", "seat": None, "cards": [opening]})
    assert state.unaffiliated == (opening,) and state.turned_up == ()
    assert event_card in state.deck.middle and deficit in state.deck.middle
    assert len(state.deck) == size - 1


def test_pdc_8_every_player_rolls_and_the_highest_goes_first():
    state = begin()
    for s in range(4):
        hand = [c for c in state.deck.middle][:6]
        state = do(state, {"type": "DrawCards", "seat": None, "to": s, "cards": hand})
    state = do(state, {"type": "TurnUpCard", "seat": None, "cards": [group("left", 3)]})
    request = ENGINE.chance(state)
    assert (request.command, request.dice) == ("RollForFirst", 4)
    # a tie for the highest: only the tied players roll again (reading 2)
    state = do(state, {"type": "RollForFirst", "seat": None, "seats": [0, 1, 2, 3], "dice": [6, 2, 6, 1]})
    assert ENGINE.chance(state).fixed == {"seats": [ANN, CY]}
    state = do(state, {"type": "RollForFirst", "seat": None, "seats": [ANN, CY], "dice": [3, 5]})
    assert state.turn == CY and ENGINE.chance(state).command == "DrawCards"


def test_the_table_may_name_the_first_player_instead():
    state = start(first=DI)
    assert state.turn == DI


def test_reading_21_no_event_is_played_before_the_first_turn():
    state = begin()
    assert refused(state, {"type": "PlayEvent", "seat": ANN, "card": of("event")}) == "chance-pending"


def test_with_no_group_left_in_the_deck_play_starts_without_an_unaffiliated_group():
    data = catalog_dict()
    groups = [g for g in data["groups"] if g["influence"] >= 4] + [
        g for g in data["groups"] if g["influence"] < 4
    ][:14]
    data["groups"] = groups
    data["deficits"] = data["deficits"] * 1 + [{**d, "id": d["id"] + "-b"} for d in data["deficits"]]
    cfg = GameConfig(seats=4, dealer="table", catalog=data, options={"first_player": BO})
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
    cards = [g["id"] for g in groups] + [d["id"] for d in data["deficits"][:4]]
    for s in range(4):
        state = do(state, {"type": "DrawCards", "seat": None, "to": s, "cards": cards[6 * s : 6 * s + 6]})
    assert state.unaffiliated == () and state.turn == BO and ENGINE.chance(state).command == "DrawCards"
