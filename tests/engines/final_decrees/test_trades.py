"""Deals and trading (FD-44, reading 19): only the transfer both parties confirm is binding."""

from engines.final_decrees import ENGINE
from engines.final_decrees import events as ev

from .builders import act, acts, cmd, refused, table, types


def test_fd44_a_trade_takes_effect_only_when_the_other_player_accepts():
    state = table(hands=[["overtime-1"], ["cover-up-1", "scapegoat-1"], [], [], []], personal=[5, 5, 5, 5, 5])
    state, _ = act(state, cmd("OfferTrade", 0, to=1, give_amount=2, ask_cards=1))
    assert state.personal == (5, 5, 5, 5, 5) and len(state.offers.open) == 1
    state, events = act(state, cmd("AcceptTrade", 1, offer=1, cards=["scapegoat-1"]))
    assert types(events) == [ev.TRADE_ACCEPTED]
    assert state.personal == (3, 7, 5, 5, 5)
    assert state.hands[0] == ("overtime-1", "scapegoat-1") and state.hands[1] == ("cover-up-1",)
    assert state.offers.open == () and state.trades == (1, 1, 0, 0, 0)


def test_fd44_any_player_may_trade_at_any_time_of_play_not_only_on_their_turn():
    state = table(hands=[[], [], ["overtime-1"], [], []], personal=[5, 5, 5, 5, 5])
    state, _ = acts(
        state, cmd("OfferTrade", 2, to=3, give_cards=["overtime-1"]), cmd("AcceptTrade", 3, offer=1)
    )
    assert state.hands[3] == ("overtime-1",) and state.active == 0


def test_a_declined_or_withdrawn_offer_changes_nothing():
    state = table(personal=[5, 5, 5, 5, 5])
    state, _ = act(state, cmd("OfferTrade", 0, to=1, give_amount=1))
    refused(state, cmd("AcceptTrade", 2, offer=1), "not-your-offer")
    refused(state, cmd("WithdrawTrade", 1, offer=1), "not-your-offer")
    after, _ = act(state, cmd("DeclineTrade", 1, offer=1))
    assert after.personal == (5, 5, 5, 5, 5) and after.offers.open == ()
    after, _ = act(state, cmd("WithdrawTrade", 0, offer=1))
    assert after.offers.open == ()
    refused(after, cmd("AcceptTrade", 1, offer=1), "no-such-offer")


def test_reading_19_open_offers_lapse_when_the_turn_ends():
    state = table(personal=[5, 5, 5, 5, 5])
    state, _ = act(state, cmd("OfferTrade", 3, to=4, give_amount=1))
    state, events = act(state, cmd("EndTurn", 0))
    assert events[0].data["lapsed"] == [1] and state.offers.open == ()


def test_an_open_offer_never_blocks_the_game():
    state = table(personal=[5, 5, 5, 5, 5])
    state, _ = act(state, cmd("OfferTrade", 0, to=1, give_amount=1))
    assert ENGINE.view(state, None)["to_act"] == [0]
    state, _ = act(state, cmd("EndTurn", 0))
    assert state.active == 1


def test_an_offer_gives_only_what_one_has_and_acceptance_checks_again():
    state = table(hands=[["overtime-1"], [], [], [], []], personal=[1, 0, 0, 0, 0])
    refused(state, cmd("OfferTrade", 0, to=1, give_amount=2), "offer-cannot-be-met")
    refused(state, cmd("OfferTrade", 0, to=1, give_cards=["cover-up-1"]), "offer-cannot-be-met")
    refused(state, cmd("OfferTrade", 0, to=0, give_amount=1), "offer-to-self")
    refused(state, cmd("OfferTrade", 0, to=1), "empty-offer")
    state, _ = act(state, cmd("OfferTrade", 0, to=1, give_cards=["overtime-1"], ask_amount=1))
    refused(state, cmd("OfferTrade", 0, to=1, give_amount=1), "offer-already-open")
    refused(state, cmd("AcceptTrade", 1, offer=1), "offer-cannot-be-met")  # seat 1 has no blame to give
    state, _ = act(state, cmd("PlayCard", 0, card="overtime-1"))
    refused(state, cmd("AcceptTrade", 1, offer=1), "offer-cannot-be-met")  # the card is gone


def test_card_identities_in_a_trade_are_seen_only_by_its_two_parties():
    state = table(hands=[["overtime-1"], ["cover-up-1"], [], [], []], personal=[5, 5, 5, 5, 5])
    state, offered = act(state, cmd("OfferTrade", 0, to=1, give_cards=["overtime-1"], ask_cards=1))
    state, accepted = act(state, cmd("AcceptTrade", 1, offer=1, cards=["cover-up-1"]))
    for event in (*offered, *accepted):
        for party in (0, 1):
            assert ENGINE.redact(event, party) == event
        for other in (None, 2, 4):
            seen = ENGINE.redact(event, other).data
            assert "overtime-1" not in str(seen) and "cover-up-1" not in str(seen)
            assert seen["give_cards"] == 1
    assert ENGINE.describe(ENGINE.redact(accepted[0], 2), list("ABCDE")) == (
        "B accepts A's trade: gives a card for a card."
    )


def test_offers_are_made_only_during_play():
    from .builders import started

    refused(started(), cmd("OfferTrade", 0, to=1, give_amount=1), "not-playing-now")


def test_trades_go_on_while_the_game_waits_for_the_chain_top_heads_removal():
    state = table(active=2, decrees={"frontier-decree": ("treasury", 3)}, personal=[5, 5, 5, 5, 5])
    state, _ = act(state, cmd("StampDecree", 2, decree="frontier-decree"))
    assert state.awaiting is not None
    state, _ = acts(state, cmd("OfferTrade", 3, to=4, give_amount=2), cmd("AcceptTrade", 4, offer=1))
    assert state.personal[3:] == (3, 7) and state.awaiting is not None
