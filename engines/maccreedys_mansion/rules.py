"""MacCreedy's Mansion (HTKB Simple Games Suite): companies restore a haunted
mansion over rounds of twelve phases; closed companies haunt it, and may
re-open. The most money wins.

The rulebook prints no board and no cards: they come from the board catalog
in ``GameConfig.catalog``. Sibling modules: ``flow`` (the round's phase
machine and what the game does by itself), ``decide`` (commands), ``effects``
(cards and haunts), ``evolve`` (events), ``legal`` and ``present``. Every
reading of the rulebook is listed in docs/rules/maccreedys-mansion.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import ChanceRequest, Command, Event, GameConfig, Outcome, RuleViolation
from engines.kit import awaited_chance, log_label, read_options
from engines.kit.rulebook import CommandBook
from engines.kit.seats import SeatStatus
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion import legal, present, table
from engines.maccreedys_mansion import schemas as game_schemas
from engines.maccreedys_mansion.catalog import parse_board
from engines.maccreedys_mansion.decide import COMMANDS, draw_card
from engines.maccreedys_mansion.evolve import evolve
from engines.maccreedys_mansion.flow import automatic, chance_request
from engines.maccreedys_mansion.query import money
from engines.maccreedys_mansion.state import OVER, Company, MmState
from engines.maccreedys_mansion.state import dump_state as _dump
from engines.maccreedys_mansion.state import load_state as _load

RULEBOOK = CommandBook(
    title="MacCreedy's Mansion",
    commands=COMMANDS,
    chance_commands={"DrawCard": draw_card},
    evolve=evolve,
    automatic=automatic,
    is_over=lambda s: s.phase == OVER,
    seats=lambda s: s.seats,
    chance=chance_request,
)


class MacCreedysMansion:
    id = "maccreedys-mansion"
    title = "MacCreedy's Mansion"
    version = "1"
    min_seats = 2
    max_seats = 5
    catalog_kind = "maccreedys-mansion"

    def initial_state(self, config: GameConfig) -> MmState:
        if not self.min_seats <= config.seats <= self.max_seats:
            raise RuleViolation("seats-out-of-range", "MacCreedy's Mansion is played by 2 to 5 companies.")
        options = read_options(game_schemas.OPTIONS, config.options)
        first = options["first_player"]
        if not 0 <= first < config.seats:
            raise RuleViolation(
                "first-player-not-a-seat", f"The first player must be one of the {config.seats} seats."
            )
        board = parse_board(config.catalog)
        covered = tuple(sorted(set(options["covered_rooms"])))
        for room in covered:
            if room not in board.room:
                raise RuleViolation("no-such-room", f"The board has no room {room!r}.", {"room": room})
            if not board.room[room].coverable:
                raise RuleViolation("room-not-coverable", f"The {room} cannot be covered.", {"room": room})
        company = Company(
            active=board.start_active,
            invested=board.start_invested,
            status=SeatStatus(),
            hired=(0,) * len(board.workers),
            unplaced=(0,) * len(board.workers),
            storage=(0,) * len(board.prices),
            dedicated=(0,) * len(board.prices),
        )
        return MmState(
            board=board,
            seats=config.seats,
            first=first,
            max_rounds=options["max_rounds"],
            covered=covered,
            companies=(company,) * config.seats,
            job_deck=tuple(
                sorted(j.id for j in board.jobs if board.location[j.location].room not in covered)
            ),
            event_deck=tuple(sorted(c.id for c in board.events)),
            haunt_deck=tuple(sorted(c.id for c in board.haunts)),
        )

    def setup(self, config: GameConfig) -> list[Event]:
        state = self.initial_state(config)
        data = {
            "seats": state.seats,
            "first": state.first,
            "max_rounds": state.max_rounds,
            "covered": list(state.covered),
        }
        return RULEBOOK.settle(state, [Event(ev.GAME_STARTED, data)])

    def decide(self, state: MmState, command: Command) -> list[Event]:
        return RULEBOOK.decide(state, command)

    def evolve(self, state: MmState, event: Event) -> MmState:
        return evolve(state, event)

    def chance(self, state: MmState) -> ChanceRequest | None:
        return None if state.phase == OVER else chance_request(state)

    def legal_commands(self, state: MmState, seat: int | None) -> list[dict[str, Any]]:
        return legal.legal_commands(state, seat)

    def view(self, state: MmState, seat: int | None) -> dict[str, Any]:
        return present.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        return present.redact(event, seat)

    def outcome(self, state: MmState) -> Outcome:
        scores = tuple(float(money(state, s)) for s in range(state.seats))
        if state.phase != OVER:
            return Outcome(finished=False, scores=scores)
        return Outcome(finished=True, places=state.final_places, scores=scores, ended_by=state.ended_by)

    def describe(self, event: Event, names: Sequence[str]) -> str:
        return present.describe(event, names)

    def label(self, state: MmState, command: Command, names: Sequence[str]) -> str:
        if awaited_chance(command):
            return f"A {command['deck']} card is drawn"
        return log_label(self, state, command, names)

    def label_value(self, state: MmState, field: str, value: Any, names: Sequence[str]) -> str | None:
        return present.label_value(state, field, value, names)

    def table(self, state: MmState, viewer: int | str | None, names: Sequence[str]) -> dict[str, Any]:
        return table.table(state, viewer, names)

    def dump_state(self, state: MmState) -> dict[str, Any]:
        return _dump(state)

    def load_state(self, data: dict[str, Any], config: GameConfig) -> MmState:
        return _load(data, parse_board(config.catalog))

    def luck(self, state: MmState, event: Event) -> dict[int, float]:
        return present.luck(state, event)

    def statistics(self, state: MmState) -> dict[str, Any]:
        return present.statistics(state)


ENGINE = MacCreedysMansion()
