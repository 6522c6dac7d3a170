"""A tournament's standings: points by place scaled to the table's size, then
two tie-breaks.

**Points.** At a table of n, a player scores the share of their opponents they
finished ahead of, a tie counting half: (beaten + tied / 2) / (n - 1). The
winner of any table scores 1 and its last 0, and the points at a table always
add up to n / 2, so a player's average over a table is one half whatever its
size: a table of three is worth exactly what a table of four is, neither to
the player who wins it (1 either way) nor to the field (a seat is worth 1/2).
Counting places instead (3 for a win at a table of three, 4 at a table of
four) would reward the luck of the larger table.

**Tie-breaks**, in order:
1. opponents' scores: the sum, over the player's games, of the points their
   opponents hold in the whole tournament (who you met counts: a win over the
   leaders is worth more than a win over the tail);
2. head to head: among the players still tied, who finished ahead of whom more
   often where they sat at one table.
Players still tied after both share a rank, listed in the order they were
entered: what a tournament's events say, so a restored tournament (whose
players have new ids) lists them, and seats its final table, as the old one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    points: Fraction
    opponents_points: Fraction
    games: int


def table_points(places: Mapping[str, int]) -> dict[str, Fraction]:
    """Each player's points at one table, from their places (1 the best; equal places tie)."""
    n = len(places)
    if n < 2:
        return dict.fromkeys(places, Fraction(0))
    return {
        player: Fraction(
            2 * sum(place < other for other in places.values())
            + sum(place == other for other in places.values())
            - 1,
            2 * (n - 1),
        )
        for player, place in places.items()
    }


def standings(tables: Sequence[Mapping[str, int]], players: Sequence[str] = ()) -> list[Standing]:
    """The standings after these tables (each a mapping of player to place);
    ``players`` (in the order entered) adds those who have not played yet
    (with nothing) and lists players tied on everything in that order."""
    points: dict[str, Fraction] = defaultdict(Fraction)
    games: dict[str, int] = defaultdict(int)
    for player in players:
        points[player] += 0
    for table in tables:
        for player, scored in table_points(table).items():
            points[player] += scored
            games[player] += 1
    opponents = defaultdict(Fraction)
    ahead: dict[tuple[str, str], int] = defaultdict(int)
    for table in tables:
        for player, place in table.items():
            for other, other_place in table.items():
                if other != player:
                    opponents[player] += points[other]
                    ahead[player, other] += place < other_place

    def head_to_head(player: str, tied: list[str]) -> int:
        return sum(ahead[player, other] - ahead[other, player] for other in tied if other != player)

    entered = {p: i for i, p in enumerate(players)}

    def as_entered(p: str) -> tuple[int, str]:
        return entered.get(p, len(entered)), p

    order = sorted(points, key=lambda p: (-points[p], -opponents[p], as_entered(p)))
    result: list[Standing] = []
    i = 0
    while i < len(order):
        tied = [p for p in order[i:] if (points[p], opponents[p]) == (points[order[i]], opponents[order[i]])]
        balance = {p: head_to_head(p, tied) for p in tied}
        for player in sorted(tied, key=lambda p: (-balance[p], as_entered(p))):
            rank = i + 1 + sum(balance[q] > balance[player] for q in tied)
            result.append(Standing(rank, player, points[player], opponents[player], games[player]))
        i += len(tied)
    return result
