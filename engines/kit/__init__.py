"""The engine kit: machinery every game engine shares.

- ``settle``: the loop that adds the events a game takes by itself after a
  command, until it waits for a player or for chance.
- ``guards``: the refusals every engine makes, one code per kind, and the
  check of a chance command against the ``ChanceRequest`` it answers.
- ``options``: a game's options read through its schema, so their defaults
  live in one place (``schemas/games/<game>.py``).
- ``rulebook``: ``Rulebook``, which wires a game's command handlers to the
  guards and the settle loop, so that ``decide`` is declared, not rewritten.

See ``docs/adding-an-engine.md``.
"""

from engines.kit.guards import check_chance, check_seat_command, expect_turn, is_int
from engines.kit.options import read_options
from engines.kit.rulebook import Rulebook
from engines.kit.settle import settle

__all__ = [
    "Rulebook",
    "check_chance",
    "check_seat_command",
    "expect_turn",
    "is_int",
    "read_options",
    "settle",
]
