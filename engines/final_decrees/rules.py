"""Final Decrees (Carl de Visser, CC BY 3.0 NZ): bureaucrats pass the blame for
the Emperor's five decrees; the least personal blame wins.

Modules: ``decide`` judges commands, ``flow`` adds what follows by itself and
names the chance awaited, ``evolve`` applies events, ``effects`` runs the
catalog's card effects, ``legal`` lists the
commands a seat may send and ``present`` renders views and lines. Rule ids
(FD-n) and readings are in docs/rules/final-decrees.md. This module judges
the chance, starts a game and declares the rules once, as ``ENGINE``.
"""

from __future__ import annotations

from typing import Any

from engines.base import Command, Event, GameConfig, Outcome, RuleViolation
from engines.final_decrees import events as ev
from engines.final_decrees import legal, present, table
from engines.final_decrees import schemas as game_schemas
from engines.final_decrees.catalog import decree_steps, parse_catalog
from engines.final_decrees.decide import HANDLERS
from engines.final_decrees.departments import EXECUTIVE, in_play, initial_arrows
from engines.final_decrees.evolve import evolve
from engines.final_decrees.flow import automatic, chance
from engines.final_decrees.state import OVER, Decree, FdState
from engines.kit import Rulebook, check_chance, read_options
from engines.kit import awaiting as awaited
from engines.kit.offers import OFFER_COMMANDS
from engines.kit.rulebook import catalog_kept_out


def _while_awaiting(handler: Any) -> Any:
    """A seat command, refused while another seat's required step is awaited (trades excepted)."""

    def judged(state: FdState, command: Command) -> list[Event]:
        awaited.check(state.awaiting, command, free=OFFER_COMMANDS)
        return handler(state, command)

    return judged


def _deal_hands(state: FdState, command: Command) -> list[Event]:
    _, cards = check_chance(chance(state), command)
    return [Event(ev.HANDS_DEALT, {"cards": cards})]


def _discard_from_deck(state: FdState, command: Command) -> list[Event]:
    _, cards = check_chance(chance(state), command)
    return [Event(ev.CARDS_DISCARDED, {"cards": cards})]


def _draw_card(state: FdState, command: Command) -> list[Event]:
    request = chance(state)
    _, cards = check_chance(request, command)
    card = cards[0]
    data = {"player": request.fixed["player"], "card": card, "decline": card == state.catalog.decline}
    return [Event(ev.CARD_DRAWN, data)]


def initial_state(config: GameConfig) -> FdState:
    if not ENGINE.min_seats <= config.seats <= ENGINE.max_seats:
        raise RuleViolation("seats", "Final Decrees is for 5 players, or 4 without Reform (FD-1).")
    catalog = parse_catalog(config.catalog)
    departments = in_play(config.seats)
    n = config.seats
    zero = (0,) * n
    return FdState(
        catalog=catalog,
        seats=n,
        dealer=config.dealer,
        discard_count=read_options(game_schemas.OPTIONS, config.options)["decline_discards"],
        departments=departments,
        bidders=tuple(range(n)),
        bids=(None,) * n,
        posts=(None,) * n,
        dept_blame=(0,) * len(departments),
        personal=zero,
        arrows=initial_arrows(departments),
        decrees=tuple(
            Decree(d.id, decree_steps(d, n), 0, EXECUTIVE) for d in catalog.decrees
        ),  # FD-16: all five on the Executive Branch
        hands=((),) * n,
        stamps=zero,
        enactments=zero,
        removed=zero,
        declines=zero,
        trades=zero,
        first_bid=zero,
        headed=((),) * n,
    )


def opening(state: FdState, config: GameConfig) -> list[Event]:
    data = {
        "seats": state.seats,
        "departments": list(state.departments),
        "arrows": [list(a) for a in state.arrows],
        "decrees": [{"id": d.id, "steps": list(d.steps)} for d in state.decrees],
        "decline_discards": state.discard_count,
    }
    return [Event(ev.GAME_STARTED, data)]


def is_over(state: FdState) -> bool:
    return state.phase == OVER


def outcome(state: FdState) -> Outcome:
    scores = tuple(float(p) for p in state.personal)
    if state.phase != OVER:
        return Outcome(False, scores=scores)
    return Outcome(True, state.places, scores, state.ended_by)


ENGINE = Rulebook(
    id="final-decrees",
    title="Final Decrees",
    version="1",
    min_seats=4,
    max_seats=5,
    catalog_kind="final-decrees",
    commands={kind: _while_awaiting(handler) for kind, handler in HANDLERS.items()},
    chance_commands={
        "DealHands": _deal_hands,
        "DrawCard": _draw_card,
        "DiscardFromDeck": _discard_from_deck,
    },
    automatic=automatic,
    is_over=is_over,
    evolve=evolve,
    chance=chance,
    initial_state=initial_state,
    opening=opening,
    state_class=FdState,
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
