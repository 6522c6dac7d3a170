"""Changing one seat's record inside an immutable state's tuple of records."""

from __future__ import annotations

from typing import Any, TypeVar

from engines.kit.frozen import replace

T = TypeVar("T")


def replace_at(items: tuple[T, ...], index: int, **changes: Any) -> tuple[T, ...]:
    """``items`` with ``items[index]`` replaced by a copy carrying ``changes``."""
    return (*items[:index], replace(items[index], **changes), *items[index + 1 :])


def add_at(items: tuple[T, ...], index: int, name: str, amount: int = 1) -> tuple[T, ...]:
    """``items`` with the counter ``name`` of ``items[index]`` raised by ``amount``."""
    return replace_at(items, index, **{name: getattr(items[index], name) + amount})
