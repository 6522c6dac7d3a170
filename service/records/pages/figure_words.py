"""Figures in members' words: counts with their plural, numbers rounded as
people round them, and the engines' own merged figures (see
``league_figures.merge_engine_stats``) as labelled lines, players by name."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from service.records.scorepad.labels import words


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 game``, ``2 games``, ``0 games``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def amount(value: float | None) -> str:
    """A figure as people say it: whole numbers whole, small ones to one decimal, others to none."""
    if value is None:
        return "–"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:.1f}" if abs(value) < 10 else f"{value:,.0f}"


def duration(minutes: float | None) -> str:
    """``45 min``, ``1 h 20 min``; ``under a minute``."""
    if minutes is None:
        return "–"
    whole = round(minutes)
    if whole < 1:
        return "under a minute"
    hours, rest = divmod(whole, 60)
    if not hours:
        return f"{rest} min"
    return f"{hours} h {rest} min" if rest else f"{hours} h"


def _item(key: str) -> str:
    try:
        value = json.loads(key)
    except ValueError:
        return words(key)
    return words(str(value)) if not isinstance(value, list | dict) else ", ".join(map(str, value))


def figure(value: Any) -> str:
    """One merged figure as a phrase."""
    if isinstance(value, Mapping) and {"total", "mean", "games"} <= set(value):
        return (
            f"{amount(value['mean'])} a game ({amount(value['total'])} in {plural(value['games'], 'game')})"
        )
    if isinstance(value, Mapping) and set(value) == {"counts"}:
        return ", ".join(f"{_item(k)} ({n}×)" for k, n in value["counts"].items()) or "none"
    return amount(value) if isinstance(value, int | float) else str(value)


def lines(figures: Mapping[str, Any] | None, prefix: str = "") -> list[dict[str, str]]:
    """Labelled lines of merged figures, nested ones labelled "Outer: inner"."""
    out: list[dict[str, str]] = []
    for key, value in (figures or {}).items():
        label = f"{prefix}{words(key)}"
        if isinstance(value, Mapping) and not (
            {"total", "mean", "games"} <= set(value) or set(value) == {"counts"}
        ):
            out.extend(lines(value, f"{label}: "))
        elif value is not None:
            out.append({"label": label, "value": figure(value)})
    return out


def engine_figures(merged: Mapping[str, Any] | None, names: Mapping[str, str]) -> dict[str, Any]:
    """An engine's merged figures for a page: the games', every seat's, and each player's (by name)."""
    merged = dict(merged or {})
    seats = merged.pop("seats", None) or {}
    players = [
        {"player": player, "name": names.get(player) or "A former player", "lines": lines(figures)}
        for player, figures in (seats.get("by_player") or {}).items()
    ]
    players.sort(key=lambda p: p["name"])
    return {"games": lines(merged), "seats": lines(seats.get("all")), "players": players}
