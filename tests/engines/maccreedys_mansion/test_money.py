"""Bankruptcy (MM-15), Investments (MM-16), Settle Up (MM-17) and Re-Open (MM-18)."""

import pytest

from engines.base import RuleViolation
from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.flow import actor

from .builders import advance, close, company, new_game, run


def test_a_company_with_nothing_left_closes():
    state = company(new_game(2), 0, active=1000, hired=(1, 0, 0, 0, 0))
    state, events = advance(state, "investments")
    assert ev.COMPANY_CLOSED in [e.type for e in events]
    assert state.companies[0].status.status == "closed" and state.companies[1].status.is_open


def test_a_company_with_one_dollar_is_not_bankrupt():
    state = company(new_game(2), 0, active=1001, hired=(1, 0, 0, 0, 0))
    state, _ = advance(state, "investments")
    assert state.companies[0].status.is_open


def test_dividends_are_ten_percent_and_at_least_100():
    state, _ = advance(new_game(2), "investments")
    state, events = run(state, {"type": "CollectDividends", "seat": 0})
    assert events[0].data == {"seat": 0, "amount": 2000} and state.companies[0].active == 12_000
    poor = company(state, 1, invested=900)
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(poor, {"type": "CollectDividends", "seat": 1})
    assert refused.value.code == "dividend-below-100"
    assert {"type": "CollectDividends", "seat": 1} not in ENGINE.legal_commands(poor, 1)


def test_a_company_with_no_investment_cannot_collect_or_liquidate():
    state, _ = advance(company(new_game(2), 0, invested=0), "investments")
    for kind, code in (("CollectDividends", "dividend-below-100"), ("LiquidateInvestment", "no-investment")):
        with pytest.raises(RuleViolation) as refused:
            ENGINE.decide(state, {"type": kind, "seat": 0})
        assert refused.value.code == code


def test_a_company_takes_one_investment_option():
    state, _ = advance(new_game(2), "investments")
    state, _ = run(state, {"type": "Invest", "seat": 0, "amount": 4000})
    assert (state.companies[0].active, state.companies[0].invested) == (6000, 24_000)
    assert actor(state) == 1
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "CollectDividends", "seat": 0})
    assert refused.value.code == "not-your-turn"


def test_an_investment_is_any_amount_of_the_active_funds():
    state, _ = advance(new_game(2), "investments")
    for amount in (0, 10_001):
        with pytest.raises(RuleViolation) as refused:
            ENGINE.decide(state, {"type": "Invest", "seat": 0, "amount": amount})
        assert refused.value.code == "amount-out-of-range"
    state, _ = run(state, {"type": "Invest", "seat": 0, "amount": 10_000})
    assert state.companies[0].active == 0


def test_a_closed_company_must_liquidate():
    state = company(new_game(2), 0, active=0)
    state, events = advance(close(state, 0), "settle-up")
    forced = [e.data for e in events if e.type == ev.INVESTMENT_LIQUIDATED]
    assert forced == [{"seat": 0, "amount": 20_000, "forced": True}]
    assert (state.companies[0].active, state.companies[0].invested) == (20_000, 0)


def test_a_company_with_funds_pays_its_debts():
    state = company(new_game(2), 1, debts=("gasman", "stone"), active=10_000)
    state, _ = advance(state, "settle-up")
    assert actor(state) == 1
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "PayDebt", "seat": 1, "item": "mason"})
    assert refused.value.code == "no-such-debt"
    state, events = run(state, {"type": "PayDebt", "seat": 1, "item": "gasman"})
    assert events[0].data == {"seat": 1, "item": "gasman", "amount": 6000}
    assert state.companies[1].debts == ("stone",) and state.companies[1].active == 4000
    state, _ = run(state, {"type": "FinishSettling", "seat": 1})
    assert state.phase != "settle-up"


def test_a_debt_costs_more_than_the_funds_cannot_be_paid():
    state = company(new_game(2), 1, debts=("gasman", "stone"), invested=0)
    state, _ = advance(state, "investments")
    state, _ = run(state, {"type": "Invest", "seat": 0, "amount": 1})
    state, _ = run(state, {"type": "Invest", "seat": 1, "amount": 9400})
    assert state.phase == "settle-up" and actor(state) == 1
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(state, {"type": "PayDebt", "seat": 1, "item": "gasman"})
    assert refused.value.code == "cannot-afford"
    assert [c["item"] for c in ENGINE.legal_commands(state, 1) if c["type"] == "PayDebt"] == ["stone"]


def test_a_closed_company_with_one_dollar_may_reopen():
    state = close(company(new_game(2), 0, active=1, invested=0), 0)
    state, _ = advance(state, "re-open")
    assert actor(state) == 0
    assert {c["type"] for c in ENGINE.legal_commands(state, 0)} == {"Reopen", "StayClosed"}
    reopened, _ = run(state, {"type": "Reopen", "seat": 0})
    assert reopened.companies[0].status.is_open
    stayed, _ = run(state, {"type": "StayClosed", "seat": 0})
    assert stayed.companies[0].status.status == "closed"


def test_a_closed_company_with_nothing_is_closed_for_good():
    state = close(company(new_game(3), 0, active=0, invested=0), 0)
    state, events = advance(state, "bidding")
    assert ev.COMPANY_CLOSED_FOR_GOOD in [e.type for e in events]
    assert state.companies[0].status.status == "out"


def test_an_open_company_with_nothing_active_stays_open_at_reopen():
    state, _ = advance(new_game(2), "investments")
    state, _ = run(state, {"type": "Invest", "seat": 0, "amount": 10_000})
    state, events = run(state, {"type": "PassInvestments", "seat": 1})
    state, more = advance(state, "bidding")
    events += more
    assert state.companies[0].status.is_open and ev.COMPANY_CLOSED_FOR_GOOD not in [e.type for e in events]
