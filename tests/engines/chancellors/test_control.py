"""(A) Control of the royal services."""

import json

from engines.chancellors import ENGINE
from engines.chancellors import events as ev
from engines.chancellors.state import CONTROL

from .builders import acts, choose, of_type, pass_, refused, table, types

SELIA, SHAR, HENRI = 0, 1, 2


def holders(state):
    return dict(zip(["diplomatic-corps", "army", "navy"], state.services, strict=True))


def test_selia_shar_and_henri_contend_for_the_services():
    # Selia plays the 9 of Leaves and Knots, Shar the Crown of Knots, Henri the 7 of Waves and Wyrms.
    state = table(hands=[["merchant", "ace-of-moons"], ["windfall", "ace-of-suns"], ["cave", "ace-of-waves"]])
    state, events = acts(state, choose(SELIA, "merchant"), choose(SHAR, "windfall"), choose(HENRI, "cave"))
    assert holders(state) == {"diplomatic-corps": None, "army": SHAR, "navy": SELIA}
    assert types(events)[3:7] == [
        ev.CARDS_REVEALED,
        ev.SERVICE_UNCONTESTED,
        ev.SERVICE_TAKEN,
        ev.SERVICE_TAKEN,
    ]
    names = ["Selia", "Shar", "Henri"]
    described = [ENGINE.describe(e, names) for e in events]
    assert (
        "The cards are revealed: Selia plays the 9 of Leaves and Knots, Shar plays the Crown of Knots "
        "and Henri plays the 7 of Waves and Wyrms."
    ) in described
    assert "Selia takes the Navy with the 9 of Leaves and Knots." in described
    assert "Shar takes the Army with the Crown of Knots." in described
    assert "No one played a card for the Diplomatic corps; it remains in the centre." in described


def test_later_in_the_game_henri_keeps_the_diplomat_nobody_contends_for():
    state = table(
        hands=[["merchant", "ace-of-moons"], ["windfall", "ace-of-suns"], ["cave", "ace-of-waves"]],
        services={"diplomatic-corps": HENRI},
    )
    state, _ = acts(state, choose(SELIA, "merchant"), choose(SHAR, "windfall"), choose(HENRI, "cave"))
    assert holders(state) == {"diplomatic-corps": HENRI, "army": SHAR, "navy": SELIA}


def test_a_card_may_take_every_service_it_shares_a_suit_with():
    state = table(hands=[["merchant"], ["ace-of-moons"], ["ace-of-suns"]])
    state, _ = acts(
        state, choose(SELIA, "merchant"), choose(SHAR, "ace-of-moons"), choose(HENRI, "ace-of-suns")
    )
    # Leaves matches the Navy, Knots the Army; the two Aces tie for the Diplomat at equal scores.
    assert holders(state) == {"diplomatic-corps": None, "army": SELIA, "navy": SELIA}


def test_highest_matching_card_takes_the_service():
    state = table(hands=[["mill"], ["origin"], ["sea"]], scores=[0, 0, 50])
    state, _ = acts(state, choose(SELIA, "mill"), choose(SHAR, "origin"), choose(HENRI, "sea"))
    assert holders(state)["navy"] == HENRI  # the Crown of Waves beats the 8 and the 2, whatever the scores


def test_only_the_highest_rank_can_tie():
    # Two 9s tie for the Army and the Navy; the Crown of Waves beats them for the Navy.
    state = table(hands=[["darkness"], ["merchant"], ["sea"]], scores=[0, 0, 50])
    state, _ = acts(state, choose(SELIA, "darkness"), choose(SHAR, "merchant"), choose(HENRI, "sea"))
    assert holders(state) == {"diplomatic-corps": None, "army": None, "navy": HENRI}


def test_a_service_taken_is_handed_over_by_its_holder():
    state = table(hands=[["mill"], ["origin"], ["ace-of-moons"]], services={"navy": SHAR})
    state, events = acts(state, choose(SELIA, "mill"), choose(SHAR, "origin"), choose(HENRI, "ace-of-moons"))
    assert holders(state)["navy"] == SELIA
    taken = of_type(events, ev.SERVICE_TAKEN)
    assert {"service": "navy", "seat": SELIA, "card": "mill", "previous": SHAR} in [e.data for e in taken]
    assert ENGINE.describe(taken[-1], ["Selia", "Shar", "Henri"]) == (
        "Selia takes the Navy from Shar with the 8 of Waves and Leaves."
    )


def test_equal_ranks_go_to_the_lower_score():
    # The 9 of Waves and Wyrms and the 9 of Leaves and Knots both match the Navy and the Army.
    state = table(hands=[["darkness"], ["merchant"], ["ace-of-moons"]], scores=[10, 5, 0])
    state, _ = acts(state, choose(SELIA, "darkness"), choose(SHAR, "merchant"), choose(HENRI, "ace-of-moons"))
    assert holders(state) == {"diplomatic-corps": HENRI, "army": SHAR, "navy": SHAR}


def test_equal_ranks_and_equal_scores_send_the_service_back_to_the_centre():
    state = table(
        hands=[["darkness"], ["merchant"], ["ace-of-moons"]],
        scores=[7, 7, 0],
        services={"navy": HENRI, "army": SELIA},
    )
    state, events = acts(
        state, choose(SELIA, "darkness"), choose(SHAR, "merchant"), choose(HENRI, "ace-of-moons")
    )
    assert holders(state) == {"diplomatic-corps": HENRI, "army": None, "navy": None}
    deadlocked = of_type(events, ev.SERVICE_DEADLOCKED)
    assert [e.data["service"] for e in deadlocked] == ["army", "navy"]
    assert deadlocked[1].data["previous"] == HENRI
    assert ENGINE.describe(deadlocked[1], ["Selia", "Shar", "Henri"]) == (
        "Selia and Shar played cards of the same rank for the Navy with the same score; "
        "the Navy goes back to the centre from Henri."
    )


