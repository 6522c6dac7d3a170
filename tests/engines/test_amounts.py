"""The numbers a seat may enter beyond its listed commands (``Engine.amounts``:
a bid of any sum, any count of a resource), for every registered game: each
is taken at its lowest and highest and in between, and refused one step
below its lowest or above its highest; a game that lists every number it
takes asks for none."""

from __future__ import annotations

import pytest

from engines import registry
from engines.base import RuleViolation
from tests.engine_contract import play_random_game, trial_config

GAMES = registry.games()


def _numbers(amount) -> list[int]:
    high = amount.high if amount.high is not None else amount.low + 10 * amount.step
    middle = amount.low + (high - amount.low) // amount.step // 2 * amount.step
    return sorted({amount.low, middle, high})


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_every_number_a_game_asks_for_is_taken_within_its_range_and_refused_outside_it(game):
    engine = game.engine
    asked: list[str] = []
    config = trial_config(game)

    def check(state) -> None:
        if engine.chance(state) is not None:
            return
        for seat in range(config.seats):
            for amount in engine.amounts(state, seat):
                asked.append(amount.command["type"])
                for number in _numbers(amount):
                    engine.decide(state, {**amount.command, amount.field: number, "seat": seat})
                outside = [amount.low - amount.step] + (
                    [amount.high + amount.step] if amount.high is not None else []
                )
                for number in outside:
                    with pytest.raises(RuleViolation):
                        engine.decide(state, {**amount.command, amount.field: number, "seat": seat})

    for trial in game.trials:
        config = trial_config(game, trial)
        for seed in range(3):
            play_random_game(engine, config, seed, check_every=10_000, observe=check)
    if game.id == "maccreedys-mansion":
        assert {"BuyResources", "Invest", "PlaceBid"} <= set(asked), set(asked)
    else:
        assert not asked
