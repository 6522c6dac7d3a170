"""Rounds, turns and auctions."""

from engines.house_of_cronies import ENGINE
from engines.house_of_cronies.catalog import FLOOR_CROSSING, SHEBEEN
from engines.house_of_cronies.state import LAYING, Draw

from .builders import (
    BALEKA,
    JACOB,
    PRAVIN,
    THULI,
    act,
    build,
    cor,
    crony,
    do,
    draw,
    everyone_passes,
    inf,
    refused,
    tactic,
    types,
)

MANDARIN = crony("Treasury Mandarin")  # minimum bid 5, Finance
LOYALIST = crony("Party Loyalist")  # minimum bid 2, no speciality, no free tactics


def laying(seats: int = 4, **kwargs):
    """A round that waits for the Speaker's cards (5 with four players, 4 with three)."""
    state = build(seats, **kwargs)
    return state.with_(stage=LAYING, turn=None, turns_done=0, pending_draws=(Draw("main", "table", 5),))


def test_the_speaker_lays_out_five_cards():
    state = laying(4)
    request = ENGINE.chance(state)
    assert request.draw == 5 and request.fixed == {"deck": "main", "to": "table"}


def test_with_three_players_the_speaker_lays_out_four_cards():
    state = build(3, turn=2, gained=[0, 1, 2], table=[inf(1)])
    state = do(state, 2, "EndTurn")
    request = ENGINE.chance(state)
    assert request.draw == 4 and request.seat is None


def test_turns_go_clockwise_from_the_speaker():
    state = build(speaker=PRAVIN, table=[inf(1), inf(2), inf(3), inf(4), inf(5)])
    seen = []
    for _ in range(4):
        seen.append(state.turn)
        card = next(c for c in state.table)
        state = do(state, state.turn, "PickUpCard", card=card)
        state = do(state, state.turn, "EndTurn")
    assert seen == [PRAVIN, JACOB, BALEKA, THULI]


def test_only_the_player_whose_turn_it_is_picks_up():
    state = build(table=[inf(1)])
    assert refused(state, THULI, "PickUpCard", card=inf(1)) == "not-your-turn"


def test_a_turn_is_one_pick_up_of_influence_or_corruption():
    state = build(table=[inf(1), cor(3)])
    state = do(state, BALEKA, "PickUpCard", card=cor(3))
    assert state.players[BALEKA].hand == (cor(3),)
    assert refused(state, BALEKA, "PickUpCard", card=inf(1)) == "already-gained"


def test_cronies_are_bid_for_not_picked_up():
    state = build(table=[MANDARIN])
    assert refused(state, BALEKA, "PickUpCard", card=MANDARIN) == "bid-for-cronies"


def test_influence_and_corruption_are_picked_up_not_bid_for():
    state = build(table=[inf(1)], hands={BALEKA: [inf(5)]})
    assert refused(state, BALEKA, "PlaceBid", card=inf(1), cards=[inf(5)]) == "pick-up-money"


def test_a_bid_must_reach_the_cards_minimum():
    state = build(table=[MANDARIN], hands={BALEKA: [inf(4)]})
    assert refused(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(4)]) == "bid-below-minimum"


def test_bids_are_sums_of_influence_and_corruption_from_the_hand():
    state = build(table=[MANDARIN, LOYALIST], hands={BALEKA: [inf(3), cor(3)], THULI: [inf(5)]})
    assert refused(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)]) == "not-in-hand"
    state, events = act(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(3), cor(3)])
    assert events[0].data["value"] == 6


def test_each_bid_must_be_higher_than_the_last():
    state = build(table=[MANDARIN], hands={BALEKA: [inf(5)], THULI: [inf(5, 1), inf(1)]})
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    assert refused(state, THULI, "PlaceBid", card=MANDARIN, cards=[inf(5, 1)]) == "bid-too-low"
    state = do(state, THULI, "PlaceBid", card=MANDARIN, cards=[inf(5, 1), inf(1)])
    assert state.auction.high == THULI and state.auction.value == 6


