"""Pig, the reference dice game: roll to add to your turn total, hold to bank
it, a 1 loses the turn total; the first to the target wins.

It is small and complete so that the service can be exercised end to end,
chance included, independently of the five club games. Its rules are plain
functions, declared once as ``ENGINE`` at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import ChanceRequest, Command, Event, GameConfig, Outcome, RuleViolation
from engines.kit import Rulebook, check_chance, expect_turn, read_options
from engines.kit import state_schema as records
from engines.kit.chance_commands import table_chance_commands
from engines.pig import events as ev
from engines.pig import table
from engines.pig.schemas import OPTIONS
from engines.pig.state import PigState


def initial_state(config: GameConfig) -> PigState:
    options = read_options(OPTIONS, config.options)
    return PigState(seats=config.seats, target=options["target"], scores=(0,) * config.seats)


# ------------------------------------------------------------------ commands
def roll(state: PigState, command: Command) -> list[Event]:
    expect_turn(command["seat"], state.turn)
    return [Event(ev.ROLL_STARTED, {"seat": command["seat"]})]


def hold(state: PigState, command: Command) -> list[Event]:
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


def resolve_roll(state: PigState, command: Command) -> list[Event]:
    (value,), _ = check_chance(chance(state), command)
    events = [Event(ev.DIE_ROLLED, {"seat": state.turn, "value": value})]
    if value == 1:
        events.append(Event(ev.TURN_BUSTED, {"seat": state.turn, "lost": state.turn_total}))
    return events


# -------------------------------------------------------------------- events
def evolve(state: PigState, event: Event) -> PigState:
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


def is_over(state: PigState) -> bool:
    return state.winner is not None


def chance(state: PigState) -> ChanceRequest | None:
    if state.rolling and state.winner is None:
        return ChanceRequest(command="ResolveRoll", dice=1, seat=state.turn)
    return None


# ------------------------------------------------------------- what is seen
def legal_commands(state: PigState, seat: int | None) -> list[dict[str, Any]]:
    if state.winner is not None:
        return []
    request = chance(state)
    if request is not None:
        return table_chance_commands(request) if seat is None else []
    if seat != state.turn:
        return []
    commands = [{"type": "Roll", "seat": seat}]
    if state.turn_total:
        commands.append({"type": "Hold", "seat": seat})
    return commands


def view(state: PigState, seat: int | None) -> dict[str, Any]:
    """Pig hides nothing: every viewer sees the whole state."""
    return records.dump(state)


def outcome(state: PigState) -> Outcome:
    if state.winner is None:
        return Outcome(finished=False, scores=tuple(map(float, state.scores)))
    places = tuple(1 if s == state.winner else 2 for s in range(state.seats))
    return Outcome(True, places, tuple(map(float, state.scores)), ev.Termination.TARGET_SCORE.value)


def describe(event: Event, names: Sequence[str]) -> str:
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


def awaited_label(state: PigState, command: Command, names: Sequence[str]) -> str:
    return f"{names[state.turn]} rolls the die"


def luck(state: PigState, event: Event) -> dict[int, float]:
    if event.type != ev.DIE_ROLLED:
        return {}
    # A 1 is the worst roll; higher is better. Mid-rank percentile of six faces.
    return {event.data["seat"]: (event.data["value"] - 0.5) / 6}


def statistics(state: PigState) -> dict[str, Any]:
    return {"target": state.target}


ENGINE = Rulebook(
    id="pig",
    title="Pig (reference dice game)",
    short_title="Pig",
    version="1",
    min_seats=2,
    max_seats=6,
    commands={"Roll": roll, "Hold": hold},
    chance_commands={"ResolveRoll": resolve_roll},
    is_over=is_over,
    evolve=evolve,
    chance=chance,
    initial_state=initial_state,
    state_class=PigState,
    legal_commands=legal_commands,
    view=view,
    describe=describe,
    table=table.table,
    heading=table.heading,
    outcome=outcome,
    luck=luck,
    statistics=statistics,
    awaited_label=awaited_label,
)
