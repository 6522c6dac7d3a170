"""The game's declaration: its rules and the parts the service reads."""

from pathlib import Path

from engines.kit.game import Game, Trial
from engines.maccreedys_mansion import catalog_schema, events, schemas
from engines.maccreedys_mansion.outcome import OUTCOME
from engines.maccreedys_mansion.rules import ENGINE

GAME = Game(
    engine=ENGINE,
    options=schemas.OPTIONS,
    commands=schemas.COMMANDS,
    views=schemas.VIEWS,
    state=schemas.STATE,
    terminations=events.Termination,
    trials=(Trial(3, {"max_rounds": 1}), Trial(5, {"max_rounds": 2})),
    outcome=OUTCOME,
    catalog=catalog_schema.CATALOG,
    default_catalog=Path(__file__).with_name("default_catalog.json"),
)

__all__ = ["ENGINE", "GAME"]