def test_bidding_passes_clockwise_including_the_speaker():
    state = build(
        speaker=BALEKA,
        table=[MANDARIN],
        hands={BALEKA: [inf(5), inf(4)], THULI: [inf(5, 1), inf(2)], PRAVIN: [], JACOB: []},
    )
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    asked = [state.auction.asking]
    state = do(state, THULI, "PlaceBid", card=MANDARIN, cards=[inf(5, 1), inf(2)])
    for seat in (PRAVIN, JACOB):
        asked.append(state.auction.asking)
        state = do(state, seat, "PassBid")
    asked.append(state.auction.asking)
    assert asked == [THULI, PRAVIN, JACOB, BALEKA]  # the Speaker is asked too
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5), inf(4)])
    assert state.auction.asking == THULI


def test_a_player_who_cannot_afford_a_raise_is_still_asked_and_passes():
    state = build(table=[MANDARIN], hands={BALEKA: [inf(5)], THULI: [inf(1)]})
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    assert state.auction.asking == THULI
    assert ENGINE.legal_commands(state, THULI) == [{"type": "PassBid", "seat": THULI}]


def test_only_the_asked_player_may_bid():
    state = build(table=[MANDARIN], hands={BALEKA: [inf(5)], PRAVIN: [inf(5, 1), inf(3)]})
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    assert refused(state, PRAVIN, "PlaceBid", card=MANDARIN, cards=[inf(5, 1), inf(3)]) == "not-asked"
    assert refused(state, PRAVIN, "PassBid") == "not-asked"


def test_players_whose_turn_has_not_come_may_bid():
    state = build(table=[MANDARIN], hands={BALEKA: [inf(5)], JACOB: [cor(7)]})
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    state = do(state, THULI, "PassBid")
    state = do(state, PRAVIN, "PassBid")
    state = do(state, JACOB, "PlaceBid", card=MANDARIN, cards=[cor(7)])
    assert state.auction.high == JACOB


def test_only_players_who_have_not_gained_a_card_this_round_may_bid():
    state = build(table=[MANDARIN], hands={BALEKA: [inf(5)], THULI: [cor(7)]}, gained=[THULI, PRAVIN])
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    assert state.auction.asking == JACOB  # Thuli and Pravin are not asked
    assert refused(state, THULI, "PlaceBid", card=MANDARIN, cards=[cor(7)]) == "not-asked"


def test_a_player_who_has_gained_a_card_cannot_open_a_bid():
    state = build(table=[MANDARIN, inf(1)], hands={BALEKA: [inf(5)]}, gained=[BALEKA])
    assert refused(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)]) == "already-gained"


def test_bids_for_a_new_card_are_opened_only_on_ones_turn():
    state = build(table=[MANDARIN], hands={THULI: [inf(5)]})
    assert refused(state, THULI, "PlaceBid", card=MANDARIN, cards=[inf(5)]) == "not-your-turn"


def test_the_winner_pays_into_the_discard_pile_and_everyone_else_takes_their_bid_back():
    state = build(table=[MANDARIN, inf(1)], hands={BALEKA: [inf(5), inf(2)], THULI: [inf(5, 1), inf(3)]})
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    state = do(state, THULI, "PlaceBid", card=MANDARIN, cards=[inf(5, 1), inf(3)])
    for seat in (PRAVIN, JACOB, BALEKA):
        state = do(state, seat, "PassBid")
    assert state.players[THULI].to_place == (MANDARIN,)
    assert state.players[THULI].hand == ()
    assert sorted(state.main_discard) == sorted([inf(5, 1), inf(3)])
    assert state.players[BALEKA].hand == tuple(sorted([inf(5), inf(2)]))
    assert MANDARIN not in state.table


def test_an_outbid_player_may_raise_again_when_asked():
    state = build(table=[MANDARIN], hands={BALEKA: [inf(5), inf(4)], THULI: [cor(7)]})
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    state = do(state, THULI, "PlaceBid", card=MANDARIN, cards=[cor(7)])
    state = do(state, PRAVIN, "PassBid")
    state = do(state, JACOB, "PassBid")
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5), inf(4)])
    assert state.auction.high == BALEKA and state.auction.value == 9


def test_an_outbid_player_keeps_their_turn_and_may_pick_up_instead():
    state = build(table=[MANDARIN, inf(1)], hands={BALEKA: [inf(5)], THULI: [cor(7)]})
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    state = do(state, THULI, "PlaceBid", card=MANDARIN, cards=[cor(7)])
    for seat in (PRAVIN, JACOB, BALEKA):
        state = do(state, seat, "PassBid")
    state = do(state, THULI, "PlaceCrony", card=MANDARIN, position="finance")
    assert state.turn == BALEKA
    state = do(state, BALEKA, "PickUpCard", card=inf(1))
    assert inf(1) in state.players[BALEKA].hand


