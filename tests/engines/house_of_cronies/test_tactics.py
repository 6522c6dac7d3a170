"""Buying tactics and the seven tactics, with their reaction windows."""

from engines.house_of_cronies import ENGINE
from engines.house_of_cronies.catalog import (
    DIPLOMATIC_INCIDENT,
    FLOOR_CROSSING,
    HAWKS,
    NO_CONFIDENCE,
    POINT_OF_ORDER,
    RESHUFFLE,
    SHEBEEN,
)
from engines.house_of_cronies.state import MOTION, Window

from .builders import (
    BALEKA,
    JACOB,
    PRAVIN,
    THULI,
    act,
    build,
    cabinet,
    cor,
    crony,
    do,
    draw,
    everyone_passes,
    inf,
    passes,
    refused,
    tactic,
    types,
)

LOYALIST = crony("Party Loyalist")
VETERAN = crony("Struggle Veteran")
MANDARIN = crony("Treasury Mandarin")  # Finance, minimum bid 5
FINANCE_MINISTER = crony("Minister of Finance")  # Finance
PROSECUTOR = crony("Prosecutions Boss")  # Justice
ALLY = crony("The Gulf Investor")
OTHER_ALLY = crony("The Old Colonial Power")


# --- buying -------------------------------------------------------------


def test_tactics_cost_five_each_with_no_change_given():
    state = build(hands={BALEKA: [cor(7), inf(3), inf(1), inf(4)]})
    assert refused(state, BALEKA, "BuyTactics", count=2, cards=[cor(7)]) == "too-little-paid"
    assert refused(state, BALEKA, "BuyTactics", count=1, cards=[cor(7), inf(1)]) == "no-change-given"
    state, events = act(state, BALEKA, "BuyTactics", count=2, cards=[cor(7), inf(3)])
    assert events[0].data["value"] == 10
    assert sorted(state.players[BALEKA].hand) == sorted([inf(1), inf(4)])
    assert ENGINE.chance(state).draw == 2


def test_overpaying_with_one_card_loses_the_difference():
    state = build(hands={BALEKA: [cor(7)]})
    state = do(state, BALEKA, "BuyTactics", count=1, cards=[cor(7)])
    assert state.players[BALEKA].hand == () and cor(7) in state.main_discard


def test_tactics_are_bought_only_on_ones_own_turn():
    state = build(hands={THULI: [inf(5)]})
    assert refused(state, THULI, "BuyTactics", count=1, cards=[inf(5)]) == "not-your-turn"


def test_tactics_are_not_bought_during_an_auction():
    state = build(table=[MANDARIN], hands={BALEKA: [inf(5), inf(5, 1)]})
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    assert refused(state, BALEKA, "BuyTactics", count=1, cards=[inf(5, 1)]) == "auction-open"


def test_tactics_are_not_played_during_an_auction():
    state = build(
        table=[MANDARIN],
        hands={BALEKA: [inf(5)]},
        cabinets={BALEKA: {"president": LOYALIST}},
        tactics={BALEKA: [tactic(SHEBEEN)]},
    )
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    assert refused(state, BALEKA, "PlayTactic", card=tactic(SHEBEEN), crony=LOYALIST) == "auction-open"


def test_tactics_can_be_played_before_and_after_the_turns_card():
    state = build(
        table=[inf(1)],
        cabinets={BALEKA: {"president": LOYALIST, "vice-president": VETERAN}},
        tactics={BALEKA: [tactic(SHEBEEN), tactic(SHEBEEN, 1)]},
    )
    state = everyone_passes(do(state, BALEKA, "PlayTactic", card=tactic(SHEBEEN), crony=LOYALIST))
    state = do(state, BALEKA, "PickUpCard", card=inf(1))
    state = everyone_passes(do(state, BALEKA, "PlayTactic", card=tactic(SHEBEEN, 1), crony=VETERAN))
    assert len(state.shebeens) == 2


def test_turn_tactics_are_played_only_on_ones_own_turn():
    state = build(cabinets={THULI: {"president": LOYALIST}}, tactics={THULI: [tactic(SHEBEEN)]})
    assert refused(state, THULI, "PlayTactic", card=tactic(SHEBEEN), crony=LOYALIST) == "not-your-turn"
    assert refused(state, BALEKA, "PlayTactic", card=tactic(SHEBEEN), crony=LOYALIST) == "not-your-tactic"


# --- cabinet reshuffle ----------------------------------------------------------


def test_cabinet_reshuffle_moves_and_removes_ones_own_cronies():
    state = build(
        cabinets={BALEKA: {"president": LOYALIST, "vice-president": VETERAN, "finance": MANDARIN}},
        tactics={BALEKA: [tactic(RESHUFFLE)]},
    )
    state = do(
        state,
        BALEKA,
        "PlayTactic",
        card=tactic(RESHUFFLE),
        cabinet={"president": VETERAN, "finance": MANDARIN},
    )
    state = everyone_passes(state)
    assert cabinet(state, BALEKA) == {"president": VETERAN, "finance": MANDARIN}
    assert LOYALIST in state.main_discard
    assert tactic(RESHUFFLE) in state.tactic_discard


