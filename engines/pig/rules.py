"""Pig, the reference dice game: roll to add to your turn total, hold to bank
it, a 1 loses the turn total; the first to the target wins.

It is small and complete so that the service can be exercised end to end,
chance included, independently of the five club games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import ChanceRequest, Command, Event, GameConfig, Outcome, RuleViolation
from engines.kit import Rulebook, awaited_chance, check_chance, expect_turn, log_label, read_options
from engines.kit import state_schema as records
from engines.kit.chance_commands import table_chance_commands
from engines.pig import events as ev
from engines.pig import table
from engines.pig.schemas import OPTIONS
from engines.pig.state import PigState


class Pig:
    id = "pig"
    title = "Pig (reference dice game)"
    version = "1"
    min_seats = 2
    max_seats = 6
    catalog_kind = None

    def initial_state(self, config: GameConfig) -> PigState:
        options = read_options(OPTIONS, config.options)
        return PigState(seats=config.seats, target=options["target"], scores=(0,) * config.seats)

    def setup(self, config: GameConfig) -> list[Event]:
        return []

    def decide(self, state: PigState, command: Command) -> list[Event]:
        return RULEBOOK.decide(state, command)

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
        if event.type in (ev.GAME_DECIDED, ev.GAME_WON):
            return state.with_(winner=d["seat"])
        raise RuleViolation("unknown-event", f"Pig has no event {event.type!r}.")

    def chance(self, state: PigState) -> ChanceRequest | None:
        if state.rolling and state.winner is None:
            return ChanceRequest(command="ResolveRoll", dice=1, seat=state.turn)
        return None

    def legal_commands(self, state: PigState, seat: int | None) -> list[dict[str, Any]]:
        if state.winner is not None:
            return []
        request = self.chance(state)
        if request is not None:
            return table_chance_commands(request) if seat is None else []
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
        return Outcome(True, places, tuple(map(float, state.scores)), ev.Termination.TARGET_SCORE.value)

    def describe(self, event: Event, names: Sequence[str]) -> str:
        d = event.data
        who = names[d["seat"]] if "seat" in d else "The table"
        return {
            ev.ROLL_STARTED: f"{who} rolls.",
            ev.DIE_ROLLED: f"{who} rolls a {d.get('value')}.",
            ev.TURN_BUSTED: f"{who} loses {d.get('lost')} points and the turn.",
            ev.TURN_HELD: f"{who} holds and banks {d.get('points')} points.",
            ev.GAME_DECIDED: f"{who} wins.",
            ev.GAME_WON: f"{who} wins.",
        }.get(event.type, event.type)

    def label(self, state: PigState, command: Command, names: Sequence[str]) -> str:
        if awaited_chance(command):
            return f"{names[state.turn]} rolls the die"
        return log_label(self, state, command, names)

    def table(self, state: PigState, viewer: int | str | None, names: Sequence[str]) -> dict[str, Any]:
        return table.table(state, viewer, names)

    def dump_state(self, state: PigState) -> dict[str, Any]:
        return records.dump(state)

    def load_state(self, data: dict[str, Any], config: GameConfig) -> PigState:
        return records.load(PigState, data)

    def luck(self, state: PigState, event: Event) -> dict[int, float]:
        if event.type != ev.DIE_ROLLED:
            return {}
        # A 1 is the worst roll; higher is better. Mid-rank percentile of six faces.
        return {event.data["seat"]: (event.data["value"] - 0.5) / 6}

    def statistics(self, state: PigState) -> dict[str, Any]:
        return {"target": state.target}


def _roll(state: PigState, command: Command) -> list[Event]:
    expect_turn(command["seat"], state.turn)
    return [Event(ev.ROLL_STARTED, {"seat": command["seat"]})]


def _hold(state: PigState, command: Command) -> list[Event]:
    seat = command["seat"]
    expect_turn(seat, state.turn)
    if state.turn_total == 0:
        raise RuleViolation("nothing-to-hold", "Roll at least once before holding.")
    events = [Event(ev.TURN_HELD, {"seat": seat, "points": state.turn_total})]
    if state.scores[seat] + state.turn_total >= state.target:
        places = [1 if s == seat else 2 for s in range(state.seats)]
        ended_by = ev.Termination.TARGET_SCORE.value
        events.append(Event(ev.GAME_DECIDED, {"seat": seat, "ended_by": ended_by, "places": places}))
    return events


def _resolve_roll(state: PigState, command: Command) -> list[Event]:
    (value,), _ = check_chance(ENGINE.chance(state), command)
    events = [Event(ev.DIE_ROLLED, {"seat": state.turn, "value": value})]
    if value == 1:
        events.append(Event(ev.TURN_BUSTED, {"seat": state.turn, "lost": state.turn_total}))
    return events


ENGINE = Pig()
RULEBOOK = Rulebook(
    title="Pig",
    commands={"Roll": _roll, "Hold": _hold},
    chance_commands={"ResolveRoll": _resolve_roll},
    evolve=ENGINE.evolve,
    automatic=lambda state: [],
    is_over=lambda state: state.winner is not None,
    seats=lambda state: state.seats,
    chance=ENGINE.chance,
)
