"""The projections the workers keep, by name."""

from __future__ import annotations

from workers.projections.replays import Replays
from workers.projections.standings import Standings
from workers.projections.statistics import Statistics

PROJECTIONS = {p.name: p for p in (Standings(), Replays(), Statistics())}


def get(name: str):
    return PROJECTIONS[name]
