"""Judging commands.

``decide`` returns the command's events followed by every event the game
then takes by itself (a crony with no empty position is discarded, a window
closes once every seat it waits for has passed, or at once when a Hawks
investigation would have nothing to remove, the next turn or round starts,
the votes are counted), so that after any command the game waits for a chance draw or a
player's choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Event, RuleViolation
from engines.house_of_cronies import events as ev
from engines.house_of_cronies.catalog import (
    ALLY,
    CRONY,
    FOREIGN_ALLY,
    SPECIALIST_POSITIONS,
    normalize_position,
)
from engines.house_of_cronies.flow import draw_request
from engines.house_of_cronies.query import (
    TACTIC_COST,
    active_placer,
    contains,
    hand_value,
    tactic_supply,
    uses_corruption,
    value_of,
)
from engines.house_of_cronies.state import OPENING, TURNS, HocState
from engines.house_of_cronies.tactics import (
    decide_pass,
    decide_play,
)
from engines.kit import check_chance
from engines.kit.table import counted

# --- chance -------------------------------------------------------------------


def decide_draw(state: HocState, command: Mapping[str, Any]) -> list[Event]:
    _, cards = check_chance(draw_request(state), command)
    draw = state.pending_draws[0]
    if draw.to == "table":
        return [Event(ev.CARDS_LAID_OUT, {"round": state.round, "cards": cards})]
    return [Event(ev.CARDS_DRAWN, {"deck": draw.deck, "seat": draw.to, "cards": cards})]


# --- players ----------------------------------------------------------------


def _blocked(state: HocState, seat: int, placer: int | None) -> None:
    """Refuse a turn action while a window, a placement or an auction must be dealt with first."""
    if state.chain:
        raise RuleViolation(
            "reaction-pending", "A tactic was just played: Points of order are answered first."
        )
    if placer is not None:
        raise RuleViolation("placement-pending", "A gained crony must be placed first.", {"seat": placer})
    if state.window is not None:
        raise RuleViolation("reaction-pending", "A reaction window is open; it must close first.")


def _own_turn(state: HocState, seat: int) -> None:
    if state.stage != TURNS or state.turn != seat:
        raise RuleViolation("not-your-turn", f"It is not seat {seat}'s turn.", {"turn": state.turn})


def _money_cards(state: HocState, seat: int, cards: Any) -> list[str]:
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        raise RuleViolation("no-cards", "Name the influence and corruption cards you put down.")
    if len(set(cards)) != len(cards):
        raise RuleViolation("duplicate-card", "Each card can be put down once.")
    for card in cards:
        if not state.catalog.has(card):
            raise RuleViolation("unknown-card", f"There is no card {card!r}.")
        if not state.card(card).is_money:
            raise RuleViolation(
                "not-money", f"{state.card(card).label()} is not an influence or corruption card."
            )
    if not contains(state.players[seat].hand, cards):
        raise RuleViolation("not-in-hand", "Those cards are not all in your hand.", {"cards": cards})
    return cards


def place_crony(state: HocState, seat: int, command: Mapping[str, Any], placer: int | None) -> list[Event]:
    if state.chain or (placer is None and state.window is not None):
        raise RuleViolation("reaction-pending", "A reaction window is open.")
    card = command.get("card")
    if placer is None or card not in state.players[seat].to_place:
        raise RuleViolation(
            "nothing-to-place", "You have no such crony waiting to be placed.", {"card": card}
        )
    if placer != seat:
        raise RuleViolation("not-your-turn", "Cronies are placed in turn order.", {"seat": placer})
    position = normalize_position(command.get("position"))
    if position is None:
        raise RuleViolation("unknown-position", f"There is no cabinet position {command.get('position')!r}.")
    definition = state.card(card)
    if state.players[seat].at(position) is not None:
        raise RuleViolation("position-taken", f"Your {position} position is already filled.")
    if definition.type == ALLY and position != FOREIGN_ALLY:
        raise RuleViolation("ally-seat-only", "A foreign ally can only take the Foreign ally position.")
    if definition.type == CRONY and position == FOREIGN_ALLY:
        raise RuleViolation("foreign-ally-seat", "Only a foreign ally takes the Foreign ally position.")
    if definition.type == CRONY and position in SPECIALIST_POSITIONS and position not in definition.positions:
        raise RuleViolation(
            "not-a-specialist",
            f"{definition.label()} is not a {position} specialist.",
            {"position": position},
        )
    data = {
        "seat": seat,
        "card": card,
        "name": definition.label(),
        "position": position,
        "free_tactics": definition.free_tactics,
    }
    return [Event(ev.CRONY_PLACED, data)]


def pick_up(state: HocState, seat: int, command: Mapping[str, Any], placer: int | None) -> list[Event]:
    _blocked(state, seat, placer)
    if state.auction is not None:
        raise RuleViolation("auction-open", "An auction is open: bid or pass.")
    _own_turn(state, seat)
    if state.final:
        raise RuleViolation("final-round", "In the final round players only buy and play tactics.")
    if seat in state.gained:
        raise RuleViolation("already-gained", "Players can only gain one card each round.")
    card = command.get("card")
    if card not in state.table:
        raise RuleViolation("not-on-table", "That card is not on the table.", {"card": card})
    if not state.card(card).is_money:
        raise RuleViolation(
            "bid-for-cronies", "Cronies and foreign allies are won by bidding, not picked up."
        )
    definition = state.card(card)
    data = {"seat": seat, "card": card, "kind": definition.type, "value": definition.value}
    return [Event(ev.CARD_PICKED_UP, data)]


def place_bid(state: HocState, seat: int, command: Mapping[str, Any], placer: int | None) -> list[Event]:
    _blocked(state, seat, placer)
    if state.stage != TURNS:
        raise RuleViolation("not-your-turn", "Bids are made during the turns of a round.")
    if state.final:
        raise RuleViolation("final-round", "In the final round players only buy and play tactics.")
    auction = state.auction
    card = command.get("card")
    if auction is not None:
        if card != auction.card:
            raise RuleViolation(
                "auction-open", f"The auction open is for {state.card(auction.card).label()}."
            )
        if seat != auction.asking:
            raise RuleViolation(
                "not-asked",
                "Bidding passes clockwise: it is another player's call.",
                {"asking": auction.asking},
            )
    else:
        _own_turn(state, seat)
    if seat in state.gained:
        raise RuleViolation("already-gained", "Players can only gain one card each round.")
    if seat in state.censured:
        raise RuleViolation("no-confidence", "A Motion of no confidence bars you from bidding this round.")
    if card not in state.table:
        raise RuleViolation("not-on-table", "That card is not on the table.", {"card": card})
    definition = state.card(card)
    if not definition.is_biddable:
        raise RuleViolation("pick-up-money", "Influence and corruption cards are picked up, not bid for.")
    cards = _money_cards(state, seat, command.get("cards"))
    value = value_of(state, cards)
    if value < definition.min_bid:
        raise RuleViolation(
            "bid-below-minimum",
            f"{definition.label()} needs a bid of at least {definition.min_bid}.",
            {"minimum": definition.min_bid, "value": value},
        )
    if auction is not None and value <= auction.value:
        raise RuleViolation(
            "bid-too-low",
            f"Each bid must be higher than the last ({auction.value}).",
            {"highest": auction.value, "value": value},
        )
    data = {"seat": seat, "card": card, "name": definition.label(), "cards": cards, "value": value}
    return [Event(ev.BID_PLACED, data)]


def pass_bid(state: HocState, seat: int, command: Mapping[str, Any], placer: int | None) -> list[Event]:
    _blocked(state, seat, placer)
    if state.auction is None:
        raise RuleViolation("no-auction", "No auction is open.")
    if seat != state.auction.asking:
        raise RuleViolation("not-asked", "Bidding passes clockwise: it is another player's call.")
    return [Event(ev.BID_PASSED, {"seat": seat})]


def superfluous_card(state: HocState, cards: list[str], price: int) -> str | None:
    """A card the payment does not need: change is never given, so it may not be handed over."""
    total = value_of(state, cards)
    for card in cards:
        if total - state.card(card).value >= price:
            return card
    return None


def buy_tactics(state: HocState, seat: int, command: Mapping[str, Any], placer: int | None) -> list[Event]:
    _blocked(state, seat, placer)
    if state.auction is not None:
        raise RuleViolation("auction-open", "Tactics are bought before or after an auction, not during it.")
    _own_turn(state, seat)
    if seat in state.censured:
        raise RuleViolation(
            "no-confidence", "A Motion of no confidence bars you from buying tactics this round."
        )
    count = command.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise RuleViolation("bad-count", "Buy at least one tactic.")
    if tactic_supply(state) < count:
        raise RuleViolation(
            "tactics-exhausted",
            f"Only {counted(tactic_supply(state), 'tactics')} {'is' if tactic_supply(state) == 1 else 'are'} left in the deck and its discards.",
            {"left": tactic_supply(state)},
        )
    cards = _money_cards(state, seat, command.get("cards"))
    price = TACTIC_COST * count
    value = value_of(state, cards)
    if value < price:
        raise RuleViolation(
            "too-little-paid",
            f"{counted(count, 'tactics')} {'costs' if count == 1 else 'cost'} {price}; you offered {value}.",
            {"price": price},
        )
    spare = superfluous_card(state, cards, price)
    if spare is not None:
        raise RuleViolation(
            "no-change-given",
            f"No change is given: the payment does not need {state.card(spare).label()}; keep it.",
            {"card": spare},
        )
    data = {
        "seat": seat,
        "count": count,
        "cards": cards,
        "value": value,
        "corruption": uses_corruption(state, cards),
    }
    return [Event(ev.TACTIC_BOUGHT, data)]


def can_take_a_card(state: HocState, seat: int) -> bool:
    """Could ``seat`` still pick up a card or afford a bid on its turn?"""
    if state.final or seat in state.gained:
        return False
    if any(state.card(c).is_money for c in state.table):
        return True
    if seat in state.censured:
        return False
    money = hand_value(state, seat)
    return any(state.card(c).is_biddable and state.card(c).min_bid <= money for c in state.table)


def end_turn(state: HocState, seat: int, command: Mapping[str, Any], placer: int | None) -> list[Event]:
    _blocked(state, seat, placer)
    if state.auction is not None:
        raise RuleViolation("auction-open", "An auction is open: bid or pass.")
    _own_turn(state, seat)
    if can_take_a_card(state, seat):
        raise RuleViolation(
            "must-take-a-card",
            "Pick up an influence or corruption card or bid for a crony before ending your turn.",
        )
    took_nothing = not state.final and seat not in state.gained
    return [Event(ev.TURN_ENDED, {"seat": seat, "took_nothing": took_nothing})]


def play_tactic(state: HocState, seat: int, command: Mapping[str, Any], placer: int | None) -> list[Event]:
    return decide_play(state, seat, command, placer)


def pass_reaction(state: HocState, seat: int, command: Mapping[str, Any], placer: int | None) -> list[Event]:
    return decide_pass(state, seat, placer)


HANDLERS = {
    "PlaceCrony": place_crony,
    "PickUpCard": pick_up,
    "PlaceBid": place_bid,
    "PassBid": pass_bid,
    "BuyTactics": buy_tactics,
    "PlayTactic": play_tactic,
    "PassReaction": pass_reaction,
    "EndTurn": end_turn,
}


def seat_command(handler: Any) -> Any:
    """A player's command: refused during the opening unless it places a crony."""

    def judge(state: HocState, command: Mapping[str, Any]) -> list[Event]:
        if state.stage == OPENING and command["type"] != "PlaceCrony":
            raise RuleViolation("opening", "The opening hands' cronies are placed before the first round.")
        return handler(state, command["seat"], command, active_placer(state))

    return judge


COMMANDS = {kind: seat_command(handler) for kind, handler in HANDLERS.items()}
