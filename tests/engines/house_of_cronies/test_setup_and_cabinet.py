"""Setting up, opening hands, and the rules of the cabinet."""

import random

import pytest

from engines.base import GameConfig, RuleViolation
from engines.chance import deal
from engines.house_of_cronies import ENGINE
from engines.house_of_cronies.catalog import DIPLOMATIC_INCIDENT, FLOOR_CROSSING, RESHUFFLE, parse_catalog
from engines.house_of_cronies.state import OPENING

from .builders import (
    BALEKA,
    JACOB,
    PRAVIN,
    THULI,
    act,
    build,
    cabinet,
    catalog_dict,
    config,
    cor,
    crony,
    do,
    draw,
    inf,
    refused,
    tactic,
    types,
)

FILLER_TACTICS = [tactic(k, n) for k in (RESHUFFLE, FLOOR_CROSSING) for n in range(4)]


def fresh(seats: int = 4, **options):
    cfg = config(seats, **options)
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
    return state


def opening(named: dict[int, list[str]], seats: int = 4, speaker: int = 0):
    """Deal the opening hands with the named cards (topped up with money) and 2 tactics each."""
    state = fresh(seats, first_speaker=speaker)
    named_all = {c for cards in named.values() for c in cards}
    filler = iter(
        sorted(c for c in state.main_deck if c not in named_all and c.startswith(("influence", "corruption")))
    )
    tactics = iter(FILLER_TACTICS)
    events = []
    while ENGINE.chance(state) is not None:
        request = ENGINE.chance(state)
        if request.fixed["deck"] == "main":
            cards = list(named.get(request.seat, []))
            cards += [next(filler) for _ in range(request.draw - len(cards))]
        else:
            cards = [next(tactics) for _ in range(request.draw)]
        state, more = draw(state, cards)
        events += more
    return state, events


def test_three_or_four_players():
    assert (ENGINE.min_seats, ENGINE.max_seats) == (3, 4)
    for seats in (2, 5):
        with pytest.raises(RuleViolation) as refusal:
            ENGINE.initial_state(GameConfig(seats=seats, catalog=catalog_dict()))
        assert refusal.value.code == "seat-count"


def test_the_engine_needs_a_catalog():
    with pytest.raises(RuleViolation) as refusal:
        ENGINE.initial_state(GameConfig(seats=4))
    assert refusal.value.code == "invalid-catalog"


def test_opening_hands_are_seven_cards_six_for_the_speaker_and_two_tactics():
    cfg = config(4, first_speaker=2)
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
    rng = random.Random(7)
    drawn = {}
    for _ in range(8):  # the opening deal comes before any crony is placed
        request = ENGINE.chance(state)
        state, events = act(state, None, "DrawCards", cards=deal(request, rng)["cards"], **request.fixed)
        drawn[events[0].data["deck"], events[0].data["seat"]] = len(events[0].data["cards"])
    assert ENGINE.chance(state) is None or state.stage != OPENING
    assert drawn == {
        ("main", 0): 7,
        ("main", 1): 7,
        ("main", 2): 6,  # the first Speaker deals themselves six
        ("main", 3): 7,
        ("tactics", 0): 2,
        ("tactics", 1): 2,
        ("tactics", 2): 2,
        ("tactics", 3): 2,
    }


def test_opening_cronies_are_placed_in_turn_order_from_the_speaker():
    loyalist, union_boss = crony("Party Loyalist"), crony("Union Boss")
    state, _ = opening({BALEKA: [loyalist], THULI: [union_boss]}, speaker=BALEKA)
    assert refused(state, THULI, "PlaceCrony", card=union_boss, position="president") == "not-your-turn"
    assert refused(state, BALEKA, "PickUpCard", card=inf(1)) == "opening"
    state = do(state, BALEKA, "PlaceCrony", card=loyalist, position="president")
    state = do(state, THULI, "PlaceCrony", card=union_boss, position="vice-president")
    assert cabinet(state, BALEKA) == {"president": loyalist}
    assert cabinet(state, THULI) == {"vice-president": union_boss}
    assert state.round == 1 and ENGINE.chance(state).fixed == {"deck": "main", "to": "table"}


def test_an_opening_crony_that_cannot_be_placed_is_discarded():
    veteran, loyalist, union_boss = crony("Struggle Veteran"), crony("Party Loyalist"), crony("Union Boss")
    state, _ = opening({BALEKA: [veteran, loyalist, union_boss]})
    state = do(state, BALEKA, "PlaceCrony", card=veteran, position="president")
    state, events = act(state, BALEKA, "PlaceCrony", card=loyalist, position="vice-president")
    assert "CronyDiscarded" in types(events)
    assert union_boss in state.main_discard and state.players[BALEKA].to_place == ()


def test_an_opening_foreign_ally_takes_the_foreign_ally_seat():
    ally = crony("The Gulf Investor")
    state, _ = opening({PRAVIN: [ally]})
    assert ENGINE.legal_commands(state, PRAVIN) == [
        {"type": "PlaceCrony", "seat": PRAVIN, "card": ally, "position": "foreign-ally"}
    ]