def test_cabinet_reshuffle_respects_specialist_positions():
    state = build(
        cabinets={BALEKA: {"president": LOYALIST, "finance": MANDARIN}}, tactics={BALEKA: [tactic(RESHUFFLE)]}
    )
    arrangement = {"finance": LOYALIST, "president": MANDARIN}
    assert (
        refused(state, BALEKA, "PlayTactic", card=tactic(RESHUFFLE), cabinet=arrangement)
        == "not-a-specialist"
    )


def test_cabinet_reshuffle_works_only_on_ones_own_cabinet():
    state = build(
        cabinets={BALEKA: {"president": LOYALIST}, THULI: {"president": VETERAN}},
        tactics={BALEKA: [tactic(RESHUFFLE)]},
    )
    arrangement = {"president": LOYALIST, "vice-president": VETERAN}
    assert (
        refused(state, BALEKA, "PlayTactic", card=tactic(RESHUFFLE), cabinet=arrangement) == "not-in-cabinet"
    )


def test_cabinet_reshuffle_cannot_remove_or_move_the_foreign_ally():
    state = build(
        cabinets={BALEKA: {"president": LOYALIST, "foreign-ally": ALLY}},
        tactics={BALEKA: [tactic(RESHUFFLE)]},
    )
    bad = {"president": LOYALIST, "foreign-ally": None}
    assert refused(state, BALEKA, "PlayTactic", card=tactic(RESHUFFLE), cabinet=bad) == "ally-not-reshuffled"
    state = everyone_passes(do(state, BALEKA, "PlayTactic", card=tactic(RESHUFFLE), cabinet={}))
    assert cabinet(state, BALEKA) == {"foreign-ally": ALLY}


def test_cabinet_reshuffle_names_each_position_once():
    # "Social services" and "Service delivery" are one position: naming both is ambiguous.
    water, raider = crony("Water Minister"), crony("Pension Fund Raider")  # Raider: Finance or SD
    state = build(
        cabinets={BALEKA: {"finance": raider, "service-delivery": water}},
        tactics={BALEKA: [tactic(RESHUFFLE)]},
    )
    twice = {"service-delivery": water, "social-services": raider}
    assert refused(state, BALEKA, "PlayTactic", card=tactic(RESHUFFLE), cabinet=twice) == "invalid-cabinet"
    state = do(state, BALEKA, "PlayTactic", card=tactic(RESHUFFLE), cabinet={"social-services": raider})
    state = everyone_passes(state)
    assert cabinet(state, BALEKA) == {"service-delivery": raider} and water in state.main_discard


# --- floor crossing -------------------------------------------------------------


def test_floor_crossing_trades_position_for_position():
    state = build(
        cabinets={
            BALEKA: {"finance": MANDARIN, "president": LOYALIST},
            PRAVIN: {"finance": FINANCE_MINISTER},
        },
        tactics={BALEKA: [tactic(FLOOR_CROSSING)]},
    )
    assert (
        refused(state, BALEKA, "PlayTactic", card=tactic(FLOOR_CROSSING), target=PRAVIN, position="president")
        == "position-empty"
    )
    state = do(state, BALEKA, "PlayTactic", card=tactic(FLOOR_CROSSING), target=PRAVIN, position="finance")
    state = everyone_passes(state)
    assert cabinet(state, BALEKA)["finance"] == FINANCE_MINISTER
    assert cabinet(state, PRAVIN) == {"finance": MANDARIN}


def test_a_crony_brings_free_tactics_only_when_it_first_comes_into_play():
    tenderpreneur = crony("Tenderpreneur")  # two free tactics
    state = build(
        cabinets={BALEKA: {"finance": MANDARIN}, PRAVIN: {"finance": tenderpreneur}},
        tactics={BALEKA: [tactic(FLOOR_CROSSING)]},
    )
    state = do(state, BALEKA, "PlayTactic", card=tactic(FLOOR_CROSSING), target=PRAVIN, position="finance")
    state = everyone_passes(state)
    assert cabinet(state, BALEKA) == {"finance": tenderpreneur}
    assert ENGINE.chance(state) is None and state.players[BALEKA].tactics == ()


def test_floor_crossing_never_trades_foreign_allies():
    state = build(
        cabinets={BALEKA: {"foreign-ally": ALLY}, PRAVIN: {"foreign-ally": OTHER_ALLY}},
        tactics={BALEKA: [tactic(FLOOR_CROSSING)]},
    )
    code = refused(
        state, BALEKA, "PlayTactic", card=tactic(FLOOR_CROSSING), target=PRAVIN, position="foreign-ally"
    )
    assert code == "foreign-allies-not-traded"


