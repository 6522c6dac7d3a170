"""Proposing a game night's tables from the players present: which game each
plays, and who sits with whom.

First the games: each game on offer, the most wanted first, takes the players
present who want it (those who named no game want any), as many as tables of
its own sizes seat (``seating.table_sizes``), those with the fewest other
choices first; a player it cannot seat is left for the games after it. A
player no game could seat is then added to a game they want whose tables
still seat one more, and otherwise waits (the organiser sees who).

Then the tables of each game, the organiser's choice:

- ``balance``: tables of even strength. Players by rating, best first (those
  with none at the middle of the field), dealt to the tables in a snake
  (1, 2, 3, 3, 2, 1, …), so that every table has strong and weak players alike.
- ``mix``: newcomers spread over the tables as evenly as they go, so that
  none sits at a table of newcomers alone; the others dealt after them.

Pure and deterministic: the same players, answers and ratings always give the
same tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from service.records.competitions import seating

#: How a night's tables are made, the organiser's choice.
MODES = ("balance", "mix")


@dataclass(frozen=True)
class Offer:
    engine: str
    min_seats: int
    max_seats: int


@dataclass(frozen=True)
class Table:
    engine: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Proposal:
    tables: tuple[Table, ...]
    #: Present players no table of a game they want could seat.
    waiting: tuple[str, ...]


def propose(
    present: Sequence[str],
    wants: Mapping[str, Sequence[str]],
    offers: Sequence[Offer],
    ratings: Mapping[str, float],
    newcomers: frozenset[str],
    mode: str,
) -> Proposal:
    """The tables for ``present`` (each at most once). ``wants``: the games
    each player asked for (none or absent: any game on offer)."""
    if mode not in MODES:
        raise ValueError(f"not a way of making tables: {mode}")
    offered = [o.engine for o in offers]
    choice = {
        p: [g for g in wants.get(p, ()) if g in offered] or list(offered) for p in dict.fromkeys(present)
    }
    groups = _groups(list(choice), choice, offers)
    tables: list[Table] = []
    for offer in offers:
        group = groups.get(offer.engine, [])
        if not group:
            continue
        sizes = seating.table_sizes(len(group), offer.min_seats, offer.max_seats)
        order = _balanced(group, ratings) if mode == "balance" else _mixed(group, newcomers)
        tables += [Table(offer.engine, tuple(t)) for t in _deal(order, sizes, snake=mode == "balance")]
    seated = {p for g in groups.values() for p in g}
    return Proposal(tuple(tables), tuple(p for p in choice if p not in seated))


def _groups(
    players: list[str], choice: Mapping[str, list[str]], offers: Sequence[Offer]
) -> dict[str, list[str]]:
    by_engine = {o.engine: o for o in offers}
    demand = {o.engine: sum(o.engine in choice[p] for p in players) for o in offers}
    order = sorted(by_engine, key=lambda e: (-demand[e], list(by_engine).index(e)))
    groups: dict[str, list[str]] = {}
    free = list(players)
    for engine in order:
        offer = by_engine[engine]
        keen = sorted((p for p in free if engine in choice[p]), key=lambda p: len(choice[p]))
        n = next(
            (k for k in range(len(keen), 0, -1) if seating.table_sizes(k, offer.min_seats, offer.max_seats)),
            0,
        )
        if n:
            groups[engine] = keen[:n]
            free = [p for p in free if p not in groups[engine]]
    for p in list(free):
        for engine in choice[p]:
            group, offer = groups.get(engine, []), by_engine[engine]
            if seating.table_sizes(len(group) + 1, offer.min_seats, offer.max_seats):
                groups[engine] = [*group, p]
                free.remove(p)
                break
    return groups


def _balanced(group: Sequence[str], ratings: Mapping[str, float]) -> list[str]:
    known = [ratings[p] for p in group if p in ratings]
    middle = sorted(known)[len(known) // 2] if known else 0.0
    return sorted(group, key=lambda p: -ratings.get(p, middle))


def _mixed(group: Sequence[str], newcomers: frozenset[str]) -> list[str]:
    return [p for p in group if p in newcomers] + [p for p in group if p not in newcomers]


def _deal(order: Sequence[str], sizes: Sequence[int], *, snake: bool) -> list[list[str]]:
    """Players dealt to tables of ``sizes`` one at a time, round and round
    (back and forth when ``snake``), a full table skipped."""
    tables: list[list[str]] = [[] for _ in sizes]
    turn = list(range(len(sizes)))
    i = 0
    for p in order:
        while True:
            lap, at = divmod(i, len(sizes))
            t = turn[::-1][at] if snake and lap % 2 else turn[at]
            i += 1
            if len(tables[t]) < sizes[t]:
                tables[t].append(p)
                break
    return tables