def test_a_player_who_outbids_forfeits_their_pick_but_may_still_buy_and_play_tactics():
    state = build(
        table=[MANDARIN, inf(1), inf(2)],
        hands={BALEKA: [inf(5)], THULI: [cor(7), inf(5, 1)]},
        tactics={THULI: [tactic(SHEBEEN)]},
    )
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    state = do(state, THULI, "PlaceBid", card=MANDARIN, cards=[cor(7)])
    for seat in (PRAVIN, JACOB, BALEKA):
        state = do(state, seat, "PassBid")
    state = do(state, THULI, "PlaceCrony", card=MANDARIN, position="finance")
    state = do(state, BALEKA, "PickUpCard", card=inf(1))
    state = do(state, BALEKA, "EndTurn")
    assert state.turn == THULI
    assert refused(state, THULI, "PickUpCard", card=inf(2)) == "already-gained"
    state = do(state, THULI, "BuyTactics", count=1, cards=[inf(5, 1)])
    state, _ = draw(state, [tactic(FLOOR_CROSSING)])
    state = everyone_passes(do(state, THULI, "PlayTactic", card=tactic(SHEBEEN), crony=MANDARIN))
    assert state.shebeens == ((MANDARIN, tactic(SHEBEEN)),)
    state = do(state, THULI, "EndTurn")
    assert state.turn == PRAVIN


def test_a_turn_cannot_end_before_taking_a_card():
    state = build(table=[inf(1)])
    assert refused(state, BALEKA, "EndTurn") == "must-take-a-card"
    state = build(table=[LOYALIST], hands={BALEKA: [inf(2)]})
    assert refused(state, BALEKA, "EndTurn") == "must-take-a-card"


def test_a_player_who_can_neither_pick_up_nor_afford_a_bid_takes_nothing():
    state = build(table=[MANDARIN, crony("Minister of Finance")], hands={BALEKA: [inf(4)]})
    assert {"type": "EndTurn", "seat": BALEKA} in ENGINE.legal_commands(state, BALEKA)
    state, events = act(state, BALEKA, "EndTurn")
    assert events[0].data["took_nothing"] is True
    assert state.turn == THULI and BALEKA not in state.gained


def test_no_picking_up_or_ending_the_turn_during_an_auction():
    state = build(table=[MANDARIN, inf(1)], hands={BALEKA: [inf(5)], THULI: [cor(7)]})
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    assert refused(state, BALEKA, "PickUpCard", card=inf(1)) == "auction-open"
    assert refused(state, BALEKA, "EndTurn") == "auction-open"


def test_a_player_who_already_gained_still_gets_a_turn_for_tactics():
    state = build(table=[inf(1)], turn=JACOB, gained=[JACOB])
    assert ENGINE.legal_commands(state, JACOB) == [{"type": "EndTurn", "seat": JACOB}]


def test_the_last_card_on_the_table_is_discarded_and_the_speaker_token_passes():
    state = build(speaker=THULI, turn=BALEKA, gained=[0, 1, 2, 3], table=[inf(1)])
    state, events = act(state, BALEKA, "EndTurn")
    assert types(events)[:3] == ["TurnEnded", "RoundEnded", "RoundStarted"]
    assert inf(1) in state.main_discard and state.table == ()
    assert state.speaker == PRAVIN and state.round == 2
    assert ENGINE.chance(state).draw == 5


def test_a_round_begins_with_the_speakers_turn_once_everyone_has_passed_on_motions():
    state = laying(4, speaker=PRAVIN)
    assert refused(state, PRAVIN, "PickUpCard", card=inf(1)) == "chance-pending"
    state, events = draw(state, [inf(1), inf(2), inf(3), inf(4), inf(5)])
    assert types(events) == ["CardsLaidOut"]  # no one holds a Motion, yet everyone is asked
    assert refused(state, PRAVIN, "PickUpCard", card=inf(1)) == "reaction-pending"
    for seat in (PRAVIN, JACOB, BALEKA):
        state = do(state, seat, "PassReaction")
    state, events = act(state, THULI, "PassReaction")
    assert types(events) == ["ReactionPassed", "ReactionsClosed", "TurnStarted"]
    assert state.turn == PRAVIN
