"""Events: played by anyone at any time before the dice, each effect from the catalog (PDC-5, PDC-32)."""

from engines.political_divide_and_conquer import ENGINE

from .builders import ANN, BO, CY, DI, card, do, draw, group, my_turn, place, refused, roll, start

FUNDRAISER = card("Fundraising Drive")
RESTOCK = card("Restock the War Chest")
ELECTION = card("Election Year")
OPPO = card("Opposition Research")
POACH = card("Poach a Staffer")
SURPRISE = card("October Surprise")
RALLY = card("Rally the Base")
FILIBUSTER = card("Filibuster")
HYPOCRITES = card("Hackneyed Hollywood Hypocrites")
R3 = group("right", 3, 0)
FILLER = [group("left", 1, n) for n in range(1, 6)]


def holding(seat, *events, turn_of=ANN):
    """Ann's turn, choosing; ``seat`` holds ``events``."""
    state = start(hands={ANN: [HYPOCRITES, *FILLER]})
    state = place(state, hand={seat: list(events)}, unaffiliated=[R3])
    return my_turn(state, turn_of)


def play(state, seat, event, target=None):
    return do(state, {"type": "PlayEvent", "seat": seat, "card": event, "target": target})


def test_pdc_32_an_event_is_played_on_anyones_turn():
    state = play(holding(CY, FUNDRAISER), CY, FUNDRAISER)
    assert FUNDRAISER in state.discard and ENGINE.chance(state).fixed == {"to": CY}


def test_pdc_32_an_event_is_played_while_a_card_is_being_kept():
    state = place(start(hands={ANN: [HYPOCRITES, *FILLER]}), hand={BO: [FUNDRAISER]})
    state = draw(state, *[c for c in state.deck.middle if c.startswith("right")][:2])
    assert state.step == "keeping"
    state = play(state, BO, FUNDRAISER)
    assert ENGINE.chance(state).fixed == {"to": BO}


def test_pdc_32_nothing_is_played_once_the_dice_are_awaited():
    state = holding(BO, SURPRISE)
    state = do(
        state, {"type": "DeclareAttack", "seat": ANN, "target": R3, "intent": "destroy", "team": [HYPOCRITES]}
    )
    for seat in range(4):
        state = do(state, {"type": "PassWindow", "seat": seat})
    assert ENGINE.chance(state).command == "RollAttack"
    assert refused(state, {"type": "PlayEvent", "seat": BO, "card": SURPRISE}) == "chance-pending"


def test_an_attack_event_needs_an_attack_before_its_roll():
    state = holding(BO, SURPRISE)
    assert refused(state, {"type": "PlayEvent", "seat": BO, "card": SURPRISE}) == "event-needs-an-attack"


def test_an_event_must_be_in_the_players_hand():
    state = holding(BO, SURPRISE)
    assert refused(state, {"type": "PlayEvent", "seat": CY, "card": SURPRISE}) == "not-in-hand"
    assert refused(state, {"type": "PlayEvent", "seat": CY, "card": HYPOCRITES}) == "not-an-event"


def test_draw_the_player_draws_from_the_deck():
    state = play(holding(CY, FUNDRAISER), CY, FUNDRAISER)
    size = len(state.players[CY].hand)
    state = draw(state, *state.deck.middle[:2])
    assert len(state.players[CY].hand) == size + 2


def test_refill_hand_draws_until_the_hand_holds_six():
    state = holding(CY, RESTOCK)
    state = state.with_player(CY, hand=(RESTOCK,))
    state = play(state, CY, RESTOCK)
    assert ENGINE.chance(state).draw == 6


def test_everyone_draws_starting_with_the_player():
    state = play(holding(CY, ELECTION), CY, ELECTION)
    order = []
    while ENGINE.chance(state) is not None:
        request = ENGINE.chance(state)
        order.append(request.fixed["to"])
        state = draw(state, request.pool[0])
    assert order == [CY, DI, ANN, BO]


def test_discard_random_an_opponent_discards_face_up():
    state = holding(CY, OPPO)
    assert refused(state, {"type": "PlayEvent", "seat": CY, "card": OPPO}) == "name-an-opponent"
    assert refused(state, {"type": "PlayEvent", "seat": CY, "card": OPPO, "target": CY}) == "name-an-opponent"
    state = play(state, CY, OPPO, target=ANN)
    request = ENGINE.chance(state)
    assert (request.command, request.pool, request.fixed) == (
        "TakeRandomCards",
        state.players[ANN].hand,
        {"source": ANN},
    )
    events = ENGINE.decide(
        state, {"type": "TakeRandomCards", "seat": None, "source": ANN, "cards": [HYPOCRITES]}
    )
    taken = [e for e in events if e.type == "CardsTaken"][0]
    assert ENGINE.redact(taken, BO).data["cards"] == [HYPOCRITES]  # face up on the discard heap
    state = do(state, {"type": "TakeRandomCards", "seat": None, "source": ANN, "cards": [HYPOCRITES]})
    assert HYPOCRITES in state.discard and HYPOCRITES not in state.players[ANN].hand


def test_steal_random_the_card_is_seen_only_by_the_two_players():
    state = play(holding(CY, POACH), CY, POACH, target=ANN)
    command = {"type": "TakeRandomCards", "seat": None, "source": ANN, "cards": [HYPOCRITES]}
    taken = [e for e in ENGINE.decide(state, command) if e.type == "CardsTaken"][0]
    assert "cards" in ENGINE.redact(taken, CY).data and "cards" in ENGINE.redact(taken, ANN).data
    assert ENGINE.redact(taken, BO).data == {"source": ANN, "to": CY, "by": CY, "count": 1}
    state = do(state, command)
    assert HYPOCRITES in state.players[CY].hand


def _attack(state):
    return do(
        state, {"type": "DeclareAttack", "seat": ANN, "target": R3, "intent": "destroy", "team": [HYPOCRITES]}
    )


def test_attack_and_defence_bonuses_change_this_attacks_totals():
    state = holding(BO, SURPRISE, RALLY)
    state = play(play(_attack(state), BO, SURPRISE), BO, RALLY)
    assert (state.attack.attack_bonus, state.attack.defence_bonus) == (2, 2)
    assert state.window.waiting == (ANN, CY, DI)  # playing an event counts as passing
    for seat in (ANN, CY, DI):
        state = do(state, {"type": "PassWindow", "seat": seat})
    event = ENGINE.decide(state, {"type": "RollAttack", "seat": None, "target": R3, "dice": [1, 1]})[0]
    assert (event.data["attack"], event.data["defence"]) == (6, 5)


def test_cancel_attack_the_team_still_joins_the_attackers_base():
    state = play(_attack(holding(DI, FILIBUSTER)), DI, FILIBUSTER)
    assert state.attack is None and state.turn == BO
    assert HYPOCRITES in state.players[ANN].base and R3 in state.unaffiliated


def test_a_played_event_reopens_the_pre_roll_window():
    state = _attack(holding(BO, SURPRISE))
    for seat in (ANN, CY, DI):
        state = do(state, {"type": "PassWindow", "seat": seat})
    state = play(state, BO, SURPRISE)
    assert state.window.waiting == (ANN, CY, DI)
    state = roll(state, 3, 3)
    assert R3 in state.discard
