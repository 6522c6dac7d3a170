"""D, attack: declare, build a team, raise or call, up the ante, roll (PDC-19 to PDC-31)."""

from engines.political_divide_and_conquer import ENGINE

from .builders import ANN, BO, CY, DI, card, do, events_of, group, my_turn, of, place, refused, roll, start

HYPOCRITES = card("Hackneyed Hollywood Hypocrites")
PACIFISTS = card("Sandal-Wearing, Patchouli-Scented Pacifists")
GERRY, TAX, SMEARED = card("Gerrymandering"), card("Tax Evasion"), card("Smeared")
FLIP, THEORIST = card("Flip-Flop"), card("Conspiracy Theorist")
R3, R2, L2, L3 = group("right", 3, 0), group("right", 2, 0), group("left", 2, 0), group("left", 3, 0)
FILLER = [group("left", 1, n) for n in range(1, 6)]
BO_FILLER = [group("right", 1, n) for n in range(6)]
OPENING = group("right", 1, 8)


def attacking(ann_hand, bo_hand=(), **table):
    """Ann's turn, choosing; Bo holds ``bo_hand``."""
    state = start(
        hands={ANN: ann_hand, BO: list(bo_hand) + BO_FILLER[: 6 - len(bo_hand)]}
        if bo_hand
        else {ANN: ann_hand}
    )
    return my_turn(place(state, **table), ANN)


def declare(state, target, team, intent="take-over", stacks=(), seat=ANN):
    command = {"type": "DeclareAttack", "seat": seat, "target": target, "intent": intent, "team": list(team)}
    return do(state, {**command, "stacks": list(stacks)})


def test_pdc_20_an_attack_names_a_face_up_group_and_take_over_or_destroy():
    state = attacking([HYPOCRITES, *FILLER], base={BO: [R3]})
    base = {"type": "DeclareAttack", "seat": ANN, "team": [HYPOCRITES], "stacks": []}
    assert refused(state, {**base, "target": L3, "intent": "take-over"}) == "no-such-target"
    assert refused(state, {**base, "target": R3, "intent": "annex"}) == "declare-take-over-or-destroy"
    state = declare(state, R3, [HYPOCRITES])
    assert state.attack.target == R3 and state.attack.defender == BO and state.attack.step == "raise"


def test_pdc_21_the_team_is_laid_from_the_hand_and_base_groups_do_not_attack():
    state = attacking([HYPOCRITES, *FILLER], base={ANN: [L3], BO: [R3]})
    base = {"type": "DeclareAttack", "seat": ANN, "target": R3, "intent": "destroy", "stacks": []}
    assert refused(state, {**base, "team": [L3]}) == "base-groups-do-not-attack"
    assert refused(state, {**base, "team": [L2]}) == "not-in-hand"
    assert refused(state, {**base, "team": [GERRY]}) == "not-a-group"


def test_reading_7_an_attack_team_has_at_least_one_group():
    state = attacking([HYPOCRITES, *FILLER], base={BO: [R3]})
    assert refused(
        state, {"type": "DeclareAttack", "seat": ANN, "target": R3, "intent": "destroy", "team": []}
    ) == ("team-needs-a-group")


def test_pdc_19_a_conspiracy_theorist_group_attacks_from_its_owners_base_and_stays_there():
    state = attacking([*FILLER, GERRY], base={ANN: [L3]}, unaffiliated=[R2], stacks={L3: [THEORIST]})
    state = declare(state, R2, [L3], intent="destroy")
    assert state.attack.from_base == (L3,) and state.attack.team == ()
    state = roll(state, 6, 1)
    assert state.players[ANN].base == (L3,) and R2 in state.discard


def test_pdc_22_left_and_right_groups_join_their_influence():
    state = attacking([HYPOCRITES, R3, *FILLER[:4]], base={BO: [L2]})
    state = do(declare(state, L2, [HYPOCRITES, R3]), {"type": "CallAttack", "seat": BO})
    rolled = [e for e in events_of(state, {"type": "PassWindow", "seat": ANN}) if e.type == "AttackRolled"]
    assert rolled == []  # the window still waits for the other seats
    for seat in (ANN, BO, CY):
        state = do(state, {"type": "PassWindow", "seat": seat})
    assert [e.type for e in events_of(state, {"type": "PassWindow", "seat": DI})] == [
        "WindowPassed",
        "WindowClosed",
    ]
    state = do(state, {"type": "PassWindow", "seat": DI})
    (event,) = events_of(state, {"type": "RollAttack", "seat": None, "target": L2, "dice": [1, 1]})[:1]
    assert (event.data["attack"], event.data["defence"]) == (7, 2)


