"""Bidding (MM-19), the end (MM-20) and the winner (MM-21)."""

import pytest

from engines.base import RuleViolation
from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.query import money

from .builders import advance, close, company, fill, new_game, run


def bidding(seats=3, **options):
    state, _ = advance(new_game(seats, **options), "bidding")
    assert state.phase == "bidding"
    return state


def test_the_highest_bidder_takes_the_first_player_marker_and_pays():
    state = bidding(3)
    state, _ = run(state, {"type": "PlaceBid", "seat": 0, "amount": 500})
    state, _ = run(state, {"type": "PlaceBid", "seat": 1, "amount": 800})
    state, _ = run(state, {"type": "PassBid", "seat": 2})
    assert state.turn == 0 and state.phase == "bidding"
    state, events = run(state, {"type": "PassBid", "seat": 0})
    chosen = next(e for e in events if e.type == ev.FIRST_PLAYER_CHOSEN).data
    assert chosen == {"seat": 1, "paid": 800}
    assert state.first == 1 and state.round == 2 and state.turn == 1
    assert [c.active for c in state.companies] == [10_000, 9_200, 10_000]


def test_the_high_bidder_is_not_asked_to_outbid_itself():
    state = bidding(2)
    state, _ = run(state, {"type": "PlaceBid", "seat": 0, "amount": 100})
    state, events = run(state, {"type": "PassBid", "seat": 1})
    assert next(e for e in events if e.type == ev.FIRST_PLAYER_CHOSEN).data == {"seat": 0, "paid": 100}


def test_a_company_that_passed_may_bid_later():
    state = bidding(3)
    state, _ = run(state, {"type": "PassBid", "seat": 0})
    state, _ = run(state, {"type": "PlaceBid", "seat": 1, "amount": 100})
    state, _ = run(state, {"type": "PassBid", "seat": 2})
    state, _ = run(state, {"type": "PlaceBid", "seat": 0, "amount": 200})
    assert state.high_bidder == 0 and state.phase == "bidding"


def test_with_no_bid_the_marker_passes_clockwise():
    state = bidding(3, first_player=2)
    for seat in (2, 0, 1):
        state, events = run(state, {"type": "PassBid", "seat": seat})
    assert next(e for e in events if e.type == ev.FIRST_PLAYER_CHOSEN).data == {"seat": 0, "paid": 0}
    assert state.first == 0


def test_a_bid_must_raise_by_multiples_of_100():
    state = bidding(2)
    state, _ = run(state, {"type": "PlaceBid", "seat": 0, "amount": 300})
    for amount, code in ((250, "bid-not-in-hundreds"), (300, "bid-too-low"), (10_100, "bid-beyond-funds")):
        with pytest.raises(RuleViolation) as refused:
            ENGINE.decide(state, {"type": "PlaceBid", "seat": 1, "amount": amount})
        assert refused.value.code == code


def test_the_game_ends_when_all_but_one_company_is_out_of_business():
    state = close(company(new_game(3), 0, active=0, invested=0), 0)
    state = close(company(state, 2, active=0, invested=0), 2)
    state, events = advance(state, "bidding")
    ended = events[-1]
    assert ended.type == ev.GAME_DECIDED and ended.data["ended_by"] == "last-company-standing"
    outcome = ENGINE.outcome(state)
    assert outcome.finished and outcome.places[1] == 1 and outcome.ended_by == "last-company-standing"


def test_the_game_ends_when_the_mansion_is_restored():
    state = new_game(2)
    for location in state.board.locations:
        state = fill(state, location.id, 0 if location.id != "tub" else 1)
    state, events = advance(state, "bidding")
    assert events[-1].data["ended_by"] == "mansion-restored" and state.phase == "over"
    assert ev.COMPANY_PAID in [e.type for e in events]  # the round's jobs are paid first


def test_the_house_rule_ends_the_game_after_max_rounds():
    state = new_game(2, max_rounds=2)
    state, _ = advance(state, "bidding")
    state, _ = run(state, {"type": "PassBid", "seat": 0})
    state, _ = run(state, {"type": "PassBid", "seat": 1})
    assert state.round == 2
    state, events = advance(state, "bidding")
    assert state.phase == "over" and events[-1].data["ended_by"] == "round-limit"
    assert ENGINE.legal_commands(state, 0) == [] and ENGINE.chance(state) is None
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "PassBid", "seat": 0})
    assert refused.value.code == "game-over"


def test_money_is_active_plus_invested_minus_debts():
    state = company(new_game(2), 0, active=3000, invested=5000, debts=("gasman", "stone"))
    assert money(state, 0) == 3000 + 5000 - 6000 - 500


def test_the_most_money_wins_and_job_cards_break_a_tie():
    state = company(new_game(3, max_rounds=1), 0, active=5000, invested=0, jobs=("job-stove",))
    state = company(state, 1, active=5000, invested=0)
    state = company(state, 2, active=2000, invested=0)
    state, events = advance(state, "bidding")
    assert events[-1].data["places"] == [1, 2, 3]
    assert ENGINE.outcome(state).places == (1, 2, 3)


def test_places_rank_companies_still_in_business_first():
    state = company(new_game(3, max_rounds=1), 0, active=0, invested=0)
    state = close(state, 0)
    state = company(state, 1, active=50_000, invested=0)
    state = close(state, 1)
    state, events = advance(state, "bidding")
    assert events[-1].data["ended_by"] == "round-limit"
    statuses = [c.status.status for c in state.companies]
    assert statuses == ["out", "closed", "open"]
    assert ENGINE.outcome(state).places == (3, 1, 2)
