"""Every game ends the same way in words: its last event is ``GameDecided``,
whose ``ended_by`` is one of the game's ``Termination`` values and is the
outcome's ``ended_by`` (which the service's ``GameEnded`` repeats). Games
recorded before that, which ended with a game's own event, still replay to
the same state."""

from __future__ import annotations

import pytest

from engines import registry
from engines.base import Event, fold
from tests.engine_contract import as_stored, play_random_game, trial_config

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def _played(game, seed: int = 0):
    config = trial_config(game)
    return config, play_random_game(game.engine, config, seed, check_every=10**9)


@pytest.mark.parametrize("game", registry.games(), ids=lambda g: g.id)
def test_a_game_ends_with_game_decided_naming_one_of_its_terminations(game):
    _, played = _played(game)
    last = played.events[-1]
    assert last.type == "GameDecided"
    assert last.data["ended_by"] in {t.value for t in game.terminations}
    assert game.engine.outcome(played.state).ended_by == last.data["ended_by"]
    assert game.engine.describe(last, NAMES[: played.config.seats])


def _without_ended_by(data):
    return {k: v for k, v in data.items() if k != "ended_by"}


#: How each game's end was recorded before ``GameDecided`` ended every game.
RECORDED_BEFORE = {
    "pig": lambda d: Event("GameWon", {"seat": d["seat"]}),
    "house-of-cronies": lambda d: Event("VotesCounted", _without_ended_by(d)),
    "political-divide-and-conquer": lambda d: Event("InfluenceCounted", _without_ended_by(d)),
    "maccreedys-mansion": lambda d: Event("GameDecided", {"reason": d["ended_by"], **_without_ended_by(d)}),
}


@pytest.mark.parametrize("engine_id", sorted(RECORDED_BEFORE))
def test_a_game_recorded_with_its_old_end_event_replays_to_the_same_state(engine_id):
    game = registry.game(engine_id)
    config, played = _played(game)
    old = [*played.events[:-1], RECORDED_BEFORE[engine_id](played.events[-1].data)]
    replayed = fold(game.engine, config, [as_stored(e) for e in old])
    assert replayed == played.state
    assert game.engine.outcome(replayed) == game.engine.outcome(played.state)
    line = game.engine.describe(old[-1], NAMES[: config.seats])
    assert line and line != old[-1].type
