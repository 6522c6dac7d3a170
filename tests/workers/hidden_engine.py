"""Pig with hidden information, for the replay visibility tests: a die is
seen only by the seat it was rolled for, and the running turn total only by
the seat whose turn it is."""

from __future__ import annotations

import dataclasses

from engines.base import Event
from engines.pig import GAME as PIG
from engines.pig import events as ev
from engines.pig import rules
from engines.pig.schemas import PigOptions


def redact(event: Event, seat):
    if event.type == ev.DIE_ROLLED and seat != event.data["seat"]:
        return Event(event.type, {"seat": event.data["seat"], "value": None})
    return event


def view(state, seat):
    data = rules.view(state, seat)
    if seat != state.turn:
        data["turn_total"] = None
    return data


def describe(event: Event, names):
    if event.type == ev.DIE_ROLLED and event.data.get("value") is None:
        return f"{names[event.data['seat']]} rolls a hidden die."
    return rules.describe(event, names)


ENGINE = dataclasses.replace(
    rules.ENGINE, id="hidden-pig", title="Hidden Pig", redact=redact, view=view, describe=describe
)
# Pig's parts, with an options schema of its own: the OpenAPI document
# publishes each engine's options under the engine's name.
GAME = dataclasses.replace(PIG, engine=ENGINE, options=type("HiddenPigOptions", (PigOptions,), {}))
