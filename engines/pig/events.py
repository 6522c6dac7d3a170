"""Pig's events: past-tense facts."""

ROLL_STARTED = "RollStarted"
DIE_ROLLED = "DieRolled"
TURN_BUSTED = "TurnBusted"
TURN_HELD = "TurnHeld"
GAME_WON = "GameWon"