def test_floor_crossing_is_with_another_player():
    state = build(cabinets={BALEKA: {"finance": MANDARIN}}, tactics={BALEKA: [tactic(FLOOR_CROSSING)]})
    code = refused(
        state, BALEKA, "PlayTactic", card=tactic(FLOOR_CROSSING), target=BALEKA, position="finance"
    )
    assert code == "target-self"


# --- diplomatic incident ----------------------------------------------------------


def test_diplomatic_incident_removes_anyones_foreign_ally():
    for target in (BALEKA, JACOB):
        state = build(
            cabinets={target: {"foreign-ally": ALLY}}, tactics={BALEKA: [tactic(DIPLOMATIC_INCIDENT)]}
        )
        state = do(state, BALEKA, "PlayTactic", card=tactic(DIPLOMATIC_INCIDENT), target=target)
        state = everyone_passes(state)
        assert cabinet(state, target) == {} and ALLY in state.main_discard


def test_diplomatic_incident_needs_a_foreign_ally():
    state = build(tactics={BALEKA: [tactic(DIPLOMATIC_INCIDENT)]})
    assert (
        refused(state, BALEKA, "PlayTactic", card=tactic(DIPLOMATIC_INCIDENT), target=THULI)
        == "no-foreign-ally"
    )


# --- saxonwold shebeen ------------------------------------------------------------


def test_saxonwold_shebeen_protects_a_crony_from_removal_and_trade():
    state = build(
        cabinets={
            BALEKA: {"finance": MANDARIN, "president": LOYALIST},
            PRAVIN: {"finance": FINANCE_MINISTER},
        },
        tactics={BALEKA: [tactic(SHEBEEN), tactic(RESHUFFLE), tactic(FLOOR_CROSSING)]},
    )
    state = everyone_passes(do(state, BALEKA, "PlayTactic", card=tactic(SHEBEEN), crony=MANDARIN))
    assert tactic(SHEBEEN) not in state.tactic_discard  # it stays under the crony
    assert refused(state, BALEKA, "PlayTactic", card=tactic(RESHUFFLE), cabinet={"president": LOYALIST}) == (
        "crony-protected"
    )
    code = refused(
        state, BALEKA, "PlayTactic", card=tactic(FLOOR_CROSSING), target=PRAVIN, position="finance"
    )
    assert code == "crony-protected"
    state = do(
        state,
        BALEKA,
        "PlayTactic",
        card=tactic(RESHUFFLE),
        cabinet={"vice-president": LOYALIST, "finance": MANDARIN},
    )
    state = everyone_passes(state)
    assert cabinet(state, BALEKA) == {"vice-president": LOYALIST, "finance": MANDARIN}


def test_saxonwold_shebeen_can_protect_an_opponents_crony():
    state = build(cabinets={THULI: {"president": LOYALIST}}, tactics={BALEKA: [tactic(SHEBEEN)]})
    state = everyone_passes(do(state, BALEKA, "PlayTactic", card=tactic(SHEBEEN), crony=LOYALIST))
    assert state.shebeens == ((LOYALIST, tactic(SHEBEEN)),)


def test_saxonwold_shebeen_cannot_be_used_on_a_foreign_ally():
    state = build(cabinets={BALEKA: {"foreign-ally": ALLY}}, tactics={BALEKA: [tactic(SHEBEEN)]})
    assert refused(state, BALEKA, "PlayTactic", card=tactic(SHEBEEN), crony=ALLY) == "not-a-crony"


def test_saxonwold_shebeen_cannot_be_moved_to_another_crony():
    state = build(
        cabinets={BALEKA: {"president": LOYALIST}},
        tactics={BALEKA: [tactic(SHEBEEN, 1)]},
        shebeens=[(LOYALIST, tactic(SHEBEEN))],
    )
    assert (
        refused(state, BALEKA, "PlayTactic", card=tactic(SHEBEEN, 1), crony=LOYALIST) == "already-protected"
    )


# --- motion of no confidence --------------------------------------------------------


def round_start(**kwargs):
    """The round-start window of a round, before the Speaker's turn."""
    return build(**kwargs).with_(stage=MOTION, turn=None, turns_done=0, window=Window(MOTION))


def test_motion_of_no_confidence_only_at_round_start_before_the_speakers_turn():
    state = build(tactics={BALEKA: [tactic(NO_CONFIDENCE)]})
    code = refused(state, BALEKA, "PlayTactic", card=tactic(NO_CONFIDENCE), target=THULI)
    assert code == "motion-only-at-round-start"


