"""The game's declaration: its rules and the parts the service reads."""

from pathlib import Path

from engines.house_of_cronies import catalog_schema, events, schemas
from engines.house_of_cronies.outcome import OUTCOME
from engines.house_of_cronies.rules import ENGINE
from engines.kit.game import Game, Trial

GAME = Game(
    engine=ENGINE,
    options=schemas.OPTIONS,
    commands=schemas.COMMANDS,
    views=schemas.VIEWS,
    state=schemas.STATE,
    terminations=events.Termination,
    trials=(Trial(3), Trial(4, {"first_speaker": 2})),
    outcome=OUTCOME,
    catalog=catalog_schema.CATALOG,
    default_catalog=Path(__file__).with_name("default_catalog.json"),
)

__all__ = ["ENGINE", "GAME"]
