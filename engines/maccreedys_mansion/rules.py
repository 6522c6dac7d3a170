"""MacCreedy's Mansion (HTKB Simple Games Suite): companies restore a haunted
mansion over rounds of twelve phases; closed companies haunt it, and may
re-open. The most money wins.

The rulebook prints no board and no cards: they come from the board catalog
in ``GameConfig.catalog``. Sibling modules: ``flow`` (the round's phase
machine and what the game does by itself), ``decide`` (commands), ``effects``
(cards and haunts), ``evolve`` (events), ``legal`` and ``present``. Every
reading of the rulebook is listed in docs/rules/maccreedys-mansion.md. This
module starts a game and declares the rules once, as ``ENGINE``.
"""

from __future__ import annotations

from engines.base import ChanceRequest, Event, GameConfig, Outcome, RuleViolation
from engines.kit import Rulebook, read_options
from engines.kit.rulebook import catalog_kept_out
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


def initial_state(config: GameConfig) -> MmState:
    if not ENGINE.min_seats <= config.seats <= ENGINE.max_seats:
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
        job_deck=tuple(sorted(j.id for j in board.jobs if board.location[j.location].room not in covered)),
        event_deck=tuple(sorted(c.id for c in board.events)),
        haunt_deck=tuple(sorted(c.id for c in board.haunts)),
    )


def opening(state: MmState, config: GameConfig) -> list[Event]:
    data = {
        "seats": state.seats,
        "first": state.first,
        "max_rounds": state.max_rounds,
        "covered": list(state.covered),
    }
    return [Event(ev.GAME_STARTED, data)]


def is_over(state: MmState) -> bool:
    return state.phase == OVER


def chance(state: MmState) -> ChanceRequest | None:
    return None if state.phase == OVER else chance_request(state)


def outcome(state: MmState) -> Outcome:
    scores = tuple(float(money(state, s)) for s in range(state.seats))
    if state.phase != OVER:
        return Outcome(finished=False, scores=scores)
    return Outcome(finished=True, places=state.final_places, scores=scores, ended_by=state.ended_by)


ENGINE = Rulebook(
    id="maccreedys-mansion",
    title="MacCreedy's Mansion",
    version="1",
    min_seats=2,
    max_seats=5,
    catalog_kind="maccreedys-mansion",
    commands=COMMANDS,
    chance_commands={"DrawCard": draw_card},
    automatic=automatic,
    is_over=is_over,
    evolve=evolve,
    chance=chance,
    initial_state=initial_state,
    opening=opening,
    state_class=MmState,
    kept_out=catalog_kept_out(parse_board, field="board"),
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
    label_value=present.label_value,
    amounts=legal.amounts,
)
