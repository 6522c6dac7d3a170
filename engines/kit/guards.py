"""The refusals every engine makes, with one stable code per kind.

| code | when |
|---|---|
| ``game-over`` | any command after the game ended |
| ``unknown-command`` | a command type the game does not have |
| ``dealer-only`` | a seat sends a chance command (dice, draws) |
| ``no-such-seat`` | a player command names no seat of the game |
| ``chance-pending`` | a seat acts while the game waits for dice or cards |
| ``no-chance-pending`` | a chance command while no chance is awaited, or a different one |
| ``wrong-chance`` | a chance command that answers another request (other player, problem, deck) |
| ``wrong-dice-count`` / ``impossible-die`` | not the dice asked for / a die that is not 1 to 6 |
| ``wrong-card-count`` / ``card-not-in-pool`` | not the number of cards asked for / a card that cannot be drawn |
| ``not-your-turn`` | a seat acts out of turn |
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from typing import Any

from engines.base import ChanceRequest, Command, RuleViolation


def is_int(value: Any) -> bool:
    """A JSON integer (``True`` is not a seat)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_seat_command(
    title: str,
    command: Command,
    *,
    seats: int,
    over: bool,
    commands: Collection[str],
    chance_commands: Collection[str],
    chance: ChanceRequest | None,
) -> None:
    """The guards at the top of every ``decide``, in one order."""
    kind, seat = command.get("type"), command.get("seat")
    if over:
        raise RuleViolation("game-over", "The game is over.")
    if kind not in commands and kind not in chance_commands:
        raise RuleViolation("unknown-command", f"{title} has no command {kind!r}.", {"type": kind})
    if kind in chance_commands:
        if seat is not None:
            raise RuleViolation("dealer-only", "Only the dealer rolls dice and draws cards.")
        if chance is None or chance.command != kind:
            raise RuleViolation("no-chance-pending", "No dice or cards of that kind are awaited.")
        return
    if not is_int(seat) or not 0 <= seat < seats:
        raise RuleViolation("no-such-seat", f"There is no seat {seat!r}.", {"seat": seat})
    if chance is not None:
        raise RuleViolation("chance-pending", "The dice or cards must be dealt first.")


def expect_turn(seat: int, turn: int | None) -> None:
    if seat != turn:
        raise RuleViolation("not-your-turn", f"It is seat {turn}'s turn.", {"turn": turn})


def check_chance(request: ChanceRequest, command: Command) -> tuple[list[int], list[str]]:
    """The dice and cards of a chance command that answers ``request``.

    The command must repeat the request's fixed fields, roll exactly the dice
    asked for (each 1 to 6) and draw exactly the cards asked for, each still
    in the pool (a multiset: a card held once cannot be drawn twice).
    """
    for name, value in request.fixed.items():
        if command.get(name) != value or (is_int(value) and not is_int(command.get(name))):
            raise RuleViolation(
                "wrong-chance",
                f"The chance awaited now is for {name} {value!r}.",
                {"expected": dict(request.fixed)},
            )
    dice: list[int] = []
    if request.dice:
        dice = command.get("dice")
        if not isinstance(dice, list | tuple) or len(dice) != request.dice:
            raise RuleViolation(
                "wrong-dice-count", f"Roll exactly {request.dice} dice.", {"dice": request.dice}
            )
        if any(not is_int(d) or not 1 <= d <= 6 for d in dice):
            raise RuleViolation("impossible-die", "A die shows 1 to 6.", {"dice": list(dice)})
        dice = list(dice)
    cards: list[str] = []
    if request.draw:
        cards = command.get("cards")
        if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards):
            raise RuleViolation(
                "wrong-card-count", f"Draw exactly {request.draw} cards.", {"draw": request.draw}
            )
        if len(cards) != request.draw:
            raise RuleViolation(
                "wrong-card-count", f"Draw exactly {request.draw} cards.", {"draw": request.draw}
            )
        missing = Counter(cards) - Counter(request.pool)
        if missing:
            raise RuleViolation(
                "card-not-in-pool", "Only cards still in the pile can be drawn.", {"cards": sorted(missing)}
            )
        cards = list(cards)
    return dice, cards