def test_pawns_only_keep_services_already_held():
    # The rulebook's example: the Pawn of Moons, Wyrms and Knots keeps the Diplomat and the Soldier.
    state = table(
        hands=[["watchman"], ["pact"], ["betrayal"]],
        services={"diplomatic-corps": SELIA, "army": SELIA},
        extended_deck=True,
    )
    state, _ = acts(state, choose(SELIA, "watchman"), choose(SHAR, "pact"), choose(HENRI, "betrayal"))
    assert holders(state) == {"diplomatic-corps": SELIA, "army": SELIA, "navy": None}


def test_a_pawn_does_not_take_a_service_its_player_does_not_hold():
    state = table(hands=[["watchman"], ["ace-of-knots"], ["ace-of-leaves"]], extended_deck=True)
    state, _ = acts(
        state, choose(SELIA, "watchman"), choose(SHAR, "ace-of-knots"), choose(HENRI, "ace-of-leaves")
    )
    assert holders(state) == {"diplomatic-corps": None, "army": SHAR, "navy": HENRI}


def test_a_court_or_crown_takes_a_service_from_a_pawn():
    state = table(
        hands=[["watchman"], ["huntress"], ["calamity"]],
        services={"diplomatic-corps": SELIA, "army": SELIA},
        extended_deck=True,
    )
    state, _ = acts(state, choose(SELIA, "watchman"), choose(SHAR, "huntress"), choose(HENRI, "calamity"))
    assert holders(state) == {"diplomatic-corps": SHAR, "army": HENRI, "navy": None}


def test_a_court_takes_the_diplomatic_corps_from_a_pawn():
    # "the order of ranks becomes 9, pawn, court, crown": the Court of Moons, Waves and Knots
    # beats the Pawn of Moons, Wyrms and Knots for the Diplomat; nothing beats the Pawn for the Army.
    state = table(
        hands=[["watchman"], ["consul"], ["merchant"]],
        services={"diplomatic-corps": SELIA, "army": SELIA},
        extended_deck=True,
    )
    state, events = acts(state, choose(SELIA, "watchman"), choose(SHAR, "consul"), choose(HENRI, "merchant"))
    assert holders(state) == {"diplomatic-corps": SHAR, "army": SELIA, "navy": HENRI}
    described = [ENGINE.describe(e, ["Selia", "Shar", "Henri"]) for e in events]
    assert "Shar takes the Diplomatic corps from Selia with the Court of Moons, Waves and Knots." in described
    assert "Selia keeps the Army with the Pawn of Moons, Wyrms and Knots." in described


def test_courts_contend_only_for_the_diplomatic_corps():
    # The Court of Moons, Waves and Knots would match all three services by its suits.
    state = table(hands=[["consul"], ["pact"], ["ace-of-waves"]], extended_deck=True)
    state, _ = acts(state, choose(SELIA, "consul"), choose(SHAR, "pact"), choose(HENRI, "ace-of-waves"))
    assert holders(state) == {"diplomatic-corps": SELIA, "army": None, "navy": HENRI}


def test_a_crown_outranks_a_court_for_the_diplomat():
    state = table(hands=[["consul"], ["bard"], ["ace-of-waves"]], extended_deck=True, scores=[0, 90, 0])
    state, _ = acts(state, choose(SELIA, "consul"), choose(SHAR, "bard"), choose(HENRI, "ace-of-waves"))
    assert holders(state)["diplomatic-corps"] == SHAR


def test_playing_a_card_is_mandatory_and_the_cards_played_are_discarded():
    state = table(hands=[["merchant", "author"], ["windfall"], ["cave"]])
    assert ENGINE.legal_commands(state, SELIA) == [choose(SELIA, "author"), choose(SELIA, "merchant")]
    assert refused(state, pass_(SELIA)).code == "not-solving-now"
    state, _ = acts(state, choose(SELIA, "merchant"), choose(SHAR, "windfall"), choose(HENRI, "cave"))
    assert set(state.discards) == {"merchant", "windfall", "cave"}
    assert state.hands[SELIA] == ("author",)
    assert state.phase == CONTROL


def test_a_player_chooses_one_card_from_their_hand():
    state = table(hands=[["merchant"], ["windfall"], ["cave"]])
    assert refused(state, choose(SELIA, "windfall")).code == "card-not-in-hand"
    state, _ = acts(state, choose(SELIA, "merchant"))
    assert refused(state, choose(SELIA, "merchant")).code == "already-chosen"


def test_choices_are_made_face_down_and_revealed_together():
    state = table(hands=[["merchant", "author"], ["windfall", "painter"], ["cave", "savage"]])
    state, events = acts(state, choose(SHAR, "windfall"))
    assert types(events) == [ev.CARD_CHOSEN]
    for other in (SELIA, HENRI, None):
        assert ENGINE.redact(events[0], other).data == {"seat": SHAR}
        assert "windfall" not in json.dumps(ENGINE.view(state, other))
    assert ENGINE.redact(events[0], SHAR).data["card"] == "windfall"
    assert ENGINE.view(state, SHAR)["my_choice"] == "windfall"
    assert ENGINE.view(state, None)["chosen"] == [False, True, False]
    state, events = acts(state, choose(SELIA, "merchant"))
    assert types(events) == [ev.CARD_CHOSEN]  # still one to choose: nothing revealed
    state, events = acts(state, choose(HENRI, "cave"))
    revealed = of_type(events, ev.CARDS_REVEALED)[0]
    assert revealed.data["cards"] == ["merchant", "windfall", "cave"]
    assert ENGINE.redact(revealed, None) == revealed
