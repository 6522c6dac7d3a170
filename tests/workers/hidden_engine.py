"""Pig with hidden information, for the replay visibility tests: a die is
seen only by the seat it was rolled for, and the running turn total only by
the seat whose turn it is."""

from __future__ import annotations

import dataclasses

from engines.base import Event
from engines.pig import GAME as PIG
from engines.pig import events as ev
from engines.pig.rules import Pig
from engines.pig.schemas import PigOptions


class HiddenPig(Pig):
    id = "hidden-pig"
    title = "Hidden Pig"

    def redact(self, event: Event, seat):
        if event.type == ev.DIE_ROLLED and seat != event.data["seat"]:
            return Event(event.type, {"seat": event.data["seat"], "value": None})
        return event

    def view(self, state, seat):
        data = self.dump_state(state)
        if seat != state.turn:
            data["turn_total"] = None
        return data

    def describe(self, event: Event, names):
        if event.type == ev.DIE_ROLLED and event.data.get("value") is None:
            return f"{names[event.data['seat']]} rolls a hidden die."
        return super().describe(event, names)


ENGINE = HiddenPig()
# Pig's parts, with an options schema of its own: the OpenAPI document
# publishes each engine's options under the engine's name.
GAME = dataclasses.replace(PIG, engine=ENGINE, options=type("HiddenPigOptions", (PigOptions,), {}))
