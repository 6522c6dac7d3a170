"""Chancellors' events: past-tense facts, in the order a turn produces them."""

from enum import StrEnum

GAME_STARTED = "GameStarted"
PROBLEM_ROLLED = "ProblemRolled"  # opening roll and the reroll of a wholly solved problem
CARDS_DEALT = "CardsDealt"  # the opening three cards
TURN_BEGAN = "TurnBegan"

# (A) control of the royal services
CARD_CHOSEN = "CardChosen"  # face down: the card is redacted for everyone else
CARDS_REVEALED = "CardsRevealed"
SERVICE_TAKEN = "ServiceTaken"  # also when the holder keeps it with the best card
SERVICE_DEADLOCKED = "ServiceDeadlocked"  # equal ranks and equal scores: back to the centre
SERVICE_UNCONTESTED = "ServiceUncontested"  # nobody contended: it stays where it is

# (B) and (C) solving problems
PROBLEM_SOLVED = "ProblemSolved"
PROBLEM_PARTLY_SOLVED = "ProblemPartlySolved"
SERVICE_PASSED = "ServicePassed"
SERVICE_ABDICATED = "ServiceAbdicated"
SOLVING_PASSED = "SolvingPassed"  # a player without services declines in step C
EXCUSE_PASSED = "ExcusePassed"

# (D) escalation
PROBLEM_UNFOLDED = "ProblemUnfolded"
PROBLEMS_ESCALATED = "ProblemsEscalated"
CATASTROPHE_STRUCK = "CatastropheStruck"

# (E) drawing
DISCARDS_RESHUFFLED = "DiscardsReshuffled"
CARDS_DRAWN = "CardsDrawn"
CARDS_DISCARDED = "CardsDiscarded"

GAME_DECIDED = "GameDecided"  # ended_by, places, scores


class Termination(StrEnum):
    """How a game of Chancellors ends."""

    TARGET_SCORE = "target-score"  # a seat reaches the target after an escalation
    CATASTROPHE = "catastrophe"  # an unsolved problem boils over (double six)
