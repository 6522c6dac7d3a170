"""The game's declaration: its rules and the parts the service reads."""

from pathlib import Path

from engines.final_decrees import catalog_schema, events, schemas
from engines.final_decrees.outcome import OUTCOME
from engines.final_decrees.rules import ENGINE
from engines.kit.game import Game, Trial

GAME = Game(
    engine=ENGINE,
    options=schemas.OPTIONS,
    commands=schemas.COMMANDS,
    views=schemas.VIEWS,
    state=schemas.STATE,
    terminations=events.Termination,
    trials=(Trial(4), Trial(5)),
    outcome=OUTCOME,
    catalog=catalog_schema.CATALOG,
    default_catalog=Path(__file__).with_name("default_catalog.json"),
)

__all__ = ["ENGINE", "GAME"]