def test_motion_of_no_confidence_bars_bids_and_purchases_until_the_next_round():
    state = round_start(
        table=[MANDARIN, inf(1)],
        tactics={JACOB: [tactic(NO_CONFIDENCE)], BALEKA: [tactic(SHEBEEN)]},
        hands={BALEKA: [inf(5), inf(5, 1)]},
        cabinets={BALEKA: {"president": LOYALIST}},
    )
    assert ENGINE.legal_commands(state, BALEKA) == [{"type": "PassReaction", "seat": BALEKA}]
    state = do(state, JACOB, "PlayTactic", card=tactic(NO_CONFIDENCE), target=BALEKA)
    state = everyone_passes(state)  # no Point of order
    assert state.censured == (BALEKA,) and state.turn is None
    state = everyone_passes(state)  # no more motions
    assert state.turn == BALEKA
    assert refused(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)]) == "no-confidence"
    assert refused(state, BALEKA, "BuyTactics", count=1, cards=[inf(5)]) == "no-confidence"
    state = do(state, BALEKA, "PlayTactic", card=tactic(SHEBEEN), crony=LOYALIST)  # tactics may be played
    state = everyone_passes(state)
    state = do(state, BALEKA, "PickUpCard", card=inf(1))  # and cards picked up
    for seat in (BALEKA, THULI, PRAVIN, JACOB):
        state = do(state, seat, "EndTurn") if state.turn == seat else state
    assert state.round == 2 and state.censured == ()


def test_a_player_under_a_motion_is_not_asked_to_bid():
    state = build(table=[MANDARIN], hands={BALEKA: [inf(5)], THULI: [cor(7)]}, censured=[THULI])
    state = do(state, BALEKA, "PlaceBid", card=MANDARIN, cards=[inf(5)])
    assert state.auction.asking == PRAVIN


def test_motion_of_no_confidence_designates_another_player():
    state = round_start(tactics={JACOB: [tactic(NO_CONFIDENCE)]})
    assert refused(state, JACOB, "PlayTactic", card=tactic(NO_CONFIDENCE), target=JACOB) == "target-self"


def test_motion_of_no_confidence_can_be_played_in_the_final_round():
    state = build(
        speaker=PRAVIN,
        turn=THULI,
        gained=[0, 1, 2, 3],
        main_deck=[inf(1)],
        tactics={BALEKA: [tactic(NO_CONFIDENCE)]},
    )
    state = do(state, THULI, "EndTurn")
    assert state.final and state.window.kind == MOTION
    state = everyone_passes(do(state, BALEKA, "PlayTactic", card=tactic(NO_CONFIDENCE), target=JACOB))
    assert state.censured == (JACOB,)


def test_several_motions_may_be_played_at_one_round_start():
    state = round_start(tactics={JACOB: [tactic(NO_CONFIDENCE)], THULI: [tactic(NO_CONFIDENCE, 1)]})
    state = everyone_passes(do(state, JACOB, "PlayTactic", card=tactic(NO_CONFIDENCE), target=BALEKA))
    assert state.turn is None  # Thuli may still move
    state = everyone_passes(do(state, THULI, "PlayTactic", card=tactic(NO_CONFIDENCE, 1), target=PRAVIN))
    assert state.censured == (BALEKA, PRAVIN) and state.turn is None
    state = everyone_passes(state)
    assert state.turn == BALEKA


# --- hawks investigation ------------------------------------------------------------


def auction_won_by_jacob(pay, **kwargs):
    """Jacob, last to play and the only one yet to gain a card, wins the Treasury Mandarin."""
    state = build(table=[MANDARIN], hands={JACOB: pay}, gained=[BALEKA, THULI, PRAVIN], turn=JACOB, **kwargs)
    state = do(state, JACOB, "PlaceBid", card=MANDARIN, cards=pay)
    return do(state, JACOB, "PlaceCrony", card=MANDARIN, position="finance")


def test_hawks_investigation_follows_a_bid_won_with_corruption():
    state = auction_won_by_jacob(
        [cor(5)], tactics={THULI: [tactic(HAWKS)]}, cabinets={JACOB: {"president": VETERAN}}
    )
    assert state.window.kind == "hawks"
    state = do(state, THULI, "PlayTactic", card=tactic(HAWKS), crony=VETERAN)
    state = passes(state, BALEKA, PRAVIN)
    state, events = act(state, JACOB, "PassReaction")
    assert "CronyInvestigated" in types(events)
    assert cabinet(state, JACOB) == {"finance": MANDARIN} and VETERAN in state.main_discard


def test_hawks_investigation_cannot_take_the_crony_just_won():
    state = auction_won_by_jacob(
        [cor(5)], tactics={THULI: [tactic(HAWKS)]}, cabinets={JACOB: {"president": VETERAN}}
    )
    assert refused(state, THULI, "PlayTactic", card=tactic(HAWKS), crony=MANDARIN) == "crony-just-won"
    assert {c.get("crony") for c in ENGINE.legal_commands(state, THULI)} == {VETERAN, None}


