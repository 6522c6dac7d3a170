"""The service's Flask (``service.api.framework``) answers as Flask's own would."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import dataclass
from decimal import Decimal

import pytest
from flask import Flask

from service.api.framework import ServiceFlask


@dataclass
class Seat:
    name: str
    score: int


VALUES = [
    {"b": 1, "a": [1, 2.5, None, True], "c": {"z": "é", "y": "line\nbreak \u2028"}},
    {"game": uuid.UUID("12345678-1234-5678-1234-567812345678")},
    {"at": dt.datetime(2026, 11, 23, 7, 26, 34, 123456, tzinfo=dt.UTC)},
    {"naive": dt.datetime(2026, 11, 23, 7, 26, 34), "day": dt.date(2026, 11, 23)},
    {"amount": Decimal("12.50")},
    {"seat": Seat("Ada", 3)},
    {"huge": 2**70, "negative": -(2**70)},
    {1: "integer key", 2: "another"},
    [],
    "text",
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_an_answer_renders_as_flasks_own_provider_renders_it(value):
    ours, flasks = ServiceFlask(__name__), Flask(__name__)
    with ours.app_context():
        text = ours.json.response(value).get_data(as_text=True)
    with flasks.app_context():
        expected = flasks.json.response(value).get_data(as_text=True)
    assert json.loads(text) == json.loads(expected)
    # the same order of keys (Flask sorts them), so answers stay byte-comparable across versions
    assert list(json.loads(text, object_pairs_hook=lambda pairs: pairs) or []) == list(
        json.loads(expected, object_pairs_hook=lambda pairs: pairs) or []
    )


def test_a_debug_answer_is_still_indented():
    app = ServiceFlask(__name__)
    app.debug = True
    with app.app_context():
        assert "\n  " in app.json.response({"a": 1}).get_data(as_text=True)


def test_a_plain_view_is_called_as_it_is_and_a_coroutine_view_is_still_wrapped():
    app = ServiceFlask(__name__)
    wrapped = []
    app.async_to_sync = lambda func: wrapped.append(func) or func

    def plain():
        return "plain"

    async def coroutine():
        return "coroutine"

    class Hooks:
        def method(self):
            return "method"

    hooks = Hooks()
    for _ in range(2):  # asked again: the same answer
        assert app.ensure_sync(plain) is plain
        assert app.ensure_sync(hooks.method) == hooks.method
        app.ensure_sync(coroutine)
    assert wrapped == [coroutine, coroutine]
