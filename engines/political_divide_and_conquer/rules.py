"""Political Divide & Conquer 2020 (Frederick Noble, Degenerate Press): draw two,
keep one and return the other to the top or the bottom of the deck, then
reject a group, add one to your base, stack an asset or deficit, or attack;
events at any time before the dice. The largest net wing influence wins.

The rules machinery lives in sibling modules: ``decide`` (commands), ``flow``
(chance and the automatic steps), ``evolve`` (events), ``legal`` (the
commands a seat may send) and ``present`` (views, lines, luck). The cards come
from the catalog in ``GameConfig.catalog``. Rule readings are listed in
docs/rules/political-divide-and-conquer.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import ChanceRequest, Command, Event, GameConfig, Outcome, RuleViolation
from engines.kit import awaited_chance, log_label, read_options
from engines.kit.rulebook import CommandBook
from engines.political_divide_and_conquer import events as ev
from engines.political_divide_and_conquer import flow, legal, present, table
from engines.political_divide_and_conquer import schemas as game_schemas
from engines.political_divide_and_conquer.catalog import parse_catalog
from engines.political_divide_and_conquer.decide import CHANCE_COMMANDS, COMMANDS
from engines.political_divide_and_conquer.evolve import evolve
from engines.political_divide_and_conquer.scoring import base_cards, places, score
from engines.political_divide_and_conquer.state import OVER, PdcState
from engines.political_divide_and_conquer.state import dump_state as _dump
from engines.political_divide_and_conquer.state import load_state as _load

RULEBOOK = CommandBook(
    title="Political Divide & Conquer",
    commands=COMMANDS,
    chance_commands=CHANCE_COMMANDS,
    evolve=evolve,
    automatic=flow.automatic,
    is_over=lambda state: state.stage == OVER,
    seats=lambda state: state.seats,
    chance=flow.chance,
)


class PoliticalDivideAndConquer:
    id = "political-divide-and-conquer"
    title = "Political Divide & Conquer"
    version = "1"
    min_seats = 4
    max_seats = 8
    catalog_kind = "political-divide-and-conquer"

    def initial_state(self, config: GameConfig) -> PdcState:
        if not self.min_seats <= config.seats <= self.max_seats:
            raise RuleViolation(
                "four-to-eight-players", "Political Divide & Conquer is played by 4 to 8 players (PDC-1)."
            )
        options = read_options(game_schemas.OPTIONS, config.options)
        first = options["first_player"]
        if first is not None and first >= config.seats:
            raise RuleViolation(
                "first-player-not-a-seat", f"The first player must be one of the {config.seats} seats."
            )
        return PdcState(catalog=parse_catalog(config.catalog), seats=config.seats)

    def setup(self, config: GameConfig) -> list[Event]:
        state = self.initial_state(config)
        data = {
            "seats": state.seats,
            "catalog": {"id": state.catalog.id, "version": state.catalog.version},
            "first_player": read_options(game_schemas.OPTIONS, config.options)["first_player"],
        }
        return RULEBOOK.settle(state, [Event(ev.GAME_STARTED, data)])

    def decide(self, state: PdcState, command: Command) -> list[Event]:
        return RULEBOOK.decide(state, command)

    def evolve(self, state: PdcState, event: Event) -> PdcState:
        return evolve(state, event)

    def chance(self, state: PdcState) -> ChanceRequest | None:
        return flow.chance(state)

    def legal_commands(self, state: PdcState, seat: int | None) -> list[dict[str, Any]]:
        return legal.legal_commands(state, seat)

    def view(self, state: PdcState, seat: int | None) -> dict[str, Any]:
        return present.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        return present.redact(event, seat)

    def outcome(self, state: PdcState) -> Outcome:
        scores = tuple(float(score(state, s)) for s in range(state.seats)) if state.players else ()
        if state.stage != OVER:
            return Outcome(finished=False, scores=scores)
        cards = [base_cards(state, s) for s in range(state.seats)]
        return Outcome(
            finished=True,
            places=tuple(places(list(state.scores), cards)),
            scores=tuple(float(v) for v in state.scores),
            ended_by=ev.Termination.DECK_EXHAUSTED.value,
        )

    def describe(self, event: Event, names: Sequence[str]) -> str:
        return present.describe(event, names)

    def label(self, state: PdcState, command: Command, names: Sequence[str]) -> str:
        if awaited_chance(command):
            return present.awaited_label(state, dict(command), names)
        return present.label_command(state, dict(command), names, log_label(self, state, command, names))

    def label_value(self, state: PdcState, field: str, value: Any, names: Sequence[str]) -> str | None:
        """One value of a command's field in the log's words."""
        return present.label_value(state, field, value, names)

    def table(self, state: PdcState, viewer: int | str | None, names: Sequence[str]) -> dict[str, Any]:
        return table.table(state, viewer, names)

    def dump_state(self, state: PdcState) -> dict[str, Any]:
        return _dump(state)

    def load_state(self, data: dict[str, Any], config: GameConfig) -> PdcState:
        return _load(data, parse_catalog(config.catalog))

    def luck(self, state: PdcState, event: Event) -> dict[int, float]:
        return present.luck(state, event)

    def statistics(self, state: PdcState) -> dict[str, Any]:
        return present.statistics(state)


ENGINE = PoliticalDivideAndConquer()