def test_no_hawks_investigation_after_a_bid_won_with_influence_only():
    state = auction_won_by_jacob(
        [inf(5)], tactics={THULI: [tactic(HAWKS)]}, cabinets={JACOB: {"president": VETERAN}}
    )
    assert state.window is None and state.turn == JACOB
    assert (
        refused(state, THULI, "PlayTactic", card=tactic(HAWKS), crony=VETERAN)
        == "hawks-only-after-corruption"
    )
    assert refused(state, JACOB, "PassReaction") == "window-closed"


def test_hawks_investigation_is_played_only_right_after_corruption():
    state = build(cabinets={THULI: {"president": VETERAN}}, tactics={BALEKA: [tactic(HAWKS)]})
    assert (
        refused(state, BALEKA, "PlayTactic", card=tactic(HAWKS), crony=VETERAN)
        == "hawks-only-after-corruption"
    )


def test_hawks_investigation_follows_tactics_bought_with_corruption():
    state = build(
        hands={PRAVIN: [cor(5)]},
        turn=PRAVIN,
        cabinets={PRAVIN: {"president": VETERAN, "foreign-ally": ALLY}},
        tactics={THULI: [tactic(HAWKS)]},
    )
    state = do(state, PRAVIN, "BuyTactics", count=1, cards=[cor(5)])
    state, _ = draw(state, [tactic(RESHUFFLE)])
    assert state.window.kind == "hawks"
    assert refused(state, THULI, "PlayTactic", card=tactic(HAWKS), crony=ALLY) == "not-in-cabinet"
    state = everyone_passes(do(state, THULI, "PlayTactic", card=tactic(HAWKS), crony=VETERAN))
    assert cabinet(state, PRAVIN) == {"foreign-ally": ALLY}


def test_hawks_investigation_can_be_played_against_oneself_even_with_the_tactic_just_bought():
    tenderpreneur = crony("Tenderpreneur")
    state = build(hands={PRAVIN: [cor(5)]}, turn=PRAVIN, cabinets={PRAVIN: {"president": tenderpreneur}})
    state = do(state, PRAVIN, "BuyTactics", count=1, cards=[cor(5)])
    state, _ = draw(state, [tactic(HAWKS)])
    assert state.window.kind == "hawks"
    state = everyone_passes(do(state, PRAVIN, "PlayTactic", card=tactic(HAWKS), crony=tenderpreneur))
    assert cabinet(state, PRAVIN) == {}


def test_hawks_after_a_corrupt_purchase_cannot_take_the_crony_won_this_round():
    state = auction_won_by_jacob(
        [inf(5)], tactics={THULI: [tactic(HAWKS)]}, cabinets={JACOB: {"president": VETERAN}}
    )
    state = state.with_player(JACOB, hand=(cor(5),))
    state = do(state, JACOB, "BuyTactics", count=1, cards=[cor(5)])
    state, _ = draw(state, [tactic(RESHUFFLE)])
    assert refused(state, THULI, "PlayTactic", card=tactic(HAWKS), crony=MANDARIN) == "crony-just-won"
    state = everyone_passes(do(state, THULI, "PlayTactic", card=tactic(HAWKS), crony=VETERAN))
    assert cabinet(state, JACOB) == {"finance": MANDARIN}


def test_a_bid_won_with_corruption_opens_the_hawks_window_even_when_the_crony_is_discarded():
    state = build(
        table=[MANDARIN],
        hands={JACOB: [cor(5)]},
        gained=[BALEKA, THULI, PRAVIN],
        turn=JACOB,
        cabinets={JACOB: {"finance": FINANCE_MINISTER, "president": VETERAN, "vice-president": LOYALIST}},
        tactics={THULI: [tactic(HAWKS)]},
    )
    state, events = act(state, JACOB, "PlaceBid", card=MANDARIN, cards=[cor(5)])
    assert types(events)[-1] == "CronyDiscarded" and state.window.kind == "hawks"


def test_one_hawks_investigation_per_corrupt_payment():
    state = build(
        hands={PRAVIN: [cor(5)]},
        turn=PRAVIN,
        cabinets={PRAVIN: {"president": VETERAN, "vice-president": LOYALIST}},
        tactics={THULI: [tactic(HAWKS)], JACOB: [tactic(HAWKS, 1)]},
    )
    state = do(state, PRAVIN, "BuyTactics", count=1, cards=[cor(5)])
    state, _ = draw(state, [tactic(RESHUFFLE)])
    state = do(state, THULI, "PlayTactic", card=tactic(HAWKS), crony=VETERAN)
    assert state.window is None
    state = everyone_passes(state)  # no Point of order: the investigation takes effect
    assert (
        refused(state, JACOB, "PlayTactic", card=tactic(HAWKS, 1), crony=LOYALIST)
        == "hawks-only-after-corruption"
    )


