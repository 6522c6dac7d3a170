"""Cards carry their own rules (FD-23): each operation of the effect vocabulary, as the default catalog uses it."""

from engines.final_decrees import ENGINE
from engines.final_decrees import events as ev

from .builders import act, cmd, draw, refused, table


def hand(*cards, **kw):
    return table(hands=[list(cards), [], [], [], []], personal=[5, 5, 5, 5, 5], **kw)


def test_fd23_playing_a_card_spends_an_action_and_discards_it():
    state, events = act(hand("cover-up-1"), cmd("PlayCard", 0, card="cover-up-1"))
    assert events[0].type == ev.CARD_PLAYED and state.actions_left == 2
    assert state.hands[0] == () and state.discards == ("cover-up-1",)
    refused(state, cmd("PlayCard", 0, card="cover-up-1"), "card-not-in-hand")


def test_gain_actions_overtime():
    state, _ = act(hand("overtime-1"), cmd("PlayCard", 0, card="overtime-1"))
    assert state.actions_left == 3 - 1 + 2


def test_personal_blame_on_a_named_other_player_scapegoat():
    state = hand("scapegoat-1")
    refused(state, cmd("PlayCard", 0, card="scapegoat-1"), "needs-target-player")
    refused(state, cmd("PlayCard", 0, card="scapegoat-1", target_seat=0), "needs-target-player")
    state, _ = act(state, cmd("PlayCard", 0, card="scapegoat-1", target_seat=3))
    assert state.personal == (5, 5, 5, 7, 5)


def test_personal_blame_removed_from_oneself_never_below_zero_cover_up():
    state = table(hands=[["cover-up-1"], [], [], [], []], personal=[1, 5, 5, 5, 5])
    state, _ = act(state, cmd("PlayCard", 0, card="cover-up-1"))
    assert state.personal[0] == 0


def test_personal_blame_on_everyone_else_commission_of_inquiry():
    state, _ = act(hand("commission-of-inquiry-1"), cmd("PlayCard", 0, card="commission-of-inquiry-1"))
    assert state.personal == (5, 6, 6, 6, 6)


def test_departmental_blame_on_a_named_department_leak_to_the_press():
    state = hand("leak-to-the-press-1")
    refused(state, cmd("PlayCard", 0, card="leak-to-the-press-1"), "needs-target-department")
    refused(state, cmd("PlayCard", 0, card="leak-to-the-press-1", target_seat=2), "no-target-needed")
    state, _ = act(state, cmd("PlayCard", 0, card="leak-to-the-press-1", target_department="treasury"))
    assert state.blame_of("treasury") == 3


def test_departmental_blame_removed_from_ones_own_department_shred_the_files():
    state, _ = act(
        hand("shred-the-files-1", blame={"executive": 2}), cmd("PlayCard", 0, card="shred-the-files-1")
    )
    assert state.blame_of("executive") == 0


def test_every_department_and_oneself_restructuring_memo():
    state, _ = act(hand("restructuring-memo-1"), cmd("PlayCard", 0, card="restructuring-memo-1"))
    assert state.dept_blame == (1,) * 6 and state.personal[0] == 4


def test_investigate_as_the_secret_service_internal_audit():
    state = hand("internal-audit-1", blame={"admiralty": 4})
    refused(
        state, cmd("PlayCard", 0, card="internal-audit-1", target_department="reform"), "cannot-investigate"
    )
    refused(
        state,
        cmd("PlayCard", 0, card="internal-audit-1", target_department="executive"),
        "cannot-investigate",
    )
    state, _ = act(state, cmd("PlayCard", 0, card="internal-audit-1", target_department="admiralty"))
    assert state.personal[4] == 9 and state.blame_of("admiralty") == 0


def test_draw_briefing_papers_draws_two_from_the_deck():
    state, _ = act(hand("briefing-papers-1"), cmd("PlayCard", 0, card="briefing-papers-1"))
    assert state.draws_owed == 2 and ENGINE.chance(state).command == "DrawCard"
    state, _ = draw(state, "overtime-1")
    state, _ = draw(state, "overtime-2")
    assert state.hands[0] == ("overtime-1", "overtime-2") and ENGINE.chance(state) is None


def test_move_to_empty_another_player_secondment_and_oneself_golden_handshake():
    state, _ = act(
        hand("secondment-1", "golden-handshake-1"), cmd("PlayCard", 0, card="secondment-1", target_seat=2)
    )
    assert state.posts[2] == "reform" and state.empty_department == "treasury"
    state, _ = act(state, cmd("PlayCard", 0, card="golden-handshake-1"))
    assert state.posts[0] == "treasury" and state.actions_left == 3 - 2 + 1
    state, _ = act(state, cmd("GainActions", 0))  # the player continues as the Treasury's head


def test_a_card_naming_no_target_refuses_one():
    refused(hand("overtime-1"), cmd("PlayCard", 0, card="overtime-1", target_seat=1), "no-target-needed")
    refused(
        hand("overtime-1"),
        cmd("PlayCard", 0, card="overtime-1", target_department="treasury"),
        "no-target-needed",
    )


def test_cards_are_played_only_on_ones_turn():
    state = table(hands=[[], ["overtime-1"], [], [], []])
    refused(state, cmd("PlayCard", 1, card="overtime-1"), "not-your-turn")
