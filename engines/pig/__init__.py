"""The game's declaration: its rules and the parts the service reads."""

from engines.kit.game import Game, Trial
from engines.pig import events, schemas
from engines.pig.outcome import OUTCOME
from engines.pig.rules import ENGINE

GAME = Game(
    engine=ENGINE,
    options=schemas.OPTIONS,
    commands=schemas.COMMANDS,
    views=schemas.VIEWS,
    state=schemas.STATE,
    terminations=events.Termination,
    trials=(Trial(2, {"target": 30}), Trial(4, {"target": 20})),
    outcome=OUTCOME,
)

__all__ = ["ENGINE", "GAME"]