def test_hawks_investigation_cannot_take_a_protected_crony():
    state = auction_won_by_jacob(
        [cor(5)],
        tactics={THULI: [tactic(HAWKS)]},
        cabinets={JACOB: {"president": VETERAN}},
        shebeens=[(VETERAN, tactic(SHEBEEN))],
    )
    assert state.window is None  # nothing the Hawks could take: no window
    state = auction_won_by_jacob(
        [cor(5)],
        tactics={THULI: [tactic(HAWKS)]},
        cabinets={JACOB: {"president": VETERAN, "vice-president": LOYALIST}},
        shebeens=[(VETERAN, tactic(SHEBEEN))],
    )
    assert refused(state, THULI, "PlayTactic", card=tactic(HAWKS), crony=VETERAN) == "crony-protected"


# --- point of order and windows -------------------------------------------------------------


def diplomatic_incident_by_baleka(others=None):
    """Baleka has just played a Diplomatic incident against Jacob's ally; ``others`` hold these tactics."""
    state = build(
        cabinets={JACOB: {"foreign-ally": ALLY}},
        tactics={BALEKA: [tactic(DIPLOMATIC_INCIDENT)], **(others or {})},
    )
    return do(state, BALEKA, "PlayTactic", card=tactic(DIPLOMATIC_INCIDENT), target=JACOB)


def test_point_of_order_cancels_a_tactic_and_both_are_discarded():
    state = diplomatic_incident_by_baleka({JACOB: [tactic(POINT_OF_ORDER)]})
    assert state.chain and cabinet(state, JACOB) == {"foreign-ally": ALLY}
    state = do(state, JACOB, "PlayTactic", card=tactic(POINT_OF_ORDER))
    state = passes(state, BALEKA, THULI)  # the Point of order too may be answered
    state, events = act(state, PRAVIN, "PassReaction")
    assert types(events) == ["ReactionPassed", "TacticCancelled", "TacticsDiscarded"]
    assert cabinet(state, JACOB) == {"foreign-ally": ALLY}
    assert sorted(state.tactic_discard) == sorted([tactic(DIPLOMATIC_INCIDENT), tactic(POINT_OF_ORDER)])
    assert state.stats[BALEKA].tactics_cancelled == 1


def test_point_of_order_can_answer_a_point_of_order():
    state = build(
        cabinets={JACOB: {"foreign-ally": ALLY}},
        tactics={
            BALEKA: [tactic(DIPLOMATIC_INCIDENT), tactic(POINT_OF_ORDER)],
            JACOB: [tactic(POINT_OF_ORDER, 1)],
        },
    )
    state = do(state, BALEKA, "PlayTactic", card=tactic(DIPLOMATIC_INCIDENT), target=JACOB)
    state = do(state, JACOB, "PlayTactic", card=tactic(POINT_OF_ORDER, 1))
    state = do(state, BALEKA, "PlayTactic", card=tactic(POINT_OF_ORDER))
    state = passes(state, THULI, PRAVIN)
    state, events = act(state, JACOB, "PassReaction")
    # Baleka's Point of order cancels Jacob's, so the incident carries through.
    assert types(events) == ["ReactionPassed", "TacticCancelled", "AllyExpelled", "TacticsDiscarded"]
    assert cabinet(state, JACOB) == {} and len(state.tactic_discard) == 3


def test_point_of_order_cannot_answer_ones_own_tactic():
    state = build(
        cabinets={JACOB: {"foreign-ally": ALLY}},
        tactics={
            BALEKA: [tactic(DIPLOMATIC_INCIDENT), tactic(POINT_OF_ORDER)],
            THULI: [tactic(POINT_OF_ORDER, 1)],
        },
    )
    state = do(state, BALEKA, "PlayTactic", card=tactic(DIPLOMATIC_INCIDENT), target=JACOB)
    assert refused(state, BALEKA, "PlayTactic", card=tactic(POINT_OF_ORDER)) == "cannot-answer-own-tactic"


def test_point_of_order_only_after_a_tactic():
    state = build(tactics={BALEKA: [tactic(POINT_OF_ORDER)]})
    assert (
        refused(state, BALEKA, "PlayTactic", card=tactic(POINT_OF_ORDER))
        == "point-of-order-only-after-a-tactic"
    )


def test_only_a_point_of_order_answers_a_tactic():
    state = diplomatic_incident_by_baleka({JACOB: [tactic(POINT_OF_ORDER), tactic(SHEBEEN)]})
    assert refused(state, JACOB, "PlayTactic", card=tactic(SHEBEEN), crony=ALLY) == "reaction-pending"
    assert refused(state, BALEKA, "EndTurn") == "reaction-pending"


