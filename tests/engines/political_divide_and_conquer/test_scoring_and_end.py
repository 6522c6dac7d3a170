"""Scoring and the end: net wing influence, the tie-break, the last card (PDC-16, PDC-18, PDC-33 to PDC-36)."""

import pytest

from engines.political_divide_and_conquer import ENGINE
from engines.political_divide_and_conquer.scoring import influence, places, score, wing

from .builders import ANN, BO, CY, card, do, draw, group, keep, place, start

PACIFISTS = card("Sandal-Wearing, Patchouli-Scented Pacifists")
HYPOCRITES = card("Hackneyed Hollywood Hypocrites")
SMEARED, TAX = card("Smeared"), card("Tax Evasion")
GERRY, FLIP = card("Gerrymandering"), card("Flip-Flop")
R3, L3 = group("right", 3, 0), group("left", 3, 0)
R5 = group("right", 5)


def table(**kwargs):
    return place(start(), **kwargs)


def test_e1_pdc_16_a_smeared_group_goes_negative_and_helps_the_other_wing():
    state = table(base={ANN: [PACIFISTS]}, stacks={PACIFISTS: [SMEARED]})
    assert influence(state, PACIFISTS) == -1 and score(state, ANN) == 1
    state = place(state, base={ANN: [R3]})
    assert score(state, ANN) == 4


@pytest.mark.parametrize(("other", "expected"), [(None, 5), (R3, 8), (L3, 2)])
def test_e2_pdc_18_flip_flop_reverses_the_wing(other, expected):
    state = table(
        base={ANN: [HYPOCRITES, *([other] if other else [])]}, stacks={HYPOCRITES: [GERRY, TAX, FLIP]}
    )
    assert (wing(state, HYPOCRITES), influence(state, HYPOCRITES)) == ("right", 5)
    assert score(state, ANN) == expected


def test_e5_a_deficit_on_your_own_group_swings_the_net():
    left6 = [L3, group("left", 3, 1)]
    right5 = [R3, group("right", 2, 0)]
    state = table(base={ANN: [*left6, *right5]})
    assert score(state, ANN) == 1
    state = place(state, stacks={right5[1]: [TAX]})
    assert score(state, ANN) == 3


def test_pdc_35_pdc_36_the_highest_net_wins_then_the_most_cards_in_the_base():
    assert places([5, 7, 7, 1], [3, 2, 4, 9]) == [3, 2, 1, 4]


def test_reading_14_players_still_tied_share_the_place():
    assert places([7, 7, 2, 2], [3, 3, 1, 1]) == [1, 1, 3, 3]


def test_reading_15_every_card_in_the_base_counts_for_the_tie_break():
    state = table(base={ANN: [R3], BO: [R5]}, stacks={R3: [GERRY, SMEARED]})
    cards = [ENGINE.view(state, None)["players"][s]["base_cards"] for s in (ANN, BO)]
    assert cards == [3, 1]


def _last_cards(state, keep_n):
    """The deck's middle cut down to its first ``keep_n`` groups."""
    groups = [c for c in state.deck.middle if c.startswith("right")][:keep_n]
    return state.with_(deck=state.deck.take_drawn([c for c in state.deck.middle if c not in groups])), groups


def test_pdc_33_reading_3_the_player_who_draws_the_last_card_finishes_the_turn_and_the_game_ends():
    state, (a, b) = _last_cards(start(), 2)
    state = keep(draw(state, a, b), ANN, a, to="top")
    assert state.ending == ANN and len(state.deck) == 1
    hands = {s: list(p.hand) for s, p in enumerate(state.players)}
    state = do(state, {"type": "AddToBase", "seat": ANN, "card": a})
    assert ENGINE.outcome(state).finished and ENGINE.outcome(state).ended_by == "deck-exhausted"
    assert all(not p.hand for p in state.players)
    assert all(c in state.discard for s, cards in hands.items() for c in cards if c != a)


def test_reading_3_someone_else_drawing_the_last_card_takes_one_final_turn():
    fundraiser = card("Fundraising Drive")
    state = place(start(), hand={CY: [fundraiser]})
    state, (a, b, c) = _last_cards(state, 3)
    state = keep(draw(state, a, b), ANN, a, to="bottom")
    state = do(state, {"type": "PlayEvent", "seat": CY, "card": fundraiser, "target": None})
    state = draw(state, c)
    # the bottom card is known: Cy draws it without chance and the deck is empty
    assert state.ending == CY and b in state.players[CY].hand and len(state.deck) == 0
    state = do(state, {"type": "AddToBase", "seat": ANN, "card": a})
    assert state.turn == CY and not ENGINE.outcome(state).finished
    state = do(state, {"type": "AddToBase", "seat": CY, "card": c})
    assert ENGINE.outcome(state).finished


def test_the_final_places_come_from_the_bases():
    state, (a, b) = _last_cards(place(start(), base={BO: [R5]}), 2)
    state = keep(draw(state, a, b), ANN, a)
    state = do(state, {"type": "AddToBase", "seat": ANN, "card": a})
    outcome = ENGINE.outcome(state)
    assert outcome.places[BO] == 1 and outcome.scores[BO] == 5.0
    assert ENGINE.statistics(state)["seats"][BO]["score"] == 5