def test_pdc_24_the_team_joins_the_attackers_base_win_or_lose():
    state = attacking([HYPOCRITES, *FILLER], unaffiliated=[R3])
    state = roll(declare(state, R3, [PACIFISTS := FILLER[0]]), 1, 6)
    assert state.players[ANN].base == (PACIFISTS,) and R3 in state.unaffiliated
    assert HYPOCRITES in state.players[ANN].hand


def test_pdc_25_the_defender_raises_and_the_raised_groups_stay_in_their_base():
    state = attacking([HYPOCRITES, *FILLER], bo_hand=[L3, TAX], base={BO: [R3]})
    state = declare(state, R3, [HYPOCRITES])
    assert refused(state, {"type": "CallAttack", "seat": CY}) == "not-your-attack-step"
    state = do(
        state,
        {"type": "RaiseDefence", "seat": BO, "groups": [L3], "stacks": [{"card": TAX, "group": HYPOCRITES}]},
    )
    assert state.attack.defence == (L3,) and state.stack(HYPOCRITES) == (TAX,)
    state = do(state, {"type": "Stand", "seat": ANN})
    state = roll(state, 6, 1)  # 4 - 2 + 6 = 8 against 3 + 3 + 1 = 7: taken over
    assert R3 in state.players[ANN].base and L3 in state.players[BO].base
    assert HYPOCRITES in state.players[ANN].base


def test_pdc_25_a_raise_adds_something_reading_9_even_without_a_group():
    state = attacking([HYPOCRITES, *FILLER], bo_hand=[SMEARED], base={BO: [R3]})
    state = declare(state, R3, [HYPOCRITES])
    assert refused(state, {"type": "RaiseDefence", "seat": BO, "groups": [], "stacks": []}) == "nothing-added"
    state = do(
        state, {"type": "RaiseDefence", "seat": BO, "stacks": [{"card": SMEARED, "group": HYPOCRITES}]}
    )
    assert state.attack.step == "ante"


def test_pdc_25_a_call_goes_straight_to_the_roll():
    state = do(
        declare(attacking([HYPOCRITES, *FILLER], base={BO: [R3]}), R3, [HYPOCRITES]),
        {"type": "CallAttack", "seat": BO},
    )
    assert state.attack.step == "pre-roll" and state.window.kind == "attack-roll"


def test_pdc_26_the_attacker_ups_the_ante_once_and_the_defender_raises_once():
    state = attacking([HYPOCRITES, R2, *FILLER[:4]], bo_hand=[L3, L2], base={BO: [R3]})
    state = do(declare(state, R3, [HYPOCRITES]), {"type": "RaiseDefence", "seat": BO, "groups": [L3]})
    assert refused(state, {"type": "RaiseDefence", "seat": BO, "groups": [L2]}) == "defender-raises-once"
    state = do(state, {"type": "UpTheAnte", "seat": ANN, "groups": [R2]})
    assert state.attack.team == (HYPOCRITES, R2) and state.attack.step == "pre-roll"
    assert refused(state, {"type": "UpTheAnte", "seat": ANN, "groups": [FILLER[0]]}) == "no-ante-now"


def test_pdc_29_ties_go_to_the_defender():
    state = attacking([R3, *FILLER], unaffiliated=[L3])
    state = roll(declare(state, L3, [R3]), 4, 4)
    assert L3 in state.unaffiliated


def test_pdc_28_a_won_take_over_moves_the_group_with_its_stack():
    state = attacking([HYPOCRITES, *FILLER], base={BO: [R3]}, stacks={R3: [GERRY]})
    state = roll(do(declare(state, R3, [HYPOCRITES]), {"type": "CallAttack", "seat": BO}), 6, 1)
    assert R3 in state.players[ANN].base and R3 not in state.players[BO].base
    assert state.stack(R3) == (GERRY,)


def test_pdc_28_a_won_destroy_sends_the_group_and_its_stack_to_the_discard_heap():
    state = attacking([HYPOCRITES, *FILLER], base={BO: [R3]}, stacks={R3: [GERRY]})
    state = roll(
        do(declare(state, R3, [HYPOCRITES], intent="destroy"), {"type": "CallAttack", "seat": BO}), 6, 1
    )
    assert R3 in state.discard and GERRY in state.discard and state.stack(R3) == ()


def test_pdc_30_an_unaffiliated_group_cannot_raise_and_its_die_is_nobodys():
    state = declare(attacking([HYPOCRITES, *FILLER], unaffiliated=[R3]), R3, [HYPOCRITES])
    assert state.attack.step == "pre-roll" and state.attack.defender is None
    for seat in range(4):
        state = do(state, {"type": "PassWindow", "seat": seat})
    request = ENGINE.chance(state)
    assert (request.command, request.dice, request.seat) == ("RollAttack", 2, ANN)
    (event,) = [
        e
        for e in events_of(state, {"type": "RollAttack", "seat": None, "target": R3, "dice": [3, 3]})
        if e.type == "AttackRolled"
    ]
    assert set(ENGINE.luck(state, event)) == {ANN}


