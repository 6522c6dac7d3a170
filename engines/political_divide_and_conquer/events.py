"""Political Divide & Conquer events: past-tense facts. Data is plain JSON.

Events that name a card also carry its printed ``name`` where the line needs
it, so that a line can be described without the catalog.
"""

from enum import StrEnum

GAME_STARTED = "GameStarted"  # seats, catalog {id, version}, first_player (None: rolled for)
CARDS_DRAWN = "CardsDrawn"  # seat, cards, place (top, middle, bottom), reason (deal, turn, event)
CARD_TURNED_UP = "CardTurnedUp"  # card, name, group: a setup card turned face up
CARDS_SHUFFLED_IN = "CardsShuffledIn"  # cards: the turned-up non-groups go back into the deck
FIRST_PLAYER_ROLLED = "FirstPlayerRolled"  # seats, dice, first (None: the highest roll again)
TURN_STARTED = "TurnStarted"  # seat, final
CARD_KEPT = "CardKept"  # seat, card, returned, to (top, bottom)
BOTH_KEPT = "BothKept"  # seat
GROUP_REJECTED = "GroupRejected"  # seat, card, name
GROUP_ADDED = "GroupAdded"  # seat, card, name: to the seat's base
CARD_STACKED = "CardStacked"  # seat, card, name, group, group_name
ATTACK_DECLARED = "AttackDeclared"  # seat, target, target_name, intent, defender, team, from_base, stacks
DEFENCE_RAISED = "DefenceRaised"  # seat, groups, stacks
ATTACK_CALLED = "AttackCalled"  # seat
ANTE_UPPED = "AnteUpped"  # seat, groups, stacks
ATTACK_STANDS = "AttackStands"  # seat: the attacker does not up the ante
ATTACK_ROLLED = "AttackRolled"  # seat, target, target_name, intent, defender, dice, attack, defence, result
ATTACK_CANCELLED = "AttackCancelled"  # seat (the attacker), by, card
EVENT_PLAYED = "EventPlayed"  # seat, card, name, target
CARDS_TAKEN = "CardsTaken"  # source, to (None: discarded), cards, by
TURN_ENDED = "TurnEnded"  # seat, took (reject, base, stack, attack, none)
GAME_DECIDED = "GameDecided"  # ended_by, scores, base_cards, places, discarded: influence counted, the end
#: The end event of games recorded before every game ended with ``GameDecided`` (read when replaying them).
INFLUENCE_COUNTED = "InfluenceCounted"


class Termination(StrEnum):
    """How a game of Political Divide & Conquer ends."""

    DECK_EXHAUSTED = "deck-exhausted"  # the last turns after the deck ran out are played
