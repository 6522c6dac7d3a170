"""Final Decrees' events: past-tense facts, in the order a game produces them."""

from enum import StrEnum

from engines.kit.offers import ACCEPTED, DECLINED, OFFERED, WITHDRAWN

GAME_STARTED = "GameStarted"
BID_PLACED = "BidPlaced"  # sealed: the amount is redacted for everyone else
BIDS_REVEALED = "BidsRevealed"
DEPARTMENTS_ASSIGNED = "DepartmentsAssigned"
HANDS_DEALT = "HandsDealt"

TURN_STARTED = "TurnStarted"
CARD_DRAWN = "CardDrawn"
CARDS_DISCARDED = "CardsDiscarded"  # the decline card's discards, face up
DECLINE_PLAYED = "DeclinePlayed"

DRAW_ACTION_TAKEN = "DrawActionTaken"
CARD_PLAYED = "CardPlayed"
BLAME_SPREAD = "BlameSpread"
DECREE_FORWARDED = "DecreeForwarded"
PLAYER_MOVED = "PlayerMoved"
DECREE_STAMPED = "DecreeStamped"
DECREE_ENACTED = "DecreeEnacted"
BLAME_REMOVED = "BlameRemoved"
ACTIONS_GAINED = "ActionsGained"
DEPARTMENT_INVESTIGATED = "DepartmentInvestigated"
MANEUVERS_HELD = "ManeuversHeld"
PLAYERS_REASSIGNED = "PlayersReassigned"
CONTROL_RESTRUCTURED = "ControlRestructured"
TURN_ENDED = "TurnEnded"

TRADE_OFFERED = OFFERED
TRADE_ACCEPTED = ACCEPTED
TRADE_DECLINED = DECLINED
TRADE_WITHDRAWN = WITHDRAWN

GAME_DECIDED = "GameDecided"

# Events that spend one of the turn's actions (FD-20).
ACTIONS = frozenset(
    {
        DRAW_ACTION_TAKEN,
        CARD_PLAYED,
        BLAME_SPREAD,
        DECREE_FORWARDED,
        PLAYER_MOVED,
        DECREE_STAMPED,
        ACTIONS_GAINED,
        DEPARTMENT_INVESTIGATED,
        MANEUVERS_HELD,
        PLAYERS_REASSIGNED,
        CONTROL_RESTRUCTURED,
    }
)


class Termination(StrEnum):
    """How a game of Final Decrees ends."""

    DECK_EXHAUSTED = "deck-exhausted"  # FD-43: at once
    ALL_DECREES_ENACTED = "all-decrees-enacted"
