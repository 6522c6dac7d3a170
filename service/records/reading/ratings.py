"""Ratings: the openskill model that rates a league game, and the scale members read.

The model is openskill's Bradley-Terry (full pairing): every pair of players
in a game counts as one match, won by whoever finished ahead, drawn when they
share a place. Plackett-Luce, openskill's default, handles shared places in a
way that can rate a lower place above a higher one: after a first game placed
1, 1, 3, 4 the third-placed player ends with the same mu as the two winners
and a smaller sigma, so a higher ordinal. Pairwise draws never do that
(``tests/records/test_ratings.py`` pins both).

The rating members see is openskill's ordinal ``mu - 3 sigma`` (a cautious
estimate: the skill is very likely at least that) on a scale where everyone
starts at 1500: ``1500 + 42 * ordinal``. 42 makes a newcomer's uncertainty
(sigma 25/3) about 350 points, Glicko's starting deviation, so the numbers move
like a chess rating's. The uncertainty shown beside it (``± 42 sigma``) shrinks
with every game, and since the ordinal subtracts it, a rating can rise a little
after a loss while the service learns more about the player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
#: Where every player starts on the shown scale.
BASE = 1500
#: Shown points per unit of openskill's ordinal.
SCALE = 42


def rate(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a game finished in ``places`` (1 is best, shared places allowed)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(float(t[0].mu), float(t[0].sigma)) for t in after]


def initial() -> tuple[float, float]:
    return (MODEL.mu, MODEL.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """openskill's ordinal: mu - 3 sigma."""
    return mu - 3.0 * sigma


def shown(mu: float, sigma: float) -> int:
    """The rating on the members' scale: 1500 + 42 × (mu − 3 sigma), rounded."""
    return round(BASE + SCALE * ordinal(mu, sigma))


def uncertainty(sigma: float) -> int:
    """The ± beside a shown rating."""
    return round(SCALE * sigma)


@dataclass(frozen=True)
class Rating:
    """A rating as a member reads it: the number, its ±, and its change in the player's last game."""

    value: int
    uncertainty: int
    change: int | None = None

    @classmethod
    def of(cls, mu: float, sigma: float, before: tuple[float, float] | None = None) -> Rating:
        change = None if before is None else shown(mu, sigma) - shown(*before)
        return cls(shown(mu, sigma), uncertainty(sigma), change)


def signed(change: int | None) -> str:
    """A change as members write it: +12, −8 (a true minus sign), ±0; empty when there is none."""
    if change is None:
        return ""
    if change == 0:
        return "±0"
    return f"+{change}" if change > 0 else f"\u2212{-change}"
