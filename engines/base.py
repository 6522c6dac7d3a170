"""The engine contract every game engine implements.

An engine is a pure function set over immutable state: it performs no I/O,
reads no clock and draws no random numbers. Chance (dice, draws, shuffles)
reaches an engine only as a *chance command* that the service deals from a
seeded generator (``dealer: "server"``) or that a recorder submits from a
physical table (``dealer: "table"``); the engine asks for it through
:meth:`Engine.chance` and checks that what arrives is possible.

Vocabulary: a *command* is an imperative the engine judges (``PlaceBid``);
an *event* is a past-tense fact it produced (``BidPlaced``). Commands are
plain JSON objects ``{"type": ..., "seat": ..., **fields}``; ``seat`` is the
acting seat (0-based) or ``None`` for the dealer (chance commands).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

JSON = Any
State = Any
Command = Mapping[str, Any]


class RuleViolation(Exception):
    """A command breaks a rule. ``code`` is stable and names the rule."""

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = dict(details or {})

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.message!r})"


@dataclass(frozen=True)
class Event:
    """A fact an engine produced. ``data`` is plain JSON and never mutated."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "data": dict(self.data)}


@dataclass(frozen=True)
class GameConfig:
    """What a game is created with; fixed for the game's life."""

    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    dealer: str = "server"  # "server" or "table"
    catalog: Mapping[str, Any] | None = None  # the catalog content, when the engine uses one


@dataclass(frozen=True)
class ChanceRequest:
    """The chance the game waits for before anyone may act.

    The service (server dealer) answers it by posting ``command`` with
    ``dice`` (a list of ``dice`` values 1..6) and/or ``cards`` (``draw`` card
    ids taken without replacement from the multiset ``pool``), plus ``fixed``
    fields copied as they are. A table recorder posts the same command by
    hand; ``decide`` rejects impossible outcomes either way.

    Who may supply it at a table: the recorder always; and the seat
    ``dealt_to``, when the chance is cards dealt into that seat's hidden hand
    and nobody else may see them (that seat may enter them on its own phone).
    A public chance (dice, a card turned face up) and a deal to several seats
    have ``dealt_to`` None: the recorder alone enters them.

    ``unseen`` (with ``dealt_to``): every card that seat cannot see, the
    pool among them (the deck's unknown cards and the other hands), sorted.
    Its own phone offers these, not the pool, since what is left of the deck
    would tell it what the others hold; ``decide`` still takes only cards of
    the pool. Without ``dealt_to``: every card a spectator cannot see, which
    a recorder who sees only public information is offered. Empty when the
    pool is public (a reshuffled discard pile): the pool is offered.
    """

    command: str
    dice: int = 0
    draw: int = 0
    pool: tuple[str, ...] = ()
    seat: int | None = None  # the seat this chance falls to (luck statistics)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    dealt_to: int | None = None  # the seat whose hidden hand this fills: it may enter it itself
    unseen: tuple[str, ...] = ()  # what ``dealt_to``'s own phone offers: every card it cannot see


@dataclass(frozen=True)
class Amount:
    """A number a seat's command may carry in one field, any whole number from
    ``low`` to ``high`` (None: no bound) in steps of ``step``, where
    ``legal_commands`` lists only a few of them: a bid, a purchase, a sum
    invested. ``command`` is the command without that field (seat excluded);
    ``words`` asks for the number in the game's words ("How many stone?").
    ``decide`` still judges the number entered."""

    command: Mapping[str, Any]
    field: str
    low: int
    words: str
    high: int | None = None
    step: int = 1


@dataclass(frozen=True)
class Outcome:
    """How a game stands. ``places[i]`` is seat i's place (1 = won; ties share)."""

    finished: bool
    places: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()
    ended_by: str = (
        ""  # how it ended: a value of the game's ``Termination`` (its ``GameDecided`` says the same)
    )


@runtime_checkable
class Engine(Protocol):
    """The interface the service, the workers and the tests rely on."""

    id: str  # "chancellors", "house-of-cronies", ...
    title: str
    version: str  # bump when rules or state shape change: old snapshots are ignored
    min_seats: int
    max_seats: int
    catalog_kind: str | None  # None when the engine needs no card catalog
    #: Commands a seat may send whenever it holds what they need (an event card
    #: played at any time), which the game never waits for: whom it waits for
    #: leaves them out, so that it tells nothing of a hidden hand.
    any_time: frozenset[str]

    def initial_state(self, config: GameConfig) -> State:
        """The state before any event; raises RuleViolation for options that
        do not fit the seats (the service answers 422 and creates nothing)."""

    def setup(self, config: GameConfig) -> list[Event]:
        """The opening events (before any chance is dealt)."""

    def decide(self, state: State, command: Command) -> list[Event]:
        """Judge a command; return its events or raise RuleViolation."""

    def decide_settled(
        self, state: State, command: Command, normal: Callable[[Event], Event]
    ) -> tuple[list[Event], State]:
        """``decide``, each event as ``normal`` makes it (the form it is kept
        in), with the state they leave: a writer evolves no event twice."""

    def evolve(self, state: State, event: Event) -> State:
        """Apply one event; never raises for an event ``decide`` produced."""

    def chance(self, state: State) -> ChanceRequest | None:
        """The chance the game needs now, or None."""

    def legal_commands(self, state: State, seat: int | None) -> list[dict[str, Any]]:
        """Concrete commands ``seat`` may send now (``None``: the dealer's)."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it (``None``: a spectator)."""

    def redact(self, event: Event, seat: int | None) -> Event:
        """The event as ``seat`` may see it when it happens."""

    def outcome(self, state: State) -> Outcome:
        """Finished or not, places and scores."""

    def describe(self, event: Event, names: Sequence[str]) -> str:
        """One plain-English line; ``names[i]`` is seat i's player name."""

    def dump_state(self, state: State) -> JSON:
        """The state as plain JSON (for snapshots and full views). What the
        game's config already holds (its card catalog) is left out."""

    def load_state(self, data: JSON, config: GameConfig) -> State:
        """Inverse of ``dump_state``: ``load_state(dump_state(s), config) == s``."""

    def luck(self, state: State, event: Event) -> dict[int, float]:
        """For a chance event applied to ``state``: seat -> percentile (0..1)
        of how good the outcome was for that seat compared with every
        possible outcome; empty when the event is not chance."""

    def statistics(self, state: State) -> dict[str, Any]:
        """Engine-specific per-game statistics of a (finished) game."""


def fold(engine: Engine, config: GameConfig, events: Sequence[Event], state: State = None) -> State:
    """Replay ``events`` from ``state`` (default: the initial state)."""
    if state is None:
        state = engine.initial_state(config)
    for event in events:
        state = engine.evolve(state, event)
    return state
