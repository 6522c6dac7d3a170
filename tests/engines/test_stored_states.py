"""Stored snapshots stay readable: each game's state, as its snapshots store it, loads and dumps again byte for byte.

``tests/data/stored_states/<game>.jsonl`` holds states of random trial games
of every game (one of each shape of state met), dumped as the service stored
them before each state's schema was derived from its dataclass. A field added
since, with its default, is the only difference allowed: every stored member
comes back in its place with the same JSON text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines import registry
from tests.engine_contract import trial_config

STORED = Path(__file__).parents[1] / "data" / "stored_states"


@pytest.mark.parametrize("engine_id", registry.available())
def test_every_stored_state_loads_and_dumps_to_the_same_json(engine_id):
    game = registry.game(engine_id)
    config = trial_config(game)
    lines = (STORED / f"{engine_id}.jsonl").read_text().splitlines()
    assert lines, f"no stored states of {engine_id}"
    for line in lines:
        stored = json.loads(line)
        again = game.engine.dump_state(game.engine.load_state(stored, config))
        assert set(stored) <= set(again)
        assert json.dumps({name: value for name, value in again.items() if name in stored}) == line
