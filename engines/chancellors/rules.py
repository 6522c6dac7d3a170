"""Chancellors (P.D. Magnus): solve the kingdom's problems, control the royal
services, and reach the target score before a problem escalates out of control.

A turn runs (A) choose a card face down for control of the services, (B)
solve with control, service by service, (C) solve without control, seat by
seat, (D) escalate, (E) draw. Readings the rulebook leaves open are listed in
``docs/rules/chancellors.md``; each is tested.

The rules machinery lives in sibling modules: ``decide`` (commands), ``flow``
(the steps the game takes by itself and the chance it waits for),
``evolve`` (events), ``legal`` (the commands a seat may send) and
``present`` (views, lines, luck, statistics). This module starts a game and
declares the rules once, as ``ENGINE``.
"""

from __future__ import annotations

from engines.base import Event, GameConfig, Outcome
from engines.chancellors import decide, flow, legal, present, table
from engines.chancellors import events as ev
from engines.chancellors import schemas as game_schemas
from engines.chancellors.cards import deck
from engines.chancellors.evolve import apply
from engines.chancellors.state import OVER, ChancellorsState, Problem
from engines.kit import Rulebook, read_options


def initial_state(config: GameConfig) -> ChancellorsState:
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


def opening(state: ChancellorsState, config: GameConfig) -> list[Event]:
    data = {
        "seats": state.seats,
        "problems": len(state.problems),
        "target": state.target,
        "pawns": state.pawns,
        "courts": state.courts,
        "excuse": state.excuse,
    }
    return [Event(ev.GAME_STARTED, data)]


def is_over(state: ChancellorsState) -> bool:
    return state.phase == OVER


def outcome(state: ChancellorsState) -> Outcome:
    scores = tuple(float(s) for s in state.scores)
    if state.phase != OVER:
        return Outcome(False, scores=scores)
    return Outcome(True, state.places, scores, state.ended_by)


ENGINE = Rulebook(
    id="chancellors",
    title="Chancellors",
    version="1",
    min_seats=2,
    max_seats=4,
    commands={
        "ChooseCard": decide.choose_card,
        "SolveProblem": decide.solve_problem,
        "SolvePart": decide.solve_part,
        "Pass": decide.pass_turn,
        "DiscardDown": decide.discard_down,
    },
    chance_commands={"RollDice": decide.roll_dice, "DrawCards": decide.draw_cards},
    automatic=flow.automatic,
    is_over=is_over,
    evolve=apply,
    chance=flow.chance,
    initial_state=initial_state,
    opening=opening,
    state_class=ChancellorsState,
    legal_commands=legal.legal_commands,
    view=present.view,
    redact=present.redact,
    describe=present.describe,
    table=table.table,
    heading=table.heading,
    outcome=outcome,
    luck=present.luck,
    statistics=present.statistics,
    awaited_label=present.awaited_label,
    label_command=present.label_command,
    label_value=present.label_value,
)
