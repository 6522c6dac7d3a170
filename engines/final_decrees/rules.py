"""Final Decrees (Carl de Visser, CC BY 3.0 NZ): bureaucrats pass the blame for
the Emperor's five decrees; the least personal blame wins.

Modules: ``decide`` judges commands, ``flow`` adds what follows by itself and
names the chance awaited, ``evolve`` applies events, ``effects`` runs the
catalog's card effects, ``legal`` lists the
commands a seat may send and ``present`` renders views and lines. Rule ids
(FD-n) and readings are in docs/rules/final-decrees.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import ChanceRequest, Command, Event, GameConfig, Outcome, RuleViolation
from engines.final_decrees import events as ev
from engines.final_decrees import legal, present, table
from engines.final_decrees import schemas as game_schemas
from engines.final_decrees.catalog import decree_steps, parse_catalog
from engines.final_decrees.decide import HANDLERS
from engines.final_decrees.departments import EXECUTIVE, in_play, initial_arrows
from engines.final_decrees.evolve import evolve
from engines.final_decrees.flow import automatic, chance
from engines.final_decrees.state import OVER, Decree, FdState, dump_state, load_state
from engines.kit import awaited_chance, check_chance, log_label, read_options
from engines.kit import awaiting as awaited
from engines.kit.offers import OFFER_COMMANDS
from engines.kit.rulebook import CommandBook


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


RULEBOOK = CommandBook(
    title="Final Decrees",
    commands={kind: _while_awaiting(handler) for kind, handler in HANDLERS.items()},
    chance_commands={
        "DealHands": _deal_hands,
        "DrawCard": _draw_card,
        "DiscardFromDeck": _discard_from_deck,
    },
    evolve=evolve,
    automatic=automatic,
    is_over=lambda state: state.phase == OVER,
    seats=lambda state: state.seats,
    chance=chance,
)


class FinalDecrees:
    id = "final-decrees"
    title = "Final Decrees"
    version = "1"
    min_seats = 4
    max_seats = 5
    catalog_kind = "final-decrees"

    def initial_state(self, config: GameConfig) -> FdState:
        if not self.min_seats <= config.seats <= self.max_seats:
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

    def setup(self, config: GameConfig) -> list[Event]:
        state = self.initial_state(config)
        data = {
            "seats": state.seats,
            "departments": list(state.departments),
            "arrows": [list(a) for a in state.arrows],
            "decrees": [{"id": d.id, "steps": list(d.steps)} for d in state.decrees],
            "decline_discards": state.discard_count,
        }
        return [Event(ev.GAME_STARTED, data)]

    def decide(self, state: FdState, command: Command) -> list[Event]:
        return RULEBOOK.decide(state, command)

    def evolve(self, state: FdState, event: Event) -> FdState:
        return evolve(state, event)

    def chance(self, state: FdState) -> ChanceRequest | None:
        return chance(state)

    def legal_commands(self, state: FdState, seat: int | None) -> list[dict[str, Any]]:
        return legal.legal_commands(state, seat)

    def view(self, state: FdState, seat: int | None) -> dict[str, Any]:
        return present.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        return present.redact(event, seat)

    def outcome(self, state: FdState) -> Outcome:
        scores = tuple(float(p) for p in state.personal)
        if state.phase != OVER:
            return Outcome(False, scores=scores)
        return Outcome(True, state.places, scores, state.ended_by)

    def describe(self, event: Event, names: Sequence[str]) -> str:
        return present.describe(event, names)

    def label(self, state: FdState, command: Command, names: Sequence[str]) -> str:
        if awaited_chance(command):
            return present.awaited_label(dict(command), names)
        return present.label_command(dict(command), log_label(self, state, command, names))

    def label_value(self, state: FdState, field: str, value: Any, names: Sequence[str]) -> str | None:
        """One value of a command's field in the log's words."""
        return present.label_value(state, field, value, names)

    def table(self, state: FdState, viewer: int | str | None, names: Sequence[str]) -> dict[str, Any]:
        return table.table(state, viewer, names)

    def dump_state(self, state: FdState) -> dict[str, Any]:
        return dump_state(state)

    def load_state(self, data: dict[str, Any], config: GameConfig) -> FdState:
        return load_state(data, parse_catalog(config.catalog))

    def luck(self, state: FdState, event: Event) -> dict[int, float]:
        return present.luck(state, event)

    def statistics(self, state: FdState) -> dict[str, Any]:
        return present.statistics(state)


ENGINE = FinalDecrees()
