"""A state written once: its schema, dump and load come from its dataclass."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from engines.kit import shapes as v
from engines.kit.state_schema import dump, kept_out, load, shaped, state_schema, tagged_schema
from engines.pig import GAME as PIG
from engines.pig.state import PigState


@dataclass(frozen=True)
class Hand:
    seat: int = shaped(v.seat())
    cards: tuple[str, ...] = shaped(v.array(v.string()))


@dataclass(frozen=True)
class Table:
    round: int = shaped(v.count())
    hands: tuple[Hand, ...] = shaped(v.array(v.nested(state_schema(Hand))))
    last: tuple[int, str] | None = shaped(v.row(v.seat(), v.string(), null=True), default=None)
    winner: int | None = shaped(v.seat(null=True), default=None)


@dataclass(frozen=True)
class Stamp:
    """A record with its own plain JSON."""

    mark: str

    def to_json(self) -> dict:
        return {"stamp": self.mark}

    @classmethod
    def from_json(cls, data: dict) -> Stamp:
        return cls(data["stamp"])


@dataclass(frozen=True)
class Roll:
    dice: int = shaped(v.count())


@dataclass(frozen=True)
class Deal:
    cards: int = shaped(v.count())


@dataclass(frozen=True)
class Desk:
    rules: object = kept_out()
    round: int = shaped(v.count())
    stamp: Stamp = shaped(v.mapping(v.string()))
    waiting: tuple[Roll | Deal, ...] = shaped(v.array(v.mapping(v.integer())), default=())


def test_a_state_goes_through_json_and_back_unchanged():
    table = Table(2, (Hand(0, ("a", "b")), Hand(1, ())), (1, "b"))
    data = json.loads(json.dumps(dump(table)))
    assert data == {
        "round": 2,
        "hands": [{"seat": 0, "cards": ["a", "b"]}, {"seat": 1, "cards": []}],
        "last": [1, "b"],
        "winner": None,
    }
    assert load(Table, data) == table


def test_the_schema_has_exactly_the_dataclass_fields_and_checks_a_dump():
    schema = state_schema(Table)
    assert schema.__name__ == "Table"
    assert list(schema().fields) == [f.name for f in dataclasses.fields(Table)]
    assert schema().validate(dump(Table(1, ()))) == {}
    assert "round" in schema().validate({**dump(Table(1, ())), "round": -1})


def test_pigs_published_state_is_its_dataclass():
    assert PIG.state is PIG.views[0]
    assert list(PIG.state().fields) == [f.name for f in dataclasses.fields(PigState)]
    state = PigState(seats=2, target=30, scores=(12, 7), turn=1, turn_total=4, rolling=True)
    data = json.loads(json.dumps(PIG.engine.dump_state(state)))
    assert PIG.state().validate(data) == {}
    assert PIG.engine.load_state(data, None) == state


def test_a_kept_out_field_is_neither_published_nor_dumped_and_load_takes_it():
    desk = Desk(rules={"deck": 52}, round=3, stamp=Stamp("x"), waiting=(Deal(2), Roll(1)))
    assert list(state_schema(Desk)().fields) == ["round", "stamp", "waiting"]
    data = json.loads(json.dumps(dump(desk)))
    assert data == {
        "round": 3,
        "stamp": {"stamp": "x"},
        "waiting": [{"kind": "deal", "cards": 2}, {"kind": "roll", "dice": 1}],
    }
    assert load(Desk, data, rules={"deck": 52}) == desk


def test_a_record_of_a_union_is_published_with_its_kind():
    schema = tagged_schema(Deal)
    assert list(schema().fields) == ["kind", "cards"]
    assert schema().validate(dump(Desk(None, 1, Stamp("x"), (Deal(2),)))["waiting"][0]) == {}
    assert "kind" in schema().validate({"kind": "roll", "cards": 2})
