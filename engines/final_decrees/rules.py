"""Final Decrees (Carl de Visser, CC BY 3.0 NZ): bureaucrats pass the blame for
the Emperor's five decrees; the least personal blame wins.

Modules: ``decide`` judges commands, ``flow`` adds what follows by itself and
names the chance awaited, ``evolve`` applies events, ``effects`` runs the
catalog's card effects, ``deck`` keeps the stacked deck, ``legal`` lists the
commands a seat may send and ``present`` renders views and lines. Rule ids
(FD-n) and readings are in docs/rules/final-decrees.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import ChanceRequest, Command, Event, GameConfig, Outcome, RuleViolation
from engines.final_decrees import events as ev
from engines.final_decrees import legal, present
from engines.final_decrees.catalog import decree_steps, parse_catalog
from engines.final_decrees.decide import HANDLERS, is_int
from engines.final_decrees.departments import EXECUTIVE, in_play, initial_arrows
from engines.final_decrees.evolve import evolve
from engines.final_decrees.flow import chance, settle
from engines.final_decrees.state import OVER, Decree, FdState, dump_state, load_state
from engines.kit import awaiting as awaited
from engines.kit.offers import OFFER_COMMANDS

CHANCE_COMMANDS = ("DealHands", "PlaceDecline", "DrawCard", "DiscardFromDeck")


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
            discard_count=int(config.options["decline_discards"]),
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
        kind, seat = command.get("type"), command.get("seat")
        if state.phase == OVER:
            raise RuleViolation("game-over", "The game is over.")
        if kind in CHANCE_COMMANDS:
            if seat is not None:
                raise RuleViolation("dealer-only", "Only the dealer deals and draws cards.")
            return settle(state, self._chance_command(state, command))
        handler = HANDLERS.get(str(kind))
        if handler is None:
            raise RuleViolation("unknown-command", f"Final Decrees has no command {kind!r}.")
        if not is_int(seat) or not 0 <= seat < state.seats:
            raise RuleViolation("no-such-seat", f"There is no seat {seat!r}.", {"seat": seat})
        if chance(state) is not None:
            raise RuleViolation("chance-pending", "The cards must be dealt first.")
        awaited.check(state.awaiting, command, free=OFFER_COMMANDS)
        return settle(state, handler(state, command))

    def _chance_command(self, state: FdState, command: Command) -> list[Event]:
        request = chance(state)
        if request is None or request.command != command.get("type"):
            raise RuleViolation("no-chance-pending", "No such cards are waiting to be dealt.")
        cards = command.get("cards")
        if (
            not isinstance(cards, list)
            or len(cards) != request.draw
            or not all(isinstance(c, str) for c in cards)
        ):
            raise RuleViolation(
                "wrong-card-count", f"Deal exactly {request.draw} card(s).", {"draw": request.draw}
            )
        pool = list(request.pool)
        for card in cards:
            if card not in pool:
                raise RuleViolation(
                    "impossible-draw", "That card cannot be the next one from the deck.", {"card": card}
                )
            pool.remove(card)
        kind = request.command
        if kind == "DealHands":
            return [Event(ev.HANDS_DEALT, {"cards": list(cards)})]
        if kind == "PlaceDecline":
            return [Event(ev.DECLINE_PLACED, {"position": int(cards[0]), "window": list(state.deck.window)})]
        if kind == "DiscardFromDeck":
            return [Event(ev.CARDS_DISCARDED, {"cards": list(cards)})]
        if command.get("player") != request.fixed["player"]:
            raise RuleViolation("wrong-player", "The card drawn now is the turn's player's.")
        card = cards[0]
        data = {"player": request.fixed["player"], "card": card, "decline": card == state.catalog.decline}
        return [Event(ev.CARD_DRAWN, data)]

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

    def dump_state(self, state: FdState) -> dict[str, Any]:
        return dump_state(state)

    def load_state(self, data: dict[str, Any], config: GameConfig) -> FdState:
        return load_state(data, parse_catalog(config.catalog))

    def luck(self, state: FdState, event: Event) -> dict[int, float]:
        return present.luck(state, event)

    def statistics(self, state: FdState) -> dict[str, Any]:
        return present.statistics(state)


ENGINE = FinalDecrees()
