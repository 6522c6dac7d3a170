"""House of Cronies (Pierre Cassuto, Both Worlds): bid for cronies, fill a
cabinet, sabotage with tactics; the most votes at the election wins.

The rules machinery lives in sibling modules: ``decide`` (commands), ``flow``
(the automatic steps after them), ``evolve`` (events), ``tactics`` (timing,
targets, reaction windows), ``legal`` (the commands a seat may send) and
``present`` (views, lines, luck). The printed cards come from the catalog in
``GameConfig.catalog``. Rule readings are listed in docs/rules/house-of-cronies.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import ChanceRequest, Command, Event, GameConfig, Outcome, RuleViolation
from engines.house_of_cronies import decide as judge
from engines.house_of_cronies import events as ev
from engines.house_of_cronies import legal, present, table
from engines.house_of_cronies import schemas as game_schemas
from engines.house_of_cronies.catalog import parse_catalog
from engines.house_of_cronies.evolve import evolve
from engines.house_of_cronies.flow import automatic, draw_request
from engines.house_of_cronies.query import places, votes
from engines.house_of_cronies.state import OVER, HocState, Player
from engines.house_of_cronies.state import dump_state as _dump
from engines.house_of_cronies.state import load_state as _load
from engines.kit import awaited_chance, log_label, read_options
from engines.kit.rulebook import CommandBook


class HouseOfCronies:
    id = "house-of-cronies"
    title = "House of Cronies"
    version = "1"
    min_seats = 3
    max_seats = 4
    catalog_kind = "house-of-cronies"

    def initial_state(self, config: GameConfig) -> HocState:
        if not self.min_seats <= config.seats <= self.max_seats:
            raise RuleViolation("seat-count", "House of Cronies is played by 3 or 4 players.")
        speaker = read_options(game_schemas.OPTIONS, config.options)["first_speaker"]
        if not 0 <= speaker < config.seats:
            raise RuleViolation(
                "first-speaker-not-a-seat", f"The first Speaker must be one of the {config.seats} seats."
            )
        catalog = parse_catalog(config.catalog)
        return HocState(
            catalog=catalog,
            seats=config.seats,
            speaker=speaker,
            main_deck=catalog.main_cards,
            tactic_deck=catalog.tactic_cards,
            players=(Player(),) * config.seats,
        )

    def setup(self, config: GameConfig) -> list[Event]:
        return judge.setup(self.initial_state(config))

    def decide(self, state: HocState, command: Command) -> list[Event]:
        return RULEBOOK.decide(state, command)

    def evolve(self, state: HocState, event: Event) -> HocState:
        return evolve(state, event)

    def chance(self, state: HocState) -> ChanceRequest | None:
        return draw_request(state)

    def legal_commands(self, state: HocState, seat: int | None) -> list[dict[str, Any]]:
        return legal.legal_commands(state, seat)

    def view(self, state: HocState, seat: int | None) -> dict[str, Any]:
        return present.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        return present.redact(event, seat)

    def outcome(self, state: HocState) -> Outcome:
        if state.stage != OVER:
            totals, _ = votes(state)
            return Outcome(finished=False, scores=tuple(float(v) for v in totals))
        return Outcome(
            finished=True,
            places=tuple(places(state.votes)),
            scores=tuple(float(v) for v in state.votes),
            ended_by=ev.Termination.ELECTION.value,
        )

    def describe(self, event: Event, names: Sequence[str]) -> str:
        return present.describe(event, names)

    def label(self, state: HocState, command: Command, names: Sequence[str]) -> str:
        if awaited_chance(command):
            return present.awaited_label(dict(command), names)
        return present.label_command(state, dict(command), log_label(self, state, command, names))

    def label_value(self, state: HocState, field: str, value: Any, names: Sequence[str]) -> str | None:
        """One value of a command's field in the log's words."""
        return present.label_value(state, field, value, names)

    def table(self, state: HocState, viewer: int | str | None, names: Sequence[str]) -> dict[str, Any]:
        return table.table(state, viewer, names)

    def dump_state(self, state: HocState) -> dict[str, Any]:
        return _dump(state)

    def load_state(self, data: dict[str, Any], config: GameConfig) -> HocState:
        return _load(data, parse_catalog(config.catalog))

    def luck(self, state: HocState, event: Event) -> dict[int, float]:
        return present.luck(state, event)

    def statistics(self, state: HocState) -> dict[str, Any]:
        return present.statistics(state)


ENGINE = HouseOfCronies()
RULEBOOK = CommandBook(
    title="House of Cronies",
    commands=judge.COMMANDS,
    chance_commands={"DrawCards": judge.decide_draw},
    evolve=evolve,
    automatic=automatic,
    is_over=lambda state: state.stage == OVER,
    seats=lambda state: state.seats,
    chance=draw_request,
)
