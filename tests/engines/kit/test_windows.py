"""Windows: every seat in the list answers before the game goes on."""

import pytest

from engines.base import Event, RuleViolation
from engines.kit import windows as w


def opened(seats=(0, 1, 2)):
    return w.evolve_window(None, w.open_window("roll", seats))


def test_a_window_waits_for_every_seat_it_names():
    window = opened()
    assert window.waiting == (0, 1, 2) and w.closing(window) == []
    assert w.pass_commands(window, 1) == [{"type": "PassWindow", "seat": 1}]


def test_it_closes_with_one_event_once_everyone_has_passed():
    window = opened()
    for seat in (2, 0, 1):
        (event,) = w.decide_pass(window, seat)
        window = w.evolve_window(window, event)
    assert w.closing(window) == [Event("WindowClosed", {"kind": "roll"})]
    assert w.evolve_window(window, w.closing(window)[0]) is None


def test_an_any_time_action_reopens_it_for_everyone_else():
    window = opened().passing(0).passing(1)
    assert window.reopened(2).waiting == (0, 1)
    assert window.reopened(None).waiting == (0, 1, 2)


def test_a_seat_passes_once_and_only_in_a_window_that_waits_for_it():
    window = opened((0, 1)).passing(0)
    with pytest.raises(RuleViolation) as passed:
        w.decide_pass(window, 0)
    with pytest.raises(RuleViolation) as outside:
        w.decide_pass(window, 3)
    with pytest.raises(RuleViolation) as none:
        w.decide_pass(None, 0)
    assert (passed.value.code, outside.value.code, none.value.code) == (
        "already-passed",
        "not-in-window",
        "no-window-open",
    )
    assert w.pass_commands(window, 0) == []


def test_other_events_leave_a_window_as_it_is_and_it_survives_json():
    window = opened().passing(1)
    assert w.evolve_window(window, Event("SomethingElse", {})) == window
    assert w.Window.load(window.dump()) == window and w.Window.load(None) is None


def test_each_window_event_has_a_line():
    names = ["Ann", "Bo", "Cy"]
    kinds = {"roll": "the attack roll"}
    lines = [
        w.describe(e, names, kinds)
        for e in (
            w.open_window("roll", [0]),
            Event("WindowPassed", {"kind": "roll", "seat": 1}),
            Event("WindowClosed", {"kind": "roll"}),
        )
    ]
    assert lines[1] == "Bo passes before the attack roll." and all(
        "the attack roll" in line for line in lines
    )
