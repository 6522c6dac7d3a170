"""``replace``: a frozen record with some fields changed, as ``dataclasses.replace`` gives."""

import dataclasses
from dataclasses import dataclass, field

import pytest

from engines.kit.frozen import replace


@dataclass(frozen=True)
class Seat:
    name: str
    score: int = 0
    hand: tuple[str, ...] = ()


def test_a_replaced_record_equals_the_one_dataclasses_replace_builds():
    seat = Seat("Ann", 3, ("a",))
    assert replace(seat, score=5) == dataclasses.replace(seat, score=5) == Seat("Ann", 5, ("a",))
    assert hash(replace(seat, score=5)) == hash(Seat("Ann", 5, ("a",)))


def test_the_original_record_is_untouched():
    seat = Seat("Ann", 3)
    replace(seat, score=9)
    assert seat == Seat("Ann", 3)


def test_a_replaced_record_stays_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(Seat("Ann"), score=1).score = 2


def test_an_unknown_field_is_refused():
    with pytest.raises(TypeError, match="no field 'points'"):
        replace(Seat("Ann"), points=1)


def test_a_record_that_computes_fields_itself_is_refused():
    @dataclass(frozen=True)
    class Derived:
        a: int
        b: int = field(init=False, default=0)

    with pytest.raises(TypeError, match="not a plain record"):
        replace(Derived(1), a=2)