def test_a_window_waits_for_every_player_who_may_answer_whatever_their_hand():
    # The round-start window waits for every player; only Jacob holds a Motion.
    state = round_start(tactics={JACOB: [tactic(NO_CONFIDENCE)]})
    for seat in (BALEKA, THULI, PRAVIN):
        assert ENGINE.legal_commands(state, seat) == [{"type": "PassReaction", "seat": seat}]
    assert ENGINE.legal_commands(state, JACOB)[-1] == {"type": "PassReaction", "seat": JACOB}
    assert {c.get("target") for c in ENGINE.legal_commands(state, JACOB)} == {BALEKA, THULI, PRAVIN, None}
    assert ENGINE.view(state, None)["window"]["waiting_for"] == [BALEKA, THULI, PRAVIN, JACOB]
    state = passes(state, JACOB, BALEKA, THULI)
    assert refused(state, JACOB, "PassReaction") == "already-passed"  # a pass is final
    assert state.turn is None and ENGINE.view(state, None)["window"]["waiting_for"] == [PRAVIN]
    state, events = act(state, PRAVIN, "PassReaction")
    assert types(events) == ["ReactionPassed", "ReactionsClosed", "TurnStarted"] and state.turn == BALEKA

    # A tactic waits for every player but the one who played it, though no one holds a Point of order.
    state = diplomatic_incident_by_baleka()
    assert ENGINE.view(state, None)["window"]["waiting_for"] == [THULI, PRAVIN, JACOB]
    assert ENGINE.legal_commands(state, BALEKA) == []
    assert refused(state, BALEKA, "PassReaction") == "cannot-answer-own-tactic"

    # A Hawks window waits for every player, the investigated one included (no one holds a Hawks).
    state = auction_won_by_jacob([cor(5)], cabinets={JACOB: {"president": VETERAN}})
    assert ENGINE.view(state, None)["window"]["waiting_for"] == [BALEKA, THULI, PRAVIN, JACOB]
    state = passes(state, BALEKA, THULI, PRAVIN)
    state, events = act(state, JACOB, "PassReaction")
    assert types(events) == ["ReactionPassed", "ReactionsClosed"] and state.window is None


def test_a_seat_without_a_point_of_order_can_only_pass():
    state = diplomatic_incident_by_baleka({THULI: [tactic(POINT_OF_ORDER)], PRAVIN: [tactic(SHEBEEN)]})
    assert ENGINE.legal_commands(state, THULI) == [
        {"type": "PlayTactic", "seat": THULI, "card": tactic(POINT_OF_ORDER)},
        {"type": "PassReaction", "seat": THULI},
    ]
    for seat in (PRAVIN, JACOB):
        assert ENGINE.legal_commands(state, seat) == [{"type": "PassReaction", "seat": seat}]
    assert refused(state, PRAVIN, "PlayTactic", card=tactic(SHEBEEN), crony=ALLY) == "reaction-pending"
    assert refused(state, JACOB, "PlayTactic", card=tactic(POINT_OF_ORDER)) == "not-your-tactic"
    # Each seat's view tells it whether its own hand holds an answer, and no more.
    assert ENGINE.view(state, THULI)["window"]["you_may_answer"] is True
    assert ENGINE.view(state, JACOB)["window"]["you_may_answer"] is False
    assert ENGINE.view(state, None)["window"]["you_may_answer"] is False
    state = passes(state, PRAVIN, JACOB)
    assert cabinet(state, JACOB) == {"foreign-ally": ALLY}  # Thuli may still answer
    state, events = act(state, THULI, "PassReaction")
    assert types(events) == ["ReactionPassed", "AllyExpelled", "TacticsDiscarded"]
    assert refused(state, PRAVIN, "PassReaction") == "window-closed"


def _without_own_tactics(view, seat):
    """A seat's view less what its own hand shows it (its tactics, whether it may answer)."""
    if seat is None:
        return view
    players = [dict(p) for p in view["players"]]
    players[seat].pop("tactics")
    window = view["window"] and {k: v for k, v in view["window"].items() if k != "you_may_answer"}
    return {**view, "players": players, "window": window}


def test_window_events_do_not_reveal_who_holds_an_answer():
    """Two games that differ only in who holds the Point of order (Thuli or Pravin) go
    through a round-start window, a Point of order window and a Hawks window, everyone
    passing: every event and every seat's view (less its own hand) are the same."""

    def record(point_of_order_holder):
        other = PRAVIN if point_of_order_holder == THULI else THULI
        state = round_start(
            hands={BALEKA: [cor(5)]},
            table=[inf(1)],
            cabinets={BALEKA: {"president": LOYALIST}, JACOB: {"foreign-ally": ALLY}},
            tactics={
                BALEKA: [tactic(DIPLOMATIC_INCIDENT)],
                point_of_order_holder: [tactic(POINT_OF_ORDER)],
                other: [tactic(SHEBEEN)],
            },
        )
        steps = [("PassReaction", s, {}) for s in (BALEKA, THULI, PRAVIN, JACOB)]
        steps.append(("PlayTactic", BALEKA, {"card": tactic(DIPLOMATIC_INCIDENT), "target": JACOB}))
        steps += [("PassReaction", s, {}) for s in (THULI, PRAVIN, JACOB)]
        steps.append(("BuyTactics", BALEKA, {"count": 1, "cards": [cor(5)]}))
        steps.append(("DrawCards", None, {"cards": [tactic(RESHUFFLE)], "deck": "tactics", "to": BALEKA}))
        steps += [("PassReaction", s, {}) for s in (JACOB, PRAVIN, THULI, BALEKA)]
        seen = []
        for kind, seat, fields in steps:
            state, events = act(state, seat, kind, **fields)
            for viewer in (None, BALEKA, THULI, PRAVIN, JACOB):
                redacted = [ENGINE.redact(e, viewer).to_dict() for e in events]
                seen.append((viewer, redacted, _without_own_tactics(ENGINE.view(state, viewer), viewer)))
        assert state.window is None and state.chain == () and cabinet(state, JACOB) == {}
        return seen

    assert record(THULI) == record(PRAVIN)


