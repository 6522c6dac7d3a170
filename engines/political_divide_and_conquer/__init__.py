"""The game's declaration: its rules and the parts the service reads."""

from pathlib import Path

from engines.kit.game import Game, Trial
from engines.political_divide_and_conquer import catalog_schema, events, schemas
from engines.political_divide_and_conquer.outcome import OUTCOME
from engines.political_divide_and_conquer.rules import ENGINE

GAME = Game(
    engine=ENGINE,
    options=schemas.OPTIONS,
    commands=schemas.COMMANDS,
    views=schemas.VIEWS,
    state=schemas.STATE,
    terminations=events.Termination,
    trials=(Trial(4), Trial(6)),
    outcome=OUTCOME,
    catalog=catalog_schema.CATALOG,
    default_catalog=Path(__file__).with_name("default_catalog.json"),
)

__all__ = ["ENGINE", "GAME"]
