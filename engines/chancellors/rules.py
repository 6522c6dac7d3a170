"""Chancellors (P.D. Magnus): solve the kingdom's problems, control the royal
services, and reach the target score before a problem escalates out of control.

A turn runs (A) choose a card face down for control of the services, (B)
solve with control, service by service, (C) solve without control, seat by
seat, (D) escalate, (E) draw. Readings the rulebook leaves open are listed in
``docs/rules/chancellors.md``; each is tested.

The rules machinery lives in sibling modules: ``decide`` (commands), ``flow``
(the steps the game takes by itself and the chance it waits for),
``evolve`` (events), ``legal`` (the commands a seat may send) and
``present`` (views, lines, luck, statistics).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import ChanceRequest, Command, Event, GameConfig, Outcome
from engines.chancellors import decide, flow, legal, present, table
from engines.chancellors import events as ev
from engines.chancellors import schemas as game_schemas
from engines.chancellors.cards import deck
from engines.chancellors.evolve import apply
from engines.chancellors.state import OVER, ChancellorsState, Problem, dump_state, load_state
from engines.kit import awaited_chance, log_label, read_options
from engines.kit.rulebook import CommandBook


class Chancellors:
    id = "chancellors"
    title = "Chancellors"
    version = "1"
    min_seats = 2
    max_seats = 4
    catalog_kind = None

    # ----------------------------------------------------------------- setup
    def initial_state(self, config: GameConfig) -> ChancellorsState:
        options = read_options(game_schemas.OPTIONS, config.options)

        def part_of_deck(name: str) -> bool:
            value = options[name]
            return options["extended_deck"] if value is None else value

        pawns, courts, excuse = part_of_deck("pawns"), part_of_deck("courts"), part_of_deck("excuse")
        n = config.seats
        zero = (0,) * n
        return ChancellorsState(
            seats=n,
            target=options["target"],
            pawns=pawns,
            courts=courts,
            excuse=excuse,
            scores=zero,
            hands=((),) * n,
            pile=deck(pawns, courts, excuse),
            problems=(Problem(),) * (n + 1),
            chosen=(None,) * n,
            queue=tuple(range(n)),
            solved_whole=zero,
            solved_part=zero,
            solved_unaided=zero,
            services_won=zero,
            abdications=zero,
            excuse_uses=zero,
        )

    def setup(self, config: GameConfig) -> list[Event]:
        state = self.initial_state(config)
        return [
            Event(
                ev.GAME_STARTED,
                {
                    "seats": state.seats,
                    "problems": len(state.problems),
                    "target": state.target,
                    "pawns": state.pawns,
                    "courts": state.courts,
                    "excuse": state.excuse,
                },
            )
        ]

    # ---------------------------------------------------------------- decide
    def decide(self, state: ChancellorsState, command: Command) -> list[Event]:
        return RULEBOOK.decide(state, command)

    # ---------------------------------------------------------------- evolve
    def evolve(self, state: ChancellorsState, event: Event) -> ChancellorsState:
        return apply(state, event)

    def chance(self, state: ChancellorsState) -> ChanceRequest | None:
        return flow.chance(state)

    # ------------------------------------------------------------ the rest
    def legal_commands(self, state: ChancellorsState, seat: int | None) -> list[dict[str, Any]]:
        """Concrete commands ``seat`` may post now.

        Solving lists, for each open problem, every *minimal* set of playable
        cards that reaches the threshold (sets with a card to spare are legal
        too but not listed), every single card that may solve part of it with
        each distinct die to set aside, and passing (with and without
        abdicating). For the dealer it lists a representative set of chance
        commands: every face for dice, and for draws one run of consecutive
        cards of the sorted pool starting at each of its cards.
        """
        return legal.legal_commands(state, seat)

    def view(self, state: ChancellorsState, seat: int | None) -> dict[str, Any]:
        return present.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        return present.redact(event, seat)

    def outcome(self, state: ChancellorsState) -> Outcome:
        scores = tuple(float(s) for s in state.scores)
        if state.phase != OVER:
            return Outcome(False, scores=scores)
        return Outcome(True, state.places, scores, state.ended_by)

    def describe(self, event: Event, names: Sequence[str]) -> str:
        return present.describe(event, names)

    def label(self, state: ChancellorsState, command: Command, names: Sequence[str]) -> str:
        if awaited_chance(command):
            return present.awaited_label(dict(command), names)
        return present.label_command(dict(command), names, log_label(self, state, command, names))

    def label_value(
        self, state: ChancellorsState, field: str, value: Any, names: Sequence[str]
    ) -> str | None:
        """One value of a command's field in the log's words."""
        return present.label_value(state, field, value, names)

    def table(
        self, state: ChancellorsState, viewer: int | str | None, names: Sequence[str]
    ) -> dict[str, Any]:
        return table.table(state, viewer, names)

    def dump_state(self, state: ChancellorsState) -> dict[str, Any]:
        return dump_state(state)

    def load_state(self, data: dict[str, Any], config: GameConfig) -> ChancellorsState:
        return load_state(data)

    def luck(self, state: ChancellorsState, event: Event) -> dict[int, float]:
        return present.luck(state, event)

    def statistics(self, state: ChancellorsState) -> dict[str, Any]:
        return present.statistics(state)


ENGINE = Chancellors()
RULEBOOK = CommandBook(
    title="Chancellors",
    commands={
        "ChooseCard": decide.choose_card,
        "SolveProblem": decide.solve_problem,
        "SolvePart": decide.solve_part,
        "Pass": decide.pass_turn,
        "DiscardDown": decide.discard_down,
    },
    chance_commands={"RollDice": decide.roll_dice, "DrawCards": decide.draw_cards},
    evolve=apply,
    automatic=flow.automatic,
    is_over=lambda state: state.phase == OVER,
    seats=lambda state: state.seats,
    chance=flow.chance,
)
