"""Changing an immutable state, or one seat's record inside its tuple of records."""

from __future__ import annotations

from typing import Any, Self, TypeVar

from engines.kit.frozen import replace

T = TypeVar("T")


def replace_at(items: tuple[T, ...], index: int, **changes: Any) -> tuple[T, ...]:
    """``items`` with ``items[index]`` replaced by a copy carrying ``changes``."""
    return (*items[:index], replace(items[index], **changes), *items[index + 1 :])


def add_at(items: tuple[T, ...], index: int, name: str, amount: int = 1) -> tuple[T, ...]:
    """``items`` with the counter ``name`` of ``items[index]`` raised by ``amount``."""
    return replace_at(items, index, **{name: getattr(items[index], name) + amount})


class Record:
    """A game state, a frozen dataclass: ``with_`` is a copy with ``changes``."""

    def with_(self, **changes: Any) -> Self:
        return replace(self, **changes)


class SeatedRecord(Record):
    """A game state that keeps each seat's record in ``players`` and its
    counters in ``stats``, both tuples in seat order."""

    def with_player(self, seat: int, **changes: Any) -> Self:
        return replace(self, players=replace_at(self.players, seat, **changes))

    def with_stat(self, seat: int, name: str, add: int = 1) -> Self:
        return replace(self, stats=add_at(self.stats, seat, name, add))
