"""Pig's events: past-tense facts."""

from enum import StrEnum

ROLL_STARTED = "RollStarted"
DIE_ROLLED = "DieRolled"
TURN_BUSTED = "TurnBusted"
TURN_HELD = "TurnHeld"
GAME_DECIDED = "GameDecided"  # seat (the winner), ended_by, places
#: The end event of games recorded before every game ended with ``GameDecided`` (read when replaying them).
GAME_WON = "GameWon"


class Termination(StrEnum):
    """How a game of Pig ends."""

    TARGET_SCORE = "target-score"  # a seat banks the target
