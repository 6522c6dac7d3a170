"""Seating a tournament round: every player present at one table of a size the
game allows, by tournament standing, meeting the same opponents as rarely as
possible.

A round is scored lexicographically, most important first:

1. repeat meetings: for every two players at one table, how often they have
   already met (two who met twice count 2);
2. short tables twice running: players at a table smaller than the round's
   largest who also sat at one last round;
3. the spread of standings: for every table, the distance between its best and
   its worst seed, so that players of like standing meet (the Swiss idea, at
   tables rather than in pairs).

The search starts from the tables filled in seeding order (the largest tables
first, so the short ones fall to the bottom of the field) and swaps two players
of different tables while a swap lowers the score (a local search: on fields of
up to twelve its repeat meetings are within one of the fewest possible, which
the tests check against a brute-force search). Every step is deterministic: the same field always gets the same tables.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: The most players one round seats: the search's work grows with the square.
MOST_PLAYERS = 120


@dataclass(frozen=True)
class Field:
    """Who is to be seated, best seed first (tournament score, then rating)."""

    players: tuple[str, ...]
    min_seats: int
    max_seats: int
    #: How many times two players have met, keyed by the pair.
    met: Mapping[frozenset[str], int] = field(default_factory=dict)
    #: Who sat at a short table in the round before.
    short_last_round: frozenset[str] = frozenset()
    #: How many rounds each player has sat out.
    sat_out: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Round:
    tables: tuple[tuple[str, ...], ...]
    sitting_out: tuple[str, ...]


@dataclass(frozen=True, order=True)
class Cost:
    repeats: int
    short_twice: int
    spread: int


def table_sizes(players: int, min_seats: int, max_seats: int) -> tuple[int, ...] | None:
    """The fewest tables that seat everyone, as even as they can be (largest
    first); None when no tables of legal sizes seat exactly this many."""
    if players <= 0:
        return None
    tables = -(-players // max_seats)
    small, larger = divmod(players, tables)
    if small < min_seats:
        return None
    return (small + 1,) * larger + (small,) * (tables - larger)


def seat(field: Field) -> Round:
    """The round's tables, and who sits it out when the field cannot be seated whole."""
    if len(field.players) > MOST_PLAYERS:
        raise ValueError(f"A round seats at most {MOST_PLAYERS} players.")
    if len(set(field.players)) != len(field.players):
        raise ValueError("A player is seated once a round.")
    seated, sitting_out = _sitting_out(field)
    sizes = table_sizes(len(seated), field.min_seats, field.max_seats)
    if sizes is None:
        return Round((), tuple(field.players))
    seed = {p: i for i, p in enumerate(field.players)}
    tables = _improve(_fill(seated, sizes), field)
    return Round(tuple(tuple(sorted(t, key=seed.__getitem__)) for t in tables), sitting_out)


def cost(tables: Sequence[Sequence[str]], field: Field) -> Cost:
    seed = {p: i for i, p in enumerate(field.players)}
    return Cost(*map(sum, zip(*(_table_cost(t, field, seed, _largest(tables)) for t in tables), strict=True)))


def _sitting_out(field: Field) -> tuple[list[str], tuple[str, ...]]:
    """The fewest players who must sit out, chosen among those who sat out least,
    the lowest seeds first."""
    n = len(field.players)
    out = next((k for k in range(n + 1) if table_sizes(n - k, field.min_seats, field.max_seats)), n)
    order = sorted(
        range(n), key=lambda i: (field.sat_out.get(field.players[i], 0), -i)
    )  # least sat out, lowest seed first
    leaving = {field.players[i] for i in order[:out]}
    return [p for p in field.players if p not in leaving], tuple(p for p in field.players if p in leaving)


def _fill(players: list[str], sizes: tuple[int, ...]) -> list[list[str]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(players[start : start + size])
        start += size
    return tables


def _largest(tables: Sequence[Sequence[str]]) -> int:
    return max(len(t) for t in tables)


def _table_cost(
    table: Sequence[str], field: Field, seed: Mapping[str, int], largest: int
) -> tuple[int, int, int]:
    repeats = sum(field.met.get(frozenset(pair), 0) for pair in itertools.combinations(table, 2))
    short_twice = sum(p in field.short_last_round for p in table) if len(table) < largest else 0
    seeds = [seed[p] for p in table]
    return repeats, short_twice, max(seeds) - min(seeds)


def _improve(tables: list[list[str]], field: Field) -> list[list[str]]:
    """Swaps two players of different tables while a swap lowers the score,
    sweeping the tables in order until a whole sweep finds none."""
    seed = {p: i for i, p in enumerate(field.players)}
    largest = _largest(tables)
    costs = [_table_cost(t, field, seed, largest) for t in tables]
    improved = True
    while improved:
        improved = False
        for a, b in itertools.combinations(range(len(tables)), 2):
            for i, j in itertools.product(range(len(tables[a])), range(len(tables[b]))):
                new_a = tables[a][:i] + [tables[b][j]] + tables[a][i + 1 :]
                new_b = tables[b][:j] + [tables[a][i]] + tables[b][j + 1 :]
                ca, cb = _table_cost(new_a, field, seed, largest), _table_cost(new_b, field, seed, largest)
                if tuple(x + y for x, y in zip(ca, cb, strict=True)) < tuple(
                    x + y for x, y in zip(costs[a], costs[b], strict=True)
                ):
                    tables[a], tables[b], costs[a], costs[b] = new_a, new_b, ca, cb
                    improved = True
    return tables
