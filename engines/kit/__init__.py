"""The engine kit: machinery every game engine shares.

- ``settle``: the loop that adds the events a game takes by itself after a
  command, until it waits for a player or for chance.
- ``guards``: the refusals every engine makes, one code per kind, and the
  check of a chance command against the ``ChanceRequest`` it answers.
- ``options``: a game's options read through its schema, so their defaults
  live in one place (``engines/<game>/schemas.py``).
- ``rulebook``: ``Rulebook``, which wires a game's command handlers to the
  guards and the settle loop, so that ``decide`` is declared, not rewritten.
- ``chance_commands``: the representative chance commands a table's recorder
  may post (``legal_commands(state, None)``).
- ``awaiting``, ``windows``, ``offers``: one seat's pending answer, reaction
  windows that every listed seat passes, and trade offers.
- ``deck``, ``rounds``, ``seats``: a deck with known segments, phases and
  rounds, and seat statuses with places.
- ``labels``: a legal command in the words of the log line it would write,
  the chance a table is about to enter, and a command's value read as a
  seat (``seat_name``) or a position (``is_index``) for the scorepad.

Each module's main names are re-exported here; its helpers are reached
through the module (``from engines.kit import windows``).

See ``docs/adding-an-engine.md``.
"""

from engines.kit.awaiting import Awaiting
from engines.kit.chance_commands import table_chance_commands
from engines.kit.deck import Deck, deck_of
from engines.kit.guards import check_chance, check_seat_command, expect_turn, is_int
from engines.kit.labels import awaited_chance, log_label
from engines.kit.offers import OfferBook, Terms
from engines.kit.options import read_options
from engines.kit.rounds import Phase, PhaseMachine
from engines.kit.rulebook import Rulebook
from engines.kit.seats import SeatStatus
from engines.kit.settle import settle
from engines.kit.windows import Window

__all__ = [
    "Awaiting",
    "Deck",
    "OfferBook",
    "Phase",
    "PhaseMachine",
    "Rulebook",
    "SeatStatus",
    "Terms",
    "Window",
    "awaited_chance",
    "check_chance",
    "check_seat_command",
    "deck_of",
    "expect_turn",
    "is_int",
    "log_label",
    "read_options",
    "settle",
    "table_chance_commands",
]