def test_a_point_of_order_window_shows_what_the_tactic_would_do():
    state = build(
        cabinets={
            BALEKA: {"finance": MANDARIN, "president": LOYALIST},
            PRAVIN: {"finance": FINANCE_MINISTER},
        },
        tactics={BALEKA: [tactic(FLOOR_CROSSING), tactic(RESHUFFLE)], THULI: [tactic(POINT_OF_ORDER)]},
    )
    state = do(state, BALEKA, "PlayTactic", card=tactic(FLOOR_CROSSING), target=PRAVIN, position="finance")
    (played,) = ENGINE.view(state, THULI)["chain"]
    assert (played["kind"], played["target"], played["position"]) == (FLOOR_CROSSING, PRAVIN, "finance")
    state = everyone_passes(state)
    state = do(state, BALEKA, "PlayTactic", card=tactic(RESHUFFLE), cabinet={"vice-president": LOYALIST})
    (played,) = ENGINE.view(state, None)["chain"]
    assert played["cabinet"]["vice-president"] == LOYALIST and played["cabinet"]["finance"] is None


def test_a_tactic_takes_effect_once_every_other_player_has_passed():
    state = diplomatic_incident_by_baleka()  # no one holds a Point of order
    state = passes(state, THULI, JACOB)
    assert state.chain and cabinet(state, JACOB) == {"foreign-ally": ALLY}
    state, events = act(state, PRAVIN, "PassReaction")
    assert types(events) == ["ReactionPassed", "AllyExpelled", "TacticsDiscarded"]
    assert state.chain == () and cabinet(state, JACOB) == {}


def test_a_point_of_order_can_cancel_a_motion_of_no_confidence():
    state = round_start(tactics={JACOB: [tactic(NO_CONFIDENCE)], BALEKA: [tactic(POINT_OF_ORDER)]})
    state = do(state, JACOB, "PlayTactic", card=tactic(NO_CONFIDENCE), target=BALEKA)
    state = everyone_passes(do(state, BALEKA, "PlayTactic", card=tactic(POINT_OF_ORDER)))
    assert state.censured == () and state.turn is None
    state = everyone_passes(state)  # the round-start window, still open
    assert state.turn == BALEKA


# --- the tactic deck -----------------------------------------------------------------


def test_when_the_tactic_deck_runs_out_the_tactic_discards_are_reshuffled():
    state = build(
        hands={BALEKA: [inf(5), inf(5, 1)]},
        tactic_deck=[tactic(RESHUFFLE)],
        tactic_discard=[tactic(HAWKS), tactic(POINT_OF_ORDER)],
    )
    state = do(state, BALEKA, "BuyTactics", count=2, cards=[inf(5), inf(5, 1)])
    assert ENGINE.chance(state).draw == 1  # what is left of the deck first
    state, events = draw(state, [tactic(RESHUFFLE)])
    assert "TacticDeckReshuffled" in types(events)
    request = ENGINE.chance(state)
    assert request.draw == 1 and sorted(request.pool) == sorted([tactic(HAWKS), tactic(POINT_OF_ORDER)])
    state, _ = draw(state, [tactic(HAWKS)])
    assert len(state.players[BALEKA].tactics) == 2 and state.tactic_discard == ()


def test_with_no_tactics_left_anywhere_purchases_are_refused_and_free_tactics_forfeited():
    state = build(hands={BALEKA: [inf(5)]}, tactic_deck=[], table=[crony("Tenderpreneur")])
    assert refused(state, BALEKA, "BuyTactics", count=1, cards=[inf(5)]) == "tactics-exhausted"
    state = do(state, BALEKA, "PlaceBid", card=crony("Tenderpreneur"), cards=[inf(5)])
    for seat in (THULI, PRAVIN, JACOB):
        state = do(state, seat, "PassBid")
    state, events = act(state, BALEKA, "PlaceCrony", card=crony("Tenderpreneur"), position="finance")
    assert types(events)[:2] == ["CronyPlaced", "TacticDrawForfeited"]
    assert ENGINE.chance(state) is None and state.players[BALEKA].tactics == ()
