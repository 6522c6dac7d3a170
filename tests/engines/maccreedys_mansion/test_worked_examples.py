"""The arithmetic the rulebook's numbers give (wave-2 notes, 3(b)); the rulebook prints no example."""

from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.flow import payment
from engines.maccreedys_mansion.query import dividend

from .builders import advance, close, company, marks, new_game, run


def test_a_mason_and_a_gasman_cost_8000_in_wages():
    state = company(new_game(2), 0, hired=(0, 1, 0, 0, 1))
    assert payment(state, 0)["wages"] == 8000


def test_two_stone_and_one_wiring_cost_2000():
    state = company(new_game(2), 0, dedicated=(2, 0, 1, 0))
    assert payment(state, 0)["vendors"] == 2000


def test_dividends_on_20000_are_2000_and_on_900_nothing_can_be_collected():
    assert dividend(20_000) == 2000
    assert dividend(900) == 90 < 100


def test_a_5000_job_completed_by_two_companies_pays_2500_each_even_on_a_tie():
    state = marks(new_game(2), ("front-door-1", 0), ("front-door-2", 1))
    state, events = advance(state, "bankruptcy")
    result = next(e for e in events if e.type == ev.JOBS_INSPECTED).data["results"][0]
    assert result["owner"] is None and result["pay"] == [[0, 2500], [1, 2500]]


def test_a_closed_company_with_nothing_active_and_20000_invested_liquidates_and_may_reopen():
    state = close(company(new_game(2), 0, active=0, invested=20_000), 0)
    state, events = advance(state, "re-open")
    assert [e.data for e in events if e.type == ev.INVESTMENT_LIQUIDATED] == [
        {"seat": 0, "amount": 20_000, "forced": True}
    ]
    assert state.companies[0].active == 20_000
    state, _ = run(state, {"type": "Reopen", "seat": 0})
    assert state.companies[0].status.is_open
