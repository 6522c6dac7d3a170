"""The game's declaration: its rules and the parts the service reads."""

from engines.chancellors import events, schemas
from engines.chancellors.outcome import OUTCOME
from engines.chancellors.rules import ENGINE
from engines.kit.game import Game, Trial

GAME = Game(
    engine=ENGINE,
    options=schemas.OPTIONS,
    commands=schemas.COMMANDS,
    views=schemas.VIEWS,
    state=schemas.STATE,
    terminations=events.Termination,
    trials=(Trial(3, {"target": 10}), Trial(4, {"target": 40, "extended_deck": True})),
    outcome=OUTCOME,
)

__all__ = ["ENGINE", "GAME"]