def test_free_tactics_are_drawn_when_a_crony_first_comes_into_play():
    tenderpreneur = crony("Tenderpreneur")  # two free tactics
    state, _ = opening({JACOB: [tenderpreneur]})
    state = do(state, JACOB, "PlaceCrony", card=tenderpreneur, position="finance")
    request = ENGINE.chance(state)
    assert (request.draw, request.seat, request.fixed["deck"]) == (2, JACOB, "tactics")
    state, _ = draw(state, [tactic(DIPLOMATIC_INCIDENT), tactic(DIPLOMATIC_INCIDENT, 1)])
    assert len(state.players[JACOB].tactics) == 4


def test_a_crony_discarded_for_want_of_a_position_brings_no_free_tactics():
    troll = crony("Troll Farm Manager")  # two free tactics, Communications
    state = build(
        table=[troll],
        hands={BALEKA: [inf(1)]},
        cabinets={
            BALEKA: {
                "president": crony("Party Loyalist"),
                "vice-president": crony("Union Boss"),
                "communications": crony("Spin Doctor"),
            }
        },
    )
    state, events = act(state, BALEKA, "PlaceBid", card=troll, cards=[inf(1)])
    for seat in (THULI, PRAVIN):
        state, events = act(state, seat, "PassBid")
    state, events = act(state, JACOB, "PassBid")
    assert types(events)[-1] == "CronyDiscarded" and ENGINE.chance(state) is None


def won(card: str, seat: int = BALEKA, cabinet_=None):
    """A state where ``seat`` has just won ``card`` and must place it."""
    state = build(turn=seat, gained=[seat], cabinets={seat: cabinet_ or {}})
    return state.with_player(seat, to_place=(card,))


def test_president_and_vice_president_take_any_crony():
    for name in ("Minister of Finance", "Party Loyalist", "Spin Doctor"):
        for position in ("president", "vice-president"):
            state = do(won(crony(name)), BALEKA, "PlaceCrony", card=crony(name), position=position)
            assert cabinet(state, BALEKA) == {position: crony(name)}


def test_specialist_positions_take_only_their_specialists():
    mandarin = crony("Treasury Mandarin")  # Finance only
    assert (
        refused(won(mandarin), BALEKA, "PlaceCrony", card=mandarin, position="justice") == "not-a-specialist"
    )
    state = do(won(mandarin), BALEKA, "PlaceCrony", card=mandarin, position="finance")
    assert cabinet(state, BALEKA) == {"finance": mandarin}


def test_a_crony_with_no_speciality_sits_only_as_president_or_vice_president():
    loyalist = crony("Party Loyalist")
    positions = {c["position"] for c in ENGINE.legal_commands(won(loyalist), BALEKA)}
    assert positions == {"president", "vice-president"}
    assert (
        refused(won(loyalist), BALEKA, "PlaceCrony", card=loyalist, position="finance") == "not-a-specialist"
    )


def test_the_foreign_ally_takes_only_its_own_seat():
    ally, loyalist = crony("The Gulf Investor"), crony("Party Loyalist")
    assert refused(won(ally), BALEKA, "PlaceCrony", card=ally, position="president") == "ally-seat-only"
    assert (
        refused(won(loyalist), BALEKA, "PlaceCrony", card=loyalist, position="foreign-ally")
        == "foreign-ally-seat"
    )


def test_only_empty_positions_can_be_filled():
    loyalist, veteran = crony("Party Loyalist"), crony("Struggle Veteran")
    state = won(loyalist, cabinet_={"president": veteran})
    assert refused(state, BALEKA, "PlaceCrony", card=loyalist, position="president") == "position-taken"


def test_social_services_is_the_service_delivery_position():
    water = crony("Water Minister")
    state = do(won(water), BALEKA, "PlaceCrony", card=water, position="social-services")
    assert cabinet(state, BALEKA) == {"service-delivery": water}
    assert (
        "service-delivery"
        in parse_catalog(
            {
                **catalog_dict(),
                "cronies": [{**catalog_dict()["cronies"][0], "positions": ["social-services"]}],
            }
        )
        .card("crony-01")
        .positions
    )


def test_a_gained_crony_must_be_placed_before_anything_else():
    mandarin = crony("Treasury Mandarin")
    state = won(mandarin).with_(table=(inf(1),))
    assert refused(state, BALEKA, "EndTurn") == "placement-pending"
    assert refused(state, THULI, "PlaceCrony", card=mandarin, position="finance") == "nothing-to-place"
    assert ENGINE.legal_commands(state, THULI) == []


def test_impossible_draws_are_rejected():
    state = fresh()
    request = ENGINE.chance(state)
    good = sorted(request.pool)[: request.draw]
    assert refused(state, None, "DrawCards", cards=good[:-1], **request.fixed) == "wrong-card-count"
    assert refused(state, None, "DrawCards", cards=good[:-1] + ["tactic-hawks-1"], **request.fixed) == (
        "card-not-in-pool"
    )
    assert (
        refused(state, None, "DrawCards", cards=[good[0]] * len(good), **request.fixed) == "card-not-in-pool"
    )
    assert (
        refused(state, None, "DrawCards", cards=good, deck="tactics", to=request.fixed["to"])
        == "wrong-chance"
    )
    assert refused(state, 0, "DrawCards", cards=good, **request.fixed) == "dealer-only"
    assert refused(state, 0, "EndTurn") == "chance-pending"
    state = build()
    assert refused(state, None, "DrawCards", cards=[cor(3)], deck="main", to=0) == "no-chance-pending"
