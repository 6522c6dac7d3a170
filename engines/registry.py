"""The games the service records: one declared ``Game`` per game folder.

Adding a game is one line here (see ``docs/adding-an-engine.md``); every
cross-engine test walks this list.
"""

from __future__ import annotations

from engines import (
    chancellors,
    final_decrees,
    house_of_cronies,
    maccreedys_mansion,
    pig,
    political_divide_and_conquer,
)
from engines.base import Engine
from engines.kit.game import Game

#: Every game, by id, in the order the service lists them.
GAMES: dict[str, Game] = {
    game.id: game
    for game in (
        pig.GAME,
        chancellors.GAME,
        house_of_cronies.GAME,
        political_divide_and_conquer.GAME,
        final_decrees.GAME,
        maccreedys_mansion.GAME,
    )
}


class UnknownEngine(KeyError):
    pass


def game(engine_id: str) -> Game:
    """The declared game of this id."""
    try:
        return GAMES[engine_id]
    except KeyError:
        raise UnknownEngine(engine_id) from None


def get(engine_id: str) -> Engine:
    """The rules of the game of this id."""
    return game(engine_id).engine


def available() -> list[str]:
    """Ids of every registered game, in registry order."""
    return list(GAMES)


def games() -> list[Game]:
    """Every registered game, in registry order."""
    return list(GAMES.values())
