"""House of Cronies (Pierre Cassuto, Both Worlds): bid for cronies, fill a
cabinet, sabotage with tactics; the most votes at the election wins.

The rules machinery lives in sibling modules: ``decide`` (commands), ``flow``
(the automatic steps after them), ``evolve`` (events), ``tactics`` (timing,
targets, reaction windows), ``legal`` (the commands a seat may send) and
``present`` (views, lines, luck). The printed cards come from the catalog in
``GameConfig.catalog``. Rule readings are listed in docs/rules/house-of-cronies.md.
This module starts a game and declares the rules once, as ``ENGINE``.
"""

from __future__ import annotations

from engines.base import Event, GameConfig, Outcome, RuleViolation
from engines.house_of_cronies import decide as judge
from engines.house_of_cronies import events as ev
from engines.house_of_cronies import legal, present, table
from engines.house_of_cronies import schemas as game_schemas
from engines.house_of_cronies.catalog import parse_catalog
from engines.house_of_cronies.evolve import evolve
from engines.house_of_cronies.flow import automatic, draw_request
from engines.house_of_cronies.query import places, votes
from engines.house_of_cronies.state import OVER, HocState, Player
from engines.kit import Rulebook, read_options
from engines.kit.rulebook import catalog_kept_out


def initial_state(config: GameConfig) -> HocState:
    if not ENGINE.min_seats <= config.seats <= ENGINE.max_seats:
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


def opening(state: HocState, config: GameConfig) -> list[Event]:
    data = {
        "seats": state.seats,
        "speaker": state.speaker,
        "catalog": {"id": state.catalog.id, "version": state.catalog.version},
    }
    return [Event(ev.GAME_STARTED, data)]


def is_over(state: HocState) -> bool:
    return state.stage == OVER


def outcome(state: HocState) -> Outcome:
    if state.stage != OVER:
        totals, _ = votes(state)
        return Outcome(finished=False, scores=tuple(float(v) for v in totals))
    return Outcome(
        finished=True,
        places=tuple(places(state.votes)),
        scores=tuple(float(v) for v in state.votes),
        ended_by=ev.Termination.ELECTION.value,
    )


ENGINE = Rulebook(
    id="house-of-cronies",
    title="House of Cronies",
    version="1",
    min_seats=3,
    max_seats=4,
    catalog_kind="house-of-cronies",
    commands=judge.COMMANDS,
    chance_commands={"DrawCards": judge.decide_draw},
    automatic=automatic,
    is_over=is_over,
    evolve=evolve,
    chance=draw_request,
    initial_state=initial_state,
    opening=opening,
    state_class=HocState,
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
)
