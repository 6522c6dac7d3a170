"""Political Divide & Conquer 2020 (Frederick Noble, Degenerate Press): draw two,
keep one and return the other to the top or the bottom of the deck, then
reject a group, add one to your base, stack an asset or deficit, or attack;
events at any time before the dice. The largest net wing influence wins.

The rules machinery lives in sibling modules: ``decide`` (commands), ``flow``
(chance and the automatic steps), ``evolve`` (events), ``legal`` (the
commands a seat may send) and ``present`` (views, lines, luck). The cards come
from the catalog in ``GameConfig.catalog``. Rule readings are listed in
docs/rules/political-divide-and-conquer.md. This module starts a game and
declares the rules once, as ``ENGINE``.
"""

from __future__ import annotations

from engines.base import Event, GameConfig, Outcome, RuleViolation
from engines.kit import Rulebook, read_options
from engines.kit.rulebook import catalog_kept_out
from engines.political_divide_and_conquer import events as ev
from engines.political_divide_and_conquer import flow, legal, present, table
from engines.political_divide_and_conquer import schemas as game_schemas
from engines.political_divide_and_conquer.catalog import parse_catalog
from engines.political_divide_and_conquer.decide import CHANCE_COMMANDS, COMMANDS
from engines.political_divide_and_conquer.evolve import evolve
from engines.political_divide_and_conquer.scoring import base_cards, places, score
from engines.political_divide_and_conquer.state import OVER, PdcState


def initial_state(config: GameConfig) -> PdcState:
    if not ENGINE.min_seats <= config.seats <= ENGINE.max_seats:
        raise RuleViolation(
            "four-to-eight-players", "Political Divide & Conquer is played by 4 to 8 players (PDC-1)."
        )
    first = read_options(game_schemas.OPTIONS, config.options)["first_player"]
    if first is not None and first >= config.seats:
        raise RuleViolation(
            "first-player-not-a-seat", f"The first player must be one of the {config.seats} seats."
        )
    return PdcState(catalog=parse_catalog(config.catalog), seats=config.seats)


def opening(state: PdcState, config: GameConfig) -> list[Event]:
    data = {
        "seats": state.seats,
        "catalog": {"id": state.catalog.id, "version": state.catalog.version},
        "first_player": read_options(game_schemas.OPTIONS, config.options)["first_player"],
    }
    return [Event(ev.GAME_STARTED, data)]


def is_over(state: PdcState) -> bool:
    return state.stage == OVER


def outcome(state: PdcState) -> Outcome:
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


ENGINE = Rulebook(
    id="political-divide-and-conquer",
    title="Political Divide & Conquer",
    version="1",
    min_seats=4,
    max_seats=8,
    catalog_kind="political-divide-and-conquer",
    commands=COMMANDS,
    chance_commands=CHANCE_COMMANDS,
    automatic=flow.automatic,
    is_over=is_over,
    evolve=evolve,
    chance=flow.chance,
    initial_state=initial_state,
    opening=opening,
    state_class=PdcState,
    kept_out=catalog_kept_out(parse_catalog),
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
    any_time=frozenset({"PlayEvent"}),
)
