"""The steps Chancellors takes by itself, and the chance it waits for.

After every command the game reveals the chosen cards once everyone has
chosen, escalates the unsolved problems, ends the game or begins the next
turn, so the state ``decide`` leaves always waits for a player or for chance.
"""

from __future__ import annotations

from engines.base import ChanceRequest, Event
from engines.chancellors import control
from engines.chancellors import events as ev
from engines.chancellors.state import (
    CHOOSE,
    DRAW,
    ESCALATE,
    NEXT_TURN,
    OPEN,
    OPENING,
    PART,
    RENEW,
    SOLVED,
    UNFOLD,
    ChancellorsState,
)
from engines.chancellors.turns import places


def automatic(state: ChancellorsState) -> list[Event]:
    if state.phase == CHOOSE and all(
        state.chosen[s] is not None or not state.hands[s] for s in range(state.seats)
    ):
        revealed = list(state.chosen)
        return [Event(ev.CARDS_REVEALED, {"cards": revealed}), *control.resolve(state, revealed)]
    if state.phase == ESCALATE:
        return _escalate(state)
    if state.phase == NEXT_TURN:
        return [Event(ev.TURN_BEGAN, {"turn": state.turn + 1})]
    return []


def _escalate(state: ChancellorsState) -> list[Event]:
    """(D) The lower die of every unsolved problem goes up by one; a 6 and 6 ends the game.

    Catastrophe is checked on the problems as they stand after the
    partly solved ones unfolded. The target is checked here too: the
    rerolls and draws left in the turn cannot change any score.
    """
    unsolved = [i for i, p in enumerate(state.problems) if p.status == OPEN]
    boiling = [i for i in unsolved if state.problems[i].dice == (6, 6)]
    if boiling:
        return [
            Event(ev.CATASTROPHE_STRUCK, {"problems": boiling}),
            Event(
                ev.GAME_DECIDED,
                {
                    "ended_by": ev.Termination.CATASTROPHE.value,
                    "places": list(places(state.scores, lowest_wins=True)),
                    "scores": list(state.scores),
                },
            ),
        ]
    changes = []
    for i in unsolved:
        dice = list(state.problems[i].dice)
        low = dice.index(min(dice))
        before = list(dice)
        dice[low] += 1
        changes.append({"problem": i, "before": before, "dice": dice})
    events = [Event(ev.PROBLEMS_ESCALATED, {"changes": changes})]
    if max(state.scores) >= state.target:
        events.append(
            Event(
                ev.GAME_DECIDED,
                {
                    "ended_by": ev.Termination.TARGET_SCORE.value,
                    "places": list(places(state.scores, lowest_wins=False)),
                    "scores": list(state.scores),
                },
            )
        )
    return events


def chance(state: ChancellorsState) -> ChanceRequest | None:
    if state.phase == OPENING:
        for index, problem in enumerate(state.problems):
            if not problem.dice:
                return ChanceRequest("RollDice", dice=2, fixed={"problem": index})
        return _draw_request(state)
    if state.phase == UNFOLD:
        for index, problem in enumerate(state.problems):
            if problem.status == PART:
                return ChanceRequest("RollDice", dice=1, fixed={"problem": index})
    if state.phase == RENEW:
        for index, problem in enumerate(state.problems):
            if problem.status == SOLVED:
                return ChanceRequest("RollDice", dice=2, fixed={"problem": index})
    if state.phase == DRAW:
        return _draw_request(state)
    return None


def _draw_request(state: ChancellorsState) -> ChanceRequest | None:
    if not state.queue:
        return None
    pool = state.pile or tuple(sorted(state.discards))
    player = state.queue[0]
    return ChanceRequest(
        "DrawCards",
        draw=min(state.owed, len(pool)),
        pool=pool,
        seat=player,
        fixed={"player": player},
        dealt_to=player,
        unseen=_unseen_by(state, player) if state.pile else (),
    )


def _unseen_by(state: ChancellorsState, seat: int) -> tuple[str, ...]:
    """The cards ``seat`` cannot see: the pile, the other hands and their face-down choices."""
    others = [s for s in range(state.seats) if s != seat]
    return tuple(
        sorted(
            [
                *state.pile,
                *(c for s in others for c in state.hands[s]),
                *(c for s in others if (c := state.chosen[s]) is not None),
            ]
        )
    )
