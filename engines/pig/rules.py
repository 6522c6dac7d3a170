"""Pig, the reference dice game: roll to add to your turn total, hold to bank
it, a 1 loses the turn total; the first to the target wins.

It is small and complete so that the service can be exercised end to end,
chance included, independently of the five club games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from engines.base import ChanceRequest, Command, Event, GameConfig, Outcome, RuleViolation
from engines.pig import events as ev
from engines.pig.state import PigState


class Pig:
    id = "pig"
    title = "Pig (reference dice game)"
    version = "1"
    min_seats = 2
    max_seats = 6
    catalog_kind = None

    def initial_state(self, config: GameConfig) -> PigState:
        target = int(config.options.get("target", 30))
        return PigState(seats=config.seats, target=target, scores=(0,) * config.seats)

    def setup(self, config: GameConfig) -> list[Event]:
        return []

    def decide(self, state: PigState, command: Command) -> list[Event]:
        kind, seat = command.get("type"), command.get("seat")
        if state.winner is not None:
            raise RuleViolation("game-over", "The game is over.")
        if kind == "ResolveRoll":
            return self._resolve_roll(state, command)
        if state.rolling:
            raise RuleViolation("roll-pending", "The die must be rolled first.")
        if seat != state.turn:
            raise RuleViolation("not-your-turn", f"It is seat {state.turn}'s turn.", {"turn": state.turn})
        if kind == "Roll":
            return [Event(ev.ROLL_STARTED, {"seat": seat})]
        if kind == "Hold":
            if state.turn_total == 0:
                raise RuleViolation("nothing-to-hold", "Roll at least once before holding.")
            events = [Event(ev.TURN_HELD, {"seat": seat, "points": state.turn_total})]
            if state.scores[seat] + state.turn_total >= state.target:
                events.append(Event(ev.GAME_WON, {"seat": seat}))
            return events
        raise RuleViolation("unknown-command", f"Pig has no command {kind!r}.")

    def _resolve_roll(self, state: PigState, command: Command) -> list[Event]:
        if not state.rolling:
            raise RuleViolation("no-roll-pending", "No roll is waiting for a die.")
        if command.get("seat") is not None:
            raise RuleViolation("dealer-only", "Only the dealer rolls the die.")
        dice = command.get("dice") or []
        if len(dice) != 1 or not isinstance(dice[0], int) or not 1 <= dice[0] <= 6:
            raise RuleViolation("impossible-die", "A roll is one die showing 1 to 6.", {"dice": dice})
        value = dice[0]
        events = [Event(ev.DIE_ROLLED, {"seat": state.turn, "value": value})]
        if value == 1:
            events.append(Event(ev.TURN_BUSTED, {"seat": state.turn, "lost": state.turn_total}))
        return events

    def evolve(self, state: PigState, event: Event) -> PigState:
        d = event.data
        if event.type == ev.ROLL_STARTED:
            return state.with_(rolling=True)
        if event.type == ev.DIE_ROLLED:
            return state.with_(rolling=False, turn_total=state.turn_total + d["value"])
        if event.type == ev.TURN_BUSTED:
            return state.with_(turn_total=0, turn=(state.turn + 1) % state.seats)
        if event.type == ev.TURN_HELD:
            scores = list(state.scores)
            scores[d["seat"]] += d["points"]
            return state.with_(scores=tuple(scores), turn_total=0, turn=(state.turn + 1) % state.seats)
        if event.type == ev.GAME_WON:
            return state.with_(winner=d["seat"])
        raise ValueError(f"unknown event {event.type}")

    def chance(self, state: PigState) -> ChanceRequest | None:
        if state.rolling and state.winner is None:
            return ChanceRequest(command="ResolveRoll", dice=1, seat=state.turn)
        return None

    def legal_commands(self, state: PigState, seat: int | None) -> list[dict[str, Any]]:
        if state.winner is not None:
            return []
        if state.rolling:
            return (
                [{"type": "ResolveRoll", "seat": None, "dice": [v]} for v in range(1, 7)]
                if seat is None
                else []
            )
        if seat != state.turn:
            return []
        commands = [{"type": "Roll", "seat": seat}]
        if state.turn_total:
            commands.append({"type": "Hold", "seat": seat})
        return commands

    def view(self, state: PigState, seat: int | None) -> dict[str, Any]:
        return self.dump_state(state)

    def redact(self, event: Event, seat: int | None) -> Event:
        return event

    def outcome(self, state: PigState) -> Outcome:
        if state.winner is None:
            return Outcome(finished=False, scores=tuple(map(float, state.scores)))
        places = tuple(1 if s == state.winner else 2 for s in range(state.seats))
        return Outcome(True, places, tuple(map(float, state.scores)), "target-score")

    def describe(self, event: Event, names: Sequence[str]) -> str:
        d = event.data
        who = names[d["seat"]] if "seat" in d else "The table"
        return {
            ev.ROLL_STARTED: f"{who} rolls.",
            ev.DIE_ROLLED: f"{who} rolls a {d.get('value')}.",
            ev.TURN_BUSTED: f"{who} loses {d.get('lost')} points and the turn.",
            ev.TURN_HELD: f"{who} holds and banks {d.get('points')} points.",
            ev.GAME_WON: f"{who} wins.",
        }.get(event.type, event.type)

    def dump_state(self, state: PigState) -> dict[str, Any]:
        data = asdict(state)
        data["scores"] = list(state.scores)
        return data

    def load_state(self, data: dict[str, Any], config: GameConfig) -> PigState:
        return PigState(**{**data, "scores": tuple(data["scores"])})

    def luck(self, state: PigState, event: Event) -> dict[int, float]:
        if event.type != ev.DIE_ROLLED:
            return {}
        # A 1 is the worst roll; higher is better. Mid-rank percentile of six faces.
        return {event.data["seat"]: (event.data["value"] - 0.5) / 6}

    def statistics(self, state: PigState) -> dict[str, Any]:
        return {"target": state.target}


ENGINE = Pig()