def test_pdc_31_an_attack_on_your_own_group_can_only_destroy_it():
    state = attacking([HYPOCRITES, *FILLER], base={ANN: [L3]})
    command = {
        "type": "DeclareAttack",
        "seat": ANN,
        "target": L3,
        "intent": "take-over",
        "team": [HYPOCRITES],
        "stacks": [],
    }
    assert refused(state, command) == "own-group-is-destroyed"
    state = declare(state, L3, [HYPOCRITES], intent="destroy")
    assert state.attack.step == "pre-roll"
    state = roll(state, 5, 1)
    assert L3 in state.discard and state.players[ANN].base == (HYPOCRITES,)


def test_e4_the_defender_stacks_a_deficit_on_the_attack_team():
    state = attacking([HYPOCRITES, GERRY, *FILLER[:4]], bo_hand=[TAX], base={BO: [R3]})
    state = declare(state, R3, [HYPOCRITES], stacks=[{"card": GERRY, "group": HYPOCRITES}])
    state = do(state, {"type": "RaiseDefence", "seat": BO, "stacks": [{"card": TAX, "group": HYPOCRITES}]})
    state = do(state, {"type": "Stand", "seat": ANN})
    for seat in range(4):
        state = do(state, {"type": "PassWindow", "seat": seat})
    (event, *_) = events_of(state, {"type": "RollAttack", "seat": None, "target": R3, "dice": [1, 6]})
    assert event.data["attack"] == 5
    state = roll(state, 1, 6)
    assert HYPOCRITES in state.players[ANN].base and state.stack(HYPOCRITES) == (GERRY, TAX)


def test_reading_8_the_attacker_may_stack_onto_the_target():
    state = attacking([HYPOCRITES, SMEARED, *FILLER[:4]], unaffiliated=[R3])
    state = declare(state, R3, [HYPOCRITES], stacks=[{"card": SMEARED, "group": R3}])
    assert state.stack(R3) == (SMEARED,)
    other = attacking([HYPOCRITES, SMEARED, *FILLER[:4]], unaffiliated=[R3], base={BO: [R2]})
    command = {"type": "DeclareAttack", "seat": ANN, "target": R3, "intent": "destroy", "team": [HYPOCRITES]}
    assert refused(other, {**command, "stacks": [{"card": SMEARED, "group": R2}]}) == "not-in-this-attack"


def test_reading_12_a_negative_group_lowers_the_attack():
    state = attacking([PACIFISTS, SMEARED, *FILLER[1:5]], unaffiliated=[R3])
    state = declare(state, R3, [PACIFISTS], stacks=[{"card": SMEARED, "group": PACIFISTS}])
    for seat in range(4):
        state = do(state, {"type": "PassWindow", "seat": seat})
    (event, *_) = events_of(state, {"type": "RollAttack", "seat": None, "target": R3, "dice": [1, 1]})
    assert event.data["attack"] == -1


def test_reading_18_a_deficit_cannot_go_onto_a_conspiracy_theorist_group():
    state = attacking([*FILLER, GERRY], bo_hand=[TAX], base={ANN: [L3], BO: [R3]}, stacks={L3: [THEORIST]})
    state = declare(state, R3, [L3])
    assert (
        refused(state, {"type": "RaiseDefence", "seat": BO, "stacks": [{"card": TAX, "group": L3}]})
        == "stack-closed"
    )


def test_pdc_23_one_attack_per_turn():
    state = attacking([HYPOCRITES, R2, *FILLER[:4]], unaffiliated=[R3])
    state = declare(state, R3, [HYPOCRITES])
    assert refused(
        state, {"type": "DeclareAttack", "seat": ANN, "target": OPENING, "intent": "destroy", "team": [R2]}
    ) == ("one-choice-per-turn")
    state = roll(state, 1, 6)
    assert state.turn == BO


def test_the_roll_waits_until_every_seat_has_passed_and_an_event_reopens_the_window():
    fundraiser = of("event")
    state = attacking([HYPOCRITES, *FILLER], unaffiliated=[R3])
    state = state.with_player(CY, hand=(*state.players[CY].hand, fundraiser))
    state = declare(state, R3, [HYPOCRITES])
    for seat in (ANN, BO, DI):
        state = do(state, {"type": "PassWindow", "seat": seat})
    assert ENGINE.chance(state) is None and state.window.waiting == (CY,)
    state = do(state, {"type": "PlayEvent", "seat": CY, "card": fundraiser})
    state = do(state, {"type": "DrawCards", "seat": None, "to": CY, "cards": list(state.deck.middle[:2])})
    assert state.window.waiting == (ANN, BO, DI)
    assert refused(state, {"type": "PassWindow", "seat": CY}) == "already-passed"
