"""A tournament as the fold of its events, and the rules each new event obeys.

A tournament is a stream of its own: ``TournamentCreated`` (its name, game,
league or none, rounds and final table), ``PlayerEntered`` and
``PlayerWithdrawn`` (late arrivals and drop-outs: they take effect from the
next round seated), ``RoundSeated`` (the tables as the service seated them:
stored, so that a replay never seats them differently), ``PlayersSwapped``
(the organiser's change before a round's games start) and
``TableGameStarted`` (the game of one table, played on the scorepad or
logged by its result). What the tables' games ended with is read from their
own streams (``Outcomes``): a round is closed when every table's game has
ended, and the standings are the points of the ended games.

Everything here is pure: the state is rebuilt by folding the events, and each
``decide_*`` judges a request against the state and returns the event's data,
or raises the domain error naming the rule.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from service.records.competitions import seating, tournament_points
from service.records.errors import Conflict, Invalid

TOURNAMENT_CREATED = "TournamentCreated"
PLAYER_ENTERED = "PlayerEntered"
PLAYER_WITHDRAWN = "PlayerWithdrawn"
ROUND_SEATED = "RoundSeated"
PLAYERS_SWAPPED = "PlayersSwapped"
TABLE_GAME_STARTED = "TableGameStarted"

#: The most rounds a tournament plays before its final table.
MOST_ROUNDS = 20

#: A table's game that will never end: abandoned, or its logged result retracted.
ABANDONED = "abandoned"

#: How each table's game stands: game id -> its places (player id -> place)
#: once ended, None while it is played, ``ABANDONED``.
Outcomes = Mapping[str, Mapping[str, int] | str | None]


@dataclass(frozen=True)
class Table:
    number: int
    players: tuple[str, ...]
    #: Its games in the order started; the last is the one that counts.
    games: tuple[str, ...] = ()

    @property
    def game(self) -> str | None:
        return self.games[-1] if self.games else None


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...]
    final: bool = False

    def table_of(self, player: str) -> Table | None:
        return next((t for t in self.tables if player in t.players), None)


@dataclass(frozen=True)
class Tournament:
    id: str
    name: str
    engine: str
    league: str | None
    rounds: int
    final_table: int | None
    min_seats: int
    max_seats: int
    #: Everyone ever entered, in the order entered.
    entered: tuple[str, ...] = ()
    withdrawn: frozenset[str] = frozenset()
    played: tuple[Round, ...] = ()
    version: int = 0

    @property
    def present(self) -> tuple[str, ...]:
        """Who is seated in the next round: entered and not withdrawn."""
        return tuple(p for p in self.entered if p not in self.withdrawn)

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    @property
    def rounds_seated(self) -> int:
        return sum(not r.final for r in self.played)


def create(tournament_id: str, data: Mapping[str, Any], seats: tuple[int, int]) -> Tournament:
    """The tournament a ``TournamentCreated`` starts (``seats``: the game's range)."""
    return Tournament(
        id=tournament_id,
        name=data["name"],
        engine=data["engine"],
        league=data["league"],
        rounds=data["rounds"],
        final_table=data["final_table"],
        min_seats=seats[0],
        max_seats=seats[1],
        version=1,
    )


def evolve(t: Tournament, event_type: str, data: Mapping[str, Any]) -> Tournament:
    """The tournament after one more event."""
    t = replace(t, version=t.version + 1)
    if event_type == PLAYER_ENTERED:
        player = data["player"]
        entered = t.entered if player in t.entered else (*t.entered, player)
        return replace(t, entered=entered, withdrawn=t.withdrawn - {player})
    if event_type == PLAYER_WITHDRAWN:
        return replace(t, withdrawn=t.withdrawn | {data["player"]})
    if event_type == ROUND_SEATED:
        tables = tuple(Table(i, tuple(players)) for i, players in enumerate(data["tables"], start=1))
        new = Round(len(t.played) + 1, tables, tuple(data["sitting_out"]), data["final"])
        return replace(t, played=(*t.played, new))
    if event_type == PLAYERS_SWAPPED:
        a, b = data["players"]
        swap = {a: b, b: a}
        current = t.current
        tables = tuple(replace(x, players=tuple(swap.get(p, p) for p in x.players)) for x in current.tables)
        out = tuple(swap.get(p, p) for p in current.sitting_out)
        return replace(t, played=(*t.played[:-1], replace(current, tables=tables, sitting_out=out)))
    if event_type == TABLE_GAME_STARTED:
        current = t.current
        tables = tuple(
            replace(x, games=(*x.games, data["game"])) if x.number == data["table"] else x
            for x in current.tables
        )
        return replace(t, played=(*t.played[:-1], replace(current, tables=tables)))
    raise ValueError(f"not a tournament event: {event_type}")


def fold(
    tournament_id: str, events: Sequence[tuple[str, Mapping[str, Any]]], seats: tuple[int, int]
) -> Tournament:
    """The tournament its events (type, data), in order, make."""
    (first_type, first), *rest = events
    if first_type != TOURNAMENT_CREATED:
        raise ValueError("a tournament's stream starts with TournamentCreated")
    t = create(tournament_id, first, seats)
    for event_type, data in rest:
        t = evolve(t, event_type, data)
    return t


# -- what the games say ----------------------------------------------------------


def table_ended(table: Table, outcomes: Outcomes) -> bool:
    return table.game is not None and isinstance(outcomes.get(table.game), Mapping)


def round_closed(r: Round, outcomes: Outcomes) -> bool:
    return all(table_ended(t, outcomes) for t in r.tables)


def results(t: Tournament, outcomes: Outcomes, *, final: bool = False) -> list[Mapping[str, int]]:
    """The places at every ended table of the rounds (or of the final table)."""
    return [
        outcomes[table.game]
        for r in t.played
        if r.final == final
        for table in r.tables
        if table_ended(table, outcomes)
    ]


def standings(t: Tournament, outcomes: Outcomes) -> list[tournament_points.Standing]:
    """The standings of the rounds played so far (the final table apart)."""
    return tournament_points.standings(results(t, outcomes), t.entered)


def finished(t: Tournament, outcomes: Outcomes) -> bool:
    current = t.current
    if current is None or not round_closed(current, outcomes):
        return False
    return current.final or (t.rounds_seated >= t.rounds and t.final_table is None)


# -- deciding ----------------------------------------------------------------------


def decide_entry(t: Tournament, player: str) -> dict[str, Any]:
    if player in t.present:
        raise Conflict("player-entered", "That player is in the tournament already.")
    if t.current is not None and t.current.final:
        raise Conflict("tournament-at-final", "The final table is seated: no one enters any more.")
    return {"player": player}


def decide_withdrawal(t: Tournament, player: str) -> dict[str, Any]:
    if player not in t.present:
        raise Invalid("player-not-entered", "That player is not in the tournament.")
    return {"player": player}


def decide_seating(t: Tournament, outcomes: Outcomes, seeds: Sequence[str]) -> dict[str, Any]:
    """The next round's tables: a round of the tournament while rounds remain,
    then the final table (the top of the standings, when it has one).
    ``seeds``: the round's order before play (round 1's ratings or entries)."""
    current = t.current
    if current is not None and not round_closed(current, outcomes):
        raise Conflict("round-open", f"Round {current.number} is still being played.")
    if finished(t, outcomes) or (current is not None and current.final):
        raise Conflict("tournament-over", "Every round of the tournament has been played.")
    if t.rounds_seated >= t.rounds:
        return _final_table(t, outcomes)
    present = set(t.present)
    # Round 1 by the seeds given; later rounds by the standings.
    ranked = [s.player for s in standings(t, outcomes)] if t.played else list(seeds)
    field = seating.Field(
        players=tuple(p for p in ranked if p in present) + tuple(p for p in t.present if p not in ranked),
        min_seats=t.min_seats,
        max_seats=t.max_seats,
        met=meetings(t),
        short_last_round=short_last_round(t),
        sat_out=Counter(p for r in t.played for p in r.sitting_out),
    )
    if len(field.players) < t.min_seats:
        raise Invalid(
            "too-few-players", f"A table of this game seats at least {t.min_seats}: enter more players."
        )
    if len(field.players) > seating.MOST_PLAYERS:
        raise Invalid("too-many-players", f"A round seats at most {seating.MOST_PLAYERS} players.")
    seated = seating.seat(field)
    return {
        "tables": [list(table) for table in seated.tables],
        "sitting_out": list(seated.sitting_out),
        "final": False,
    }


def _final_table(t: Tournament, outcomes: Outcomes) -> dict[str, Any]:
    present = set(t.present)
    top = [s.player for s in standings(t, outcomes) if s.player in present][: t.final_table]
    if len(top) < t.min_seats:
        raise Invalid(
            "too-few-players", f"A table of this game seats at least {t.min_seats}: enter more players."
        )
    return {"tables": [top], "sitting_out": [p for p in t.present if p not in top], "final": True}


def meetings(t: Tournament) -> dict[frozenset[str], int]:
    """How many times two players have sat at one table."""
    met: Counter[frozenset[str]] = Counter()
    for r in t.played:
        for table in r.tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table.players, 2))
    return dict(met)


