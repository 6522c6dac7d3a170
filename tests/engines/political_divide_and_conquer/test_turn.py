"""A turn: draw two, keep one, return the other; then one choice of A to D (PDC-9 to PDC-17)."""

from engines.political_divide_and_conquer import ENGINE

from .builders import (
    ANN,
    BO,
    CY,
    card,
    do,
    draw,
    group,
    keep,
    my_turn,
    of,
    place,
    refused,
    spare_cards,
    start,
)

GROUPS = [group("left", 1, n) for n in range(6)]


def test_pdc_9_keep_one_card_and_return_the_other_to_the_top():
    state = start(hands={ANN: GROUPS})
    a, b = spare_cards(state, 2)
    state = draw(state, a, b)
    assert state.step == "keeping" and ENGINE.view(state, ANN)["drawn"] == [a, b]
    assert ENGINE.view(state, BO)["drawn"] is None
    state = keep(state, ANN, a, to="top")
    assert a in state.players[ANN].hand and b not in state.players[ANN].hand
    assert state.deck.top[0].card == b


def test_pdc_9_the_returned_card_is_known_only_to_the_seat_that_returned_it():
    state = start(hands={ANN: GROUPS})
    a, b = spare_cards(state, 2)
    state = draw(state, a, b)
    (event,) = [
        e
        for e in ENGINE.decide(state, {"type": "KeepCard", "seat": ANN, "card": a, "return_to": "top"})
        if e.type == "CardKept"
    ]
    assert ENGINE.redact(event, BO).data == {"seat": ANN, "to": "top"}
    assert ENGINE.redact(event, ANN).data == {"seat": ANN, "card": a, "returned": b, "to": "top"}
    state = keep(state, ANN, a, "top")
    assert ENGINE.view(state, ANN)["deck"]["top"] == [b]
    assert ENGINE.view(state, BO)["deck"]["top"] == [None] and ENGINE.view(state, None)["deck"]["top"] == [
        None
    ]


def test_pdc_9_the_next_player_draws_a_returned_top_card_without_chance():
    state = start(hands={ANN: GROUPS})
    a, b = spare_cards(state, 2)
    state = keep(draw(state, a, b), ANN, a, to="top")
    state = do(state, {"type": "AddToBase", "seat": ANN, "card": GROUPS[0]})
    assert state.turn == BO and state.drawn == (b,)
    request = ENGINE.chance(state)
    assert request.draw == 1 and b not in request.pool


def test_pdc_9_a_card_returned_to_the_bottom_waits_under_the_whole_deck():
    state = start(hands={ANN: GROUPS})
    a, b = spare_cards(state, 2)
    state = keep(draw(state, a, b), ANN, a, to="bottom")
    assert state.deck.bottom[0].card == b and ENGINE.view(state, ANN)["deck"]["bottom"] == [b]
    assert ENGINE.chance(do(state, {"type": "AddToBase", "seat": ANN, "card": GROUPS[0]})).draw == 2


def test_pdc_9_a_card_must_go_to_the_top_or_the_bottom():
    state = start(hands={ANN: GROUPS})
    a, b = spare_cards(state, 2)
    state = draw(state, a, b)
    assert (
        refused(state, {"type": "KeepCard", "seat": ANN, "card": a, "return_to": "middle"})
        == "return-top-or-bottom"
    )
    assert (
        refused(state, {"type": "KeepCard", "seat": ANN, "card": GROUPS[0], "return_to": "top"})
        == "not-drawn"
    )


def test_pdc_10_both_cards_are_kept_only_from_an_empty_hand():
    state = start(hands={ANN: GROUPS})
    state = draw(state, *spare_cards(state, 2))
    assert refused(state, {"type": "KeepBoth", "seat": ANN}) == "keep-both-only-from-an-empty-hand"
    # Ann's hand was empty when her turn began
    empty = start(hands={ANN: GROUPS}).with_player(ANN, hand=()).with_(hand_was_empty=True)
    empty = draw(empty, *spare_cards(empty, 2))
    empty = do(empty, {"type": "KeepBoth", "seat": ANN})
    assert len(empty.players[ANN].hand) == 2 and empty.step == "choosing"


def test_reading_4_the_last_card_is_kept_with_nothing_to_return():
    state = start(hands={ANN: GROUPS})
    last = spare_cards(state, 1)[0]
    rest = [c for c in state.deck.middle if c != last]
    state = state.with_(deck=state.deck.take_drawn(rest))
    state = draw(state, last)
    assert state.step == "choosing" and last in state.players[ANN].hand
    assert state.ending == ANN


