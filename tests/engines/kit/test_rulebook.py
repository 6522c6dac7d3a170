"""``Rulebook``: a game declared once is the engine the service plays."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from engines.base import ChanceRequest, Engine, Event, GameConfig, Outcome, RuleViolation
from engines.kit import Rulebook, rulebook
from engines.kit import shapes as v
from engines.kit.items import Record
from engines.kit.state_schema import kept_out, shaped


@dataclass(frozen=True)
class Count(Record):
    seats: int = shaped(v.count())
    total: int = shaped(v.count(), default=0)
    rolling: bool = shaped(v.boolean(), default=False)
    name: str = kept_out(default="")


def count_up(state: Count, event: Event) -> Count:
    if event.type == "RollCalled":
        return state.with_(rolling=True)
    return state.with_(total=state.total + event.data["by"], rolling=False)


def up_to_ten(state: Count) -> list[Event]:
    return [Event("CountedUp", {"by": 1})] if 5 <= state.total < 10 else []


def chance(state: Count) -> ChanceRequest | None:
    return ChanceRequest(command="Roll", dice=1) if state.rolling else None


def describe(event: Event, names) -> str:
    return f"{names[event.data['seat']]} counts {event.data['by']}." if "seat" in event.data else "Counted."


COUNTING = Rulebook(
    id="counting",
    title="Counting (a test game)",
    short_title="Counting",
    version="1",
    min_seats=2,
    max_seats=2,
    commands={
        "Count": lambda state, command: [Event("CountedUp", {"by": command["by"], "seat": command["seat"]})],
        "CallRoll": lambda state, command: [Event("RollCalled")],
    },
    chance_commands={"Roll": lambda state, command: [Event("CountedUp", {"by": command["dice"][0]})]},
    automatic=up_to_ten,
    is_over=lambda state: state.total >= 12,
    evolve=count_up,
    chance=chance,
    initial_state=lambda config: Count(seats=config.seats, total=config.options["from"], name="ours"),
    opening=lambda state, config: [Event("CountedUp", {"by": 0})],
    state_class=Count,
    kept_out=lambda config: {"name": "ours"},
    legal_commands=lambda state, seat: [],
    view=lambda state, seat: {"total": state.total},
    describe=describe,
    table=lambda state, viewer, names: {},
    heading=lambda state, names: ("", ""),
    outcome=lambda state: Outcome(finished=state.total >= 12),
    luck=lambda state, event: {},
    statistics=lambda state: {},
    awaited_label=lambda state, command, names: "The die is rolled",
)


def test_a_rulebook_is_an_engine():
    assert isinstance(COUNTING, Engine)


def test_a_rulebook_guards_judges_and_settles():
    assert [e.data["by"] for e in COUNTING.decide(Count(2, 5), {"type": "Count", "seat": 1, "by": 3})] == [
        3,
        1,
        1,
    ]
    with pytest.raises(RuleViolation) as refusal:
        COUNTING.decide(Count(2, 12), {"type": "Count", "seat": 1, "by": 3})
    assert refusal.value.code == "game-over"


def test_a_rulebook_names_the_game_by_its_short_title_in_refusals():
    with pytest.raises(RuleViolation) as refusal:
        COUNTING.decide(Count(2), {"type": "Shout", "seat": 0})
    assert refusal.value.message == "Counting has no command 'Shout'."


def test_the_seats_of_the_state_are_the_seats_a_command_may_name():
    with pytest.raises(RuleViolation) as refusal:
        COUNTING.decide(Count(2), {"type": "Count", "seat": 2, "by": 1})
    assert refusal.value.code == "no-such-seat"


def test_the_functions_a_game_supplies_are_its_engine_methods():
    assert COUNTING.evolve is count_up
    assert COUNTING.chance(Count(2, rolling=True)) == ChanceRequest(command="Roll", dice=1)


def test_the_opening_events_are_settled():
    events = COUNTING.setup(GameConfig(2, {"from": 7}))
    assert [e.data["by"] for e in events] == [0, 1, 1, 1]


def test_without_an_opening_a_game_starts_with_no_event():
    plain = dataclasses.replace(COUNTING, opening=rulebook.no_opening)
    assert plain.setup(GameConfig(2, {"from": 0})) == []


def test_every_event_is_seen_whole_unless_the_game_redacts_it():
    event = Event("CountedUp", {"by": 2})
    assert COUNTING.redact(event, 1) is event


def test_the_state_is_dumped_through_its_dataclass_and_its_kept_out_fields_come_from_the_config():
    state = Count(2, 4, True, name="ours")
    data = COUNTING.dump_state(state)
    assert data == {"seats": 2, "total": 4, "rolling": True}
    assert COUNTING.load_state(data, GameConfig(2)) == state


def test_a_command_is_labelled_as_the_log_line_it_would_write():
    names = ["Ann", "Bo"]
    assert COUNTING.label(Count(2), {"type": "Count", "seat": 1, "by": 2}, names) == "Bo counts 2"
    assert (
        COUNTING.label(Count(2, rolling=True), {"type": "Roll", "seat": None}, names) == "The die is rolled"
    )
    assert COUNTING.label_value is None


def test_a_catalog_kept_out_of_the_dump_is_parsed_from_the_config():
    kept = rulebook.catalog_kept_out(lambda catalog: catalog["name"], field="name")
    assert kept(GameConfig(2, catalog={"name": "ours"})) == {"name": "ours"}
