"""The end of the game: the final round and the vote."""

from engines.house_of_cronies import ENGINE
from engines.house_of_cronies.catalog import SHEBEEN

from .builders import (
    BALEKA,
    JACOB,
    PRAVIN,
    THULI,
    act,
    build,
    crony,
    do,
    everyone_passes,
    inf,
    refused,
    tactic,
    types,
)

SIX = [
    "Party Loyalist",
    "Union Boss",
    "Treasury Mandarin",
    "Prosecutions Boss",
    "Housing Minister",
    "Spin Doctor",
]
POSITIONS = ["president", "vice-president", "finance", "justice", "service-delivery", "communications"]


def full_cabinet(names=SIX):
    return {p: crony(n) for p, n in zip(POSITIONS, names, strict=True)}


def last_turn_of_a_round(seats=4, deck=(), **kwargs):
    """The last player of a round (Thuli, Pravin being the Speaker) ends their turn, and
    everyone passes in the next round's Motion of no confidence window (if it needs no draw)."""
    speaker = PRAVIN if seats == 4 else 2
    last = (speaker - 1) % seats
    state = build(
        seats, speaker=speaker, turn=last, gained=list(range(seats)), main_deck=list(deck), **kwargs
    )
    return everyone_passes(do(state, last, "EndTurn"))


def test_the_final_round_starts_when_the_deck_cannot_fill_the_table():
    state = last_turn_of_a_round(deck=[inf(1), inf(2), inf(3), inf(4)])
    assert state.final and ENGINE.chance(state) is None and state.turn == JACOB
    state = last_turn_of_a_round(seats=3, deck=[inf(1), inf(2), inf(3), inf(4)])
    assert not state.final and ENGINE.chance(state).draw == 4


def test_the_final_round_starts_when_the_deck_is_empty():
    state = last_turn_of_a_round(deck=[])
    assert state.final


def test_in_the_final_round_players_only_buy_and_play_tactics():
    state = last_turn_of_a_round(
        hands={JACOB: [inf(5)]},
        tactics={JACOB: [tactic(SHEBEEN)]},
        cabinets={JACOB: {"president": crony("Party Loyalist")}},
    )
    assert refused(state, JACOB, "PickUpCard", card=inf(1)) == "final-round"
    assert refused(state, JACOB, "PlaceBid", card=crony("Union Boss"), cards=[inf(5)]) == "final-round"
    kinds = {c["type"] for c in ENGINE.legal_commands(state, JACOB)}
    assert kinds == {"BuyTactics", "PlayTactic", "EndTurn"}
    state = do(state, JACOB, "EndTurn")  # no card needed
    assert state.turn == BALEKA


def test_the_vote_follows_the_final_round():
    state = last_turn_of_a_round()
    for seat in (JACOB, BALEKA, THULI):
        state = do(state, seat, "EndTurn")
    state, events = act(state, PRAVIN, "EndTurn")
    assert types(events)[-1] == "GameDecided" and ENGINE.outcome(state).finished
    assert refused(state, PRAVIN, "EndTurn") == "game-over"
    assert ENGINE.legal_commands(state, PRAVIN) == []


def finish(state):
    for seat in (JACOB, BALEKA, THULI, PRAVIN):
        state = do(state, seat, "EndTurn")
    return state


def test_votes_are_the_cronies_and_allys_votes_minus_two_without_six_cronies():
    ally = crony("The Gulf Investor")  # 3 votes
    cabinets = {
        BALEKA: {**full_cabinet(), "foreign-ally": ally},  # 1+2+3+3+3+2 + 3
        THULI: {"president": crony("Tenderpreneur")},  # -2, not full: -2
    }
    state = finish(last_turn_of_a_round(cabinets=cabinets))
    assert state.votes == (17, -4, -2, -2)
    assert ENGINE.outcome(state).scores == (17.0, -4.0, -2.0, -2.0)


def test_a_missing_foreign_ally_is_not_penalised():
    state = finish(last_turn_of_a_round(cabinets={BALEKA: full_cabinet()}))
    assert state.votes[BALEKA] == 14


def test_equal_totals_share_the_win():
    other = [
        "Deputy Minister of Nothing",
        "Provincial Premier",
        "Reserve Bank Hopeful",
        "Police Commissioner",
        "Water Minister",
        "State Broadcaster Boss",
    ]  # 0+3+2+2+2+1 = 10
    first = [
        "Party Loyalist",
        "Union Boss",
        "Tenderpreneur",
        "Prosecutions Boss",
        "Housing Minister",
        "Spin Doctor",
    ]
    # 1+2-2+3+3+2 = 9, plus a 1-vote ally = 10
    cabinets = {
        BALEKA: {**full_cabinet(first), "foreign-ally": crony("The Northern Neighbour")},
        PRAVIN: full_cabinet(other),
    }
    state = finish(last_turn_of_a_round(cabinets=cabinets))
    outcome = ENGINE.outcome(state)
    assert outcome.scores[BALEKA] == outcome.scores[PRAVIN] == 10
    assert outcome.places == (1, 3, 1, 3)