def short_last_round(t: Tournament) -> frozenset[str]:
    if not t.played:
        return frozenset()
    tables = t.played[-1].tables
    largest = max(len(x.players) for x in tables)
    return frozenset(p for x in tables if len(x.players) < largest for p in x.players)


def _open_round(t: Tournament, outcomes: Outcomes) -> Round:
    current = t.current
    if current is None or round_closed(current, outcomes):
        raise Conflict("no-round-open", "No round is being played: seat the next round first.")
    return current


def decide_swap(t: Tournament, outcomes: Outcomes, a: str, b: str) -> dict[str, Any]:
    """Two players of the open round change places, before either's table starts its game."""
    current = _open_round(t, outcomes)
    if a == b:
        raise Invalid("swap-same-player", "Choose two different players to swap.")
    in_round = {p for table in current.tables for p in table.players} | set(current.sitting_out)
    if a not in in_round or b not in in_round:
        raise Invalid("player-not-in-round", f"Both players must be in round {current.number}.")
    ta, tb = current.table_of(a), current.table_of(b)
    if ta is not None and ta is tb:
        raise Invalid("swap-same-table", "Those two sit at the same table already.")
    if ta is None and tb is None:
        raise Invalid("swap-both-sitting-out", "Those two both sit this round out.")
    if any(x is not None and x.games for x in (ta, tb)):
        raise Conflict("table-started", "A table whose game has started keeps its players.")
    return {"round": current.number, "players": [a, b]}


def decide_table_game(t: Tournament, outcomes: Outcomes, table_number: int) -> Table:
    """The open round's table whose game is to start (or be logged): it has no
    game, or only games that were abandoned or whose result was retracted."""
    current = _open_round(t, outcomes)
    table = next((x for x in current.tables if x.number == table_number), None)
    if table is None:
        raise Invalid("no-such-table", f"Round {current.number} has no table {table_number}.")
    if table.game is not None and outcomes.get(table.game) != ABANDONED:
        raise Conflict("table-has-game", f"Table {table_number} has its game already.")
    return table


def final_ranking(t: Tournament, outcomes: Outcomes) -> list[str]:
    """The tournament's order at its end: the final table by its places, then
    everyone else by the standings (no final table: the standings)."""
    ranked = [s.player for s in standings(t, outcomes)]
    finals = results(t, outcomes, final=True)
    if not finals:
        return ranked
    final = finals[0]
    top = sorted(final, key=lambda p: (final[p], ranked.index(p)))
    return top + [p for p in ranked if p not in final]
