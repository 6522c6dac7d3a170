"""Inspection (MM-11) and Earnings (MM-12 to MM-14)."""

from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.flow import split

from .builders import advance, company, marks, new_game


def inspected(events):
    return next(e for e in events if e.type == ev.JOBS_INSPECTED).data["results"]


def paid(events, seat):
    return next(e for e in events if e.type == ev.COMPANY_PAID and e.data["seat"] == seat).data


def test_the_job_goes_to_the_largest_contributor():
    state = marks(new_game(2), ("shelves-1", 0), ("shelves-2", 0), ("shelves-3", 1))
    state, events = advance(state, "bankruptcy")
    assert inspected(events) == [
        {"job": "job-shelves", "name": "Restore the shelves", "owner": 0, "pay": [[0, 3500], [1, 3500]]}
    ]
    assert state.companies[0].jobs == ("job-shelves",) and "job-shelves" not in state.track
    assert paid(events, 0)["jobs"] == 3500 and paid(events, 1)["jobs"] == 3500


def test_a_tied_job_goes_to_nobody_but_is_still_paid():
    state = marks(new_game(2), ("front-door-1", 0), ("front-door-2", 1))
    state, events = advance(state, "bankruptcy")
    assert inspected(events) == [
        {
            "job": "job-front-door",
            "name": "Restore the front door",
            "owner": None,
            "pay": [[0, 2500], [1, 2500]],
        }
    ]
    assert "job-front-door" in state.job_done and all(c.jobs == () for c in state.companies)
    assert [c.active for c in state.companies] == [12_500, 12_500]


def test_a_company_alone_in_a_location_completes_the_job():
    state = marks(new_game(2), ("hearth-1", 1), ("hearth-2", 1))
    state, events = advance(state, "bankruptcy")
    assert inspected(events) == [
        {"job": "job-hearth", "name": "Restore the hearth", "owner": 1, "pay": [[1, 8000]]}
    ]
    assert state.companies[1].active == 18_000


def test_a_completed_location_without_its_job_on_the_track_earns_nothing():
    state = marks(new_game(2), ("bay-window-1", 0), ("bay-window-2", 0))
    _, events = advance(state, "bankruptcy")
    assert inspected(events) == []


def test_the_track_refills_after_inspection():
    state = marks(new_game(2), ("hearth-1", 1), ("hearth-2", 1))
    state, events = advance(state, "earnings")
    draws = [e.data["card"] for e in events if e.type == ev.JOB_DRAWN]
    assert len(draws) == 1 and len(state.track) == 5 and "job-hearth" not in state.track


def test_an_uneven_split_favours_the_largest_contributors():
    assert split(10, {0: 1, 1: 3, 2: 1}, [0, 1, 2]) == [[1, 4], [0, 3], [2, 3]]
    assert split(7000, {0: 1, 1: 1, 2: 1}, [1, 2, 0]) == [[1, 2334], [2, 2333], [0, 2333]]
    state = marks(new_game(3, first_player=1), ("shelves-1", 0), ("shelves-2", 1), ("shelves-3", 2))
    _, events = advance(state, "bankruptcy")
    assert inspected(events)[0]["pay"] == [[1, 2334], [2, 2333], [0, 2333]]


def test_an_unpaid_wage_becomes_a_debt_marker():
    state = company(new_game(2), 0, active=1500, hired=(1, 1, 0, 0, 0))
    state, events = advance(state, "bankruptcy")
    row = paid(events, 0)
    assert (row["wages"], row["wage_debts"]) == (1000, ["mason"])
    assert state.companies[0].debts == ("mason",) and state.companies[0].active == 500


def test_an_unpaid_resource_becomes_a_debt_marker_after_the_wages():
    state = company(new_game(2), 0, active=1200, hired=(1, 0, 0, 0, 0), dedicated=(1, 0, 1, 0))
    state, events = advance(state, "bankruptcy")
    row = paid(events, 0)
    assert (row["wages"], row["vendors"], row["vendor_debts"]) == (1000, 0, ["stone", "wiring"])
    assert state.companies[0].active == 200


def test_workers_return_to_the_supply_after_earnings():
    state = company(new_game(2), 0, hired=(2, 0, 0, 0, 1))
    state, _ = advance(state, "bankruptcy")
    assert state.companies[0].hired == (0, 0, 0, 0, 0)
    assert ENGINE.view(state, None)["companies"][0]["hired"]["gasman"] == 0
