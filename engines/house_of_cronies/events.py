"""House of Cronies events: past-tense facts. Data is plain JSON.

Events that name a card also carry its printed ``name`` so that a line can be
described without the catalog.
"""

from enum import StrEnum

GAME_STARTED = "GameStarted"  # seats, speaker, catalog {id, version}
CARDS_DRAWN = "CardsDrawn"  # deck, seat, cards: a draw into a hand
CARDS_LAID_OUT = "CardsLaidOut"  # round, cards: the Speaker's cards on the table
TACTIC_DECK_RESHUFFLED = "TacticDeckReshuffled"  # cards: the tactic discards become the deck
TACTIC_DRAW_FORFEITED = "TacticDrawForfeited"  # seat, count: no tactic left anywhere
CRONY_PLACED = "CronyPlaced"  # seat, card, name, position, free_tactics
CRONY_DISCARDED = "CronyDiscarded"  # seat, card, name: no empty position it may take
ROUND_STARTED = "RoundStarted"  # round, speaker, final
REACTIONS_CLOSED = "ReactionsClosed"  # kind: a motion or hawks window closed
TURN_STARTED = "TurnStarted"  # seat
CARD_PICKED_UP = "CardPickedUp"  # seat, card, kind, value
BID_PLACED = "BidPlaced"  # seat, card, name, cards, value
BID_PASSED = "BidPassed"  # seat
BID_WON = "BidWon"  # seat, card, name, cards, value, corruption
TACTIC_BOUGHT = "TacticBought"  # seat, count, cards, value, corruption
TACTIC_PLAYED = "TacticPlayed"  # seat, card, kind, target, position, crony, cabinet, answering
REACTION_PASSED = "ReactionPassed"  # seat, window
TACTIC_CANCELLED = "TacticCancelled"  # seat, card, kind, by_seat, by_card
CABINET_RESHUFFLED = "CabinetReshuffled"  # seat, cabinet {position: crony}, removed
FLOOR_CROSSED = "FloorCrossed"  # seat, target, position, gave, took, gave_name, took_name
ALLY_EXPELLED = "AllyExpelled"  # seat, target, card, name
CRONY_PROTECTED = "CronyProtected"  # seat, target, card, name, tactic
MOTION_CARRIED = "MotionCarried"  # seat, target
CRONY_INVESTIGATED = "CronyInvestigated"  # seat, target, card, name
TACTICS_DISCARDED = "TacticsDiscarded"  # cards: a resolved tactic and its answers
TURN_ENDED = "TurnEnded"  # seat, took_nothing
ROUND_ENDED = "RoundEnded"  # round, discarded, next_speaker
GAME_DECIDED = "GameDecided"  # ended_by, totals, penalties, places: the votes counted, the end
#: The end event of games recorded before every game ended with ``GameDecided`` (read when replaying them).
VOTES_COUNTED = "VotesCounted"


class Termination(StrEnum):
    """How a game of House of Cronies ends."""

    ELECTION = "election"  # the final round is played and the votes counted