def test_pdc_11_a_choice_is_made_after_keeping_and_ends_the_turn():
    state = start(hands={ANN: GROUPS})
    state = draw(state, *spare_cards(state, 2))
    assert refused(state, {"type": "AddToBase", "seat": ANN, "card": GROUPS[0]}) == "keep-a-card-first"
    state = keep(state, ANN, state.drawn[0])
    assert refused(state, {"type": "AddToBase", "seat": BO, "card": GROUPS[0]}) == "not-your-turn"
    state = do(state, {"type": "AddToBase", "seat": ANN, "card": GROUPS[0]})
    assert state.turn == BO


def test_pdc_12_reject_places_a_group_in_the_unaffiliated_area():
    state = start(hands={ANN: [*GROUPS[:5], of("deficit", -2)]})
    state = my_turn(state, ANN)
    assert refused(state, {"type": "RejectGroup", "seat": ANN, "card": of("deficit", -2)}) == "not-a-group"
    state = do(state, {"type": "RejectGroup", "seat": ANN, "card": GROUPS[1]})
    assert state.unaffiliated[-1] == GROUPS[1] and GROUPS[1] not in state.players[ANN].hand


def test_pdc_13_add_a_group_to_your_base():
    state = start(hands={ANN: GROUPS})
    state = my_turn(state, ANN)
    state = do(state, {"type": "AddToBase", "seat": ANN, "card": GROUPS[2]})
    assert state.players[ANN].base == (GROUPS[2],)


def _choosing(hand, **table):
    return my_turn(place(start(hands={ANN: hand}), **table), ANN)


def test_pdc_14_an_asset_or_deficit_goes_onto_any_group_on_the_table():
    mine, theirs = group("right", 2, 0), group("right", 2, 1)
    tax = card("Tax Evasion")
    for target in (mine, theirs, group("right", 1, 8)):
        state = _choosing([*GROUPS[:5], tax], base={ANN: [mine], BO: [theirs]})
        state = do(state, {"type": "StackCard", "seat": ANN, "card": tax, "group": target})
        assert state.stack(target) == (tax,) and state.turn == BO
    state = _choosing([*GROUPS[:5], tax])
    assert (
        refused(state, {"type": "StackCard", "seat": ANN, "card": tax, "group": GROUPS[0]})
        == "not-on-the-table"
    )
    assert (
        refused(state, {"type": "StackCard", "seat": ANN, "card": GROUPS[0], "group": group("right", 1, 8)})
        == "not-an-asset-or-deficit"
    )


def test_pdc_15_a_stack_keeps_its_order_newest_on_top():
    hypocrites = card("Hackneyed Hollywood Hypocrites")
    gerry, tax = card("Gerrymandering"), card("Tax Evasion")
    state = _choosing([*GROUPS[:4], tax], base={BO: [hypocrites]}, stacks={hypocrites: [gerry]})
    state = do(state, {"type": "StackCard", "seat": ANN, "card": tax, "group": hypocrites})
    assert state.stack(hypocrites) == (gerry, tax)
    assert ENGINE.view(state, CY)["players"][BO]["base"][0]["stack"] == [gerry, tax]


def test_pdc_17_e3_nothing_is_stacked_atop_a_power_asset():
    hypocrites = card("Hackneyed Hollywood Hypocrites")
    flip = card("Flip-Flop")
    smeared = card("Smeared")
    state = _choosing([*GROUPS[:4], smeared], base={BO: [hypocrites]}, stacks={hypocrites: [flip]})
    assert (
        refused(state, {"type": "StackCard", "seat": ANN, "card": smeared, "group": hypocrites})
        == "stack-closed"
    )


def test_reading_6_a_player_with_no_choice_ends_the_turn_and_only_then():
    tax = card("Tax Evasion")
    state = _choosing([of("event")] * 0 + [tax])
    state = state.with_player(ANN, hand=(of("event"),))
    assert {c["type"] for c in ENGINE.legal_commands(state, ANN)} >= {"EndTurn"}
    state = do(state, {"type": "EndTurn", "seat": ANN})
    assert state.turn == BO
    busy = _choosing(GROUPS)
    assert refused(busy, {"type": "EndTurn", "seat": ANN}) == "must-choose"


def test_reading_1_turns_go_clockwise_from_the_first_player():
    state = start(first=3, hands={3: GROUPS})
    state = my_turn(state, 3)
    state = do(state, {"type": "AddToBase", "seat": 3, "card": GROUPS[0]})
    assert state.turn == ANN


def test_reading_16_there_is_no_hand_limit():
    state = start(hands={ANN: GROUPS})
    state = do(my_turn(state, ANN), {"type": "AddToBase", "seat": ANN, "card": GROUPS[0]})
    state = my_turn(state, BO)
    assert len(state.players[BO].hand) == 7
