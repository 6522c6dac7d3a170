"""A game's outcome on its own: how a result that was played elsewhere is judged.

A club that records only who played and how they finished (a *result-only*
game) still gets the game's rules applied: the seat count it allows, the
scores it can produce, and places that follow those scores under the game's
own ranking rule. Each game declares that rule once, as ``OUTCOME`` in its
``outcome.py`` (its ``Game``'s ``outcome``), with one ``Ending`` per way the game ends (Chancellors'
catastrophe ranks the lowest score first; Political Divide & Conquer breaks
equal scores by a further count; MacCreedy's Mansion ranks companies still
in business first, whatever their money).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import Engine, GameConfig, RuleViolation

#: Places follow scores exactly (competition ranking: equal scores share).
EXACT = "exact"
#: A better score is a better place; equal scores may still be split (a tie-break count).
TIES_BROKEN = "ties-broken"
#: Places need not follow the score (the game ranks by something else first).
FREE = "free"


@dataclass(frozen=True)
class Ending:
    """One way the game ends (its ``ended_by``) and how it ranks scores."""

    name: str
    words: str  # the ranking rule in a player's words, for a refusal
    lowest_wins: bool = False
    order: str = EXACT
    #: Only the winner is ranked: everyone else shares second place (Pig).
    winner_only: bool = False


@dataclass(frozen=True)
class Result:
    """A judged result: a place and a score (None: not given) per seat, and how it ended."""

    places: tuple[int, ...]
    scores: tuple[int, ...] | None
    ended_by: str


#: A game's own check of a result against its opening state (``check(state, result)``).
Check = Callable[[Any, Result], None]


@dataclass(frozen=True)
class OutcomeRule:
    """How a game of this engine can finish."""

    endings: tuple[Ending, ...]
    minimum_score: int | None = 0
    check: Check | None = None

    def judge(
        self,
        engine: Engine,
        config: GameConfig,
        scores: Sequence[Any] | None,
        places: Sequence[Any] | None,
        ended_by: str | None = None,
        opening_state: Callable[[], Any] | None = None,
    ) -> Result:
        """The result, checked; raises ``RuleViolation`` naming the first rule it
        breaks. ``opening_state``: the game's state before any event, when the
        caller keeps it (the engine's own check reads its options there)."""
        seats = config.seats
        if not engine.min_seats <= seats <= engine.max_seats:
            raise RuleViolation(
                "result-seat-count",
                f"{engine.title} takes {engine.min_seats} to {engine.max_seats} players, not {seats}.",
            )
        if scores is None and places is None:
            raise RuleViolation("result-needs-scores-or-places", "Give each player's score, place, or both.")
        for given, what in ((scores, "score"), (places, "place")):
            if given is not None and len(given) != seats:
                raise RuleViolation(
                    "result-one-per-player", f"Give one {what} for each of the {seats} players."
                )
        checked_scores = None if scores is None else tuple(self._score(s) for s in scores)
        checked_places = None if places is None else _ranking(places)
        endings = self._endings(engine, ended_by)
        fitting = [e for e in endings if _fits(e, checked_scores, checked_places)]
        if not fitting:
            words = "; ".join(e.words for e in endings)
            raise RuleViolation(
                "result-places-contradict-scores",
                f"In {engine.title} {words}: these places do not follow these scores.",
                {"scores": list(checked_scores or ()), "places": list(checked_places or ())},
            )
        ending = fitting[0]
        result = Result(
            checked_places or _places(checked_scores, ending.lowest_wins, ending.winner_only),
            checked_scores,
            ending.name,
        )
        if self.check is not None:
            self.check(opening_state() if opening_state else engine.initial_state(config), result)
        return result

    def _score(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
            raise RuleViolation(
                "result-score-impossible", f"A score in this game is a whole number, not {value!r}."
            )
        if self.minimum_score is not None and value < self.minimum_score:
            raise RuleViolation(
                "result-score-impossible",
                f"No score in this game is below {self.minimum_score} ({value!r} given).",
            )
        return int(value)

    def _endings(self, engine: Engine, ended_by: str | None) -> tuple[Ending, ...]:
        if not ended_by:
            return self.endings
        chosen = tuple(e for e in self.endings if e.name == ended_by)
        if not chosen:
            known = ", ".join(e.name for e in self.endings)
            raise RuleViolation("result-unknown-ending", f"{engine.title} ends by {known}, not {ended_by!r}.")
        return chosen


def _ranking(places: Sequence[Any]) -> tuple[int, ...]:
    """Places as a competition ranking (1, 1, 3): anything else is refused."""
    if any(isinstance(p, bool) or not isinstance(p, int) for p in places):
        raise RuleViolation("result-places-not-a-ranking", "A place is a whole number from 1.")
    expected = tuple(1 + sum(1 for other in places if other < mine) for mine in places)
    if tuple(places) != expected:
        raise RuleViolation(
            "result-places-not-a-ranking",
            "Places count from 1 and players who share a place skip the next ones (1, 1, 3).",
            {"places": list(places)},
        )
    return tuple(places)


def _places(scores: Sequence[int], lowest_wins: bool, winner_only: bool = False) -> tuple[int, ...]:
    """Competition ranking of ``scores``: equal scores share a place (with
    ``winner_only``, every place after the first is 2)."""
    sign = -1 if lowest_wins else 1
    places = tuple(1 + sum(1 for other in scores if sign * other > sign * mine) for mine in scores)
    return tuple(min(p, 2) for p in places) if winner_only else places


def _fits(ending: Ending, scores: tuple[int, ...] | None, places: tuple[int, ...] | None) -> bool:
    if scores is None or places is None or ending.order == FREE:
        return True
    if ending.order == EXACT:
        return places == _places(scores, ending.lowest_wins, ending.winner_only)
    sign = -1 if ending.lowest_wins else 1
    return all(
        places[i] < places[j]
        for i in range(len(scores))
        for j in range(len(scores))
        if sign * scores[i] > sign * scores[j]
    )
