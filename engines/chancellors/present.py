"""What players see and read: views, redaction, descriptions, luck and statistics."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from engines.base import Event
from engines.chancellors import events as ev
from engines.chancellors.cards import CARDS, EXCUSE, SERVICE_IDS, SERVICES, label
from engines.chancellors.decide import actor
from engines.chancellors.flow import chance
from engines.chancellors.state import (
    CHOOSE,
    CONTROL,
    DISCARD,
    HAND_LIMIT,
    HELP,
    OVER,
    PART,
    SOLVED,
    ChancellorsState,
    Problem,
    dump_state,
)
from engines.kit.labels import is_index


# ---------------------------------------------------------------------- view
def _problem_view(problem: Problem) -> dict[str, Any]:
    if problem.status == PART:
        return {"dice": [problem.dice[0]], "set_aside": [problem.dice[1]], "status": problem.status}
    if problem.status == SOLVED:
        return {"dice": [], "set_aside": list(problem.dice), "status": problem.status}
    return {"dice": list(problem.dice), "set_aside": [], "status": problem.status}


def to_act(state: ChancellorsState) -> list[int]:
    """Seats the game waits for (none while chance is pending)."""
    if state.phase == OVER or chance(state) is not None:
        return []
    if state.phase == CHOOSE:
        return [s for s in range(state.seats) if state.chosen[s] is None and state.hands[s]]
    if state.phase in (CONTROL, HELP):
        seat = actor(state)
        return [] if seat is None else [seat]
    if state.phase == DISCARD:
        return [s for s in range(state.seats) if len(state.hands[s]) > HAND_LIMIT]
    return []


def view(state: ChancellorsState, seat: int | None) -> dict[str, Any]:
    """Hands are private; the face-down choices are hidden (even their owner's
    is shown only to them) until revealed. A finished game shows everything."""
    if state.phase == OVER:
        return {**dump_state(state), "finished": True}
    data: dict[str, Any] = {
        "finished": False,
        "phase": state.phase,
        "turn": state.turn,
        "target": state.target,
        "scores": list(state.scores),
        "problems": [_problem_view(p) for p in state.problems],
        "services": {sid: state.services[i] for i, sid in enumerate(SERVICE_IDS)},
        "acting_service": SERVICE_IDS[state.acting] if state.phase == CONTROL else None,
        "excuse_holder": state.excuse_holder,
        "excuse_used": state.excuse_used,
        "discards": list(state.discards),
        "pile_size": len(state.pile),
        "hand_sizes": [len(h) for h in state.hands],
        "chosen": [c is not None for c in state.chosen],
        "to_act": to_act(state),
        "waiting_for_chance": chance(state) is not None,
        "last_solver": state.last_solver,
        "deck": {"pawns": state.pawns, "courts": state.courts, "excuse": state.excuse},
    }
    if seat is not None:
        data["seat"] = seat
        data["hand"] = sorted(state.hands[seat])
        data["my_choice"] = state.chosen[seat]
    return data


def redact(event: Event, seat: int | None) -> Event:
    d = event.data
    if event.type == ev.CARD_CHOSEN and seat != d["seat"]:
        return Event(event.type, {"seat": d["seat"]})
    if event.type in (ev.CARDS_DEALT, ev.CARDS_DRAWN) and seat != d["player"]:
        return Event(
            event.type, {"player": d["player"], "count": len(d["cards"]), "excuse": EXCUSE in d["cards"]}
        )
    return event


# ------------------------------------------------------------------ describe
def _list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _dice(dice: Sequence[int]) -> str:
    return " and ".join(str(d) for d in dice)


def _service_title(sid: str | None) -> str:
    return next(s.title for s in SERVICES if s.id == sid) if sid else ""


def _capital(title: str) -> str:
    return title[0].upper() + title[1:]


def _problem(index: int) -> str:
    return f"Problem {index + 1}"


def _how(d: Any) -> str:
    if d.get("service"):
        return f"with {_service_title(d['service'])}"
    if d.get("excuse"):
        return "with the Excuse"
    return "without help"


_NUMBERS = {1: "one card", 2: "two cards", 3: "three cards"}


def describe(event: Event, names: Sequence[str]) -> str:
    d = event.data

    def who(seat: int | None) -> str:
        return names[seat] if seat is not None and seat < len(names) else f"Seat {seat}"

    t = event.type
    if t == ev.GAME_STARTED:
        return (
            f"A game of Chancellors begins for {d['seats']} players with {d['problems']} problems, "
            f"played to {d['target']}."
        )
    if t == ev.PROBLEM_ROLLED:
        verb = "is rolled" if d["reason"] == "opening" else "is rerolled as a new problem"
        return f"{_problem(d['problem'])} {verb}: {_dice(d['dice'])}."
    if t in (ev.CARDS_DEALT, ev.CARDS_DRAWN):
        count = d.get("count", len(d.get("cards", ())))
        verb = "is dealt" if t == ev.CARDS_DEALT else "draws"
        text = f"{who(d['player'])} {verb} {_NUMBERS.get(count, f'{count} cards')}"
        if d.get("excuse", EXCUSE in d.get("cards", ())):
            text += " and puts the Excuse in front of them"
        return text + "."
    if t == ev.DISCARDS_RESHUFFLED:
        return "The draw pile has run out: the discard pile is reshuffled."
    if t == ev.TURN_BEGAN:
        return f"Turn {d['turn']} begins."
    if t == ev.CARD_CHOSEN:
        return f"{who(d['seat'])} chooses a card face down."
    if t == ev.CARDS_REVEALED:
        shown = [f"{who(s)} plays {label(c)}" for s, c in enumerate(d["cards"]) if c is not None]
        return f"The cards are revealed: {_list(shown)}."
    if t == ev.SERVICE_TAKEN:
        title = _service_title(d["service"])
        if d["previous"] == d["seat"]:
            return f"{who(d['seat'])} keeps {title} with {label(d['card'])}."
        source = f" from {who(d['previous'])}" if d["previous"] is not None else ""
        return f"{who(d['seat'])} takes {title}{source} with {label(d['card'])}."
    if t == ev.SERVICE_DEADLOCKED:
        title = _service_title(d["service"])
        if d["previous"] is None:
            where = "stays in the centre"
        elif d["previous"] in d["seats"]:
            where = "goes back to the centre"
        else:
            where = f"goes back to the centre from {who(d['previous'])}"
        return (
            f"{_list([who(s) for s in d['seats']])} played cards of the same rank for {title} "
            f"with the same score; {title} {where}."
        )
    if t == ev.SERVICE_UNCONTESTED:
        title = _service_title(d["service"])
        where = "remains in the centre" if d["holder"] is None else f"stays with {who(d['holder'])}"
        return f"No one played a card for {title}; it {where}."
    if t == ev.PROBLEM_SOLVED:
        cards = _list([label(c) for c in d["cards"]])
        return (
            f"{who(d['seat'])} solves the {_dice(d['dice'])} {_how(d)}, playing {cards}, "
            f"and scores {d['points']}."
        )
    if t == ev.PROBLEM_PARTLY_SOLVED:
        return (
            f"{who(d['seat'])} solves part of the {_dice(d['dice'])} {_how(d)}, playing {label(d['card'])}, "
            f"sets the {d['set_aside']} aside and scores {d['points']}."
        )
    if t == ev.SERVICE_PASSED:
        return f"{who(d['seat'])} passes with {_service_title(d['service'])}."
    if t == ev.SERVICE_ABDICATED:
        return f"{who(d['seat'])} passes and abdicates {_service_title(d['service'])}."
    if t == ev.SOLVING_PASSED:
        return f"{who(d['seat'])} passes."
    if t == ev.EXCUSE_PASSED:
        return f"{who(d['seat'])} passes the Excuse to {who(d['to'])}."
    if t == ev.PROBLEM_UNFOLDED:
        return (
            f"{_problem(d['problem'])} unfolds: the set-aside die is rerolled to {d['rolled']}, "
            f"making {_dice(d['dice'])}."
        )
    if t == ev.PROBLEMS_ESCALATED:
        if not d["changes"]:
            return "No problem is left unsolved to escalate."
        parts = [
            f"problem {c['problem'] + 1} from {_dice(c['before'])} to {_dice(c['dice'])}"
            for c in d["changes"]
        ]
        noun = "An unsolved problem escalates" if len(parts) == 1 else "Unsolved problems escalate"
        return f"{noun}: {'; '.join(parts)}."
    if t == ev.CATASTROPHE_STRUCK:
        which = _list([str(i + 1) for i in d["problems"]])
        noun = "Problem" if len(d["problems"]) == 1 else "Problems"
        verb = "is" if len(d["problems"]) == 1 else "are"
        return (
            f"{noun} {which} {verb} already at 6 and 6 and escalate{'s' if verb == 'is' else ''} "
            "out of control: the King sacks his Chancellors."
        )
    if t == ev.CARDS_DISCARDED:
        return f"{who(d['seat'])} discards down to six: {_list([label(c) for c in d['cards']])}."
    if t == ev.GAME_DECIDED:
        winners = [who(s) for s, place in enumerate(d["places"]) if place == 1]
        score = d["scores"][d["places"].index(1)]
        verb = "wins" if len(winners) == 1 else "share the win"
        if d["ended_by"] == "catastrophe":
            return f"The game ends in catastrophe; with the lowest score, {_list(winners)} {verb} ({score})."
        return f"The game ends; {_list(winners)} {verb} with {score}."
    return t


# --------------------------------------------------------------------- luck
def _worth(cid: str) -> int:
    """How good a card is to hold: its place in the rank order (Ace 1 ... Crown
    12); the Excuse counts like a Pawn."""
    card = CARDS[cid]
    return card.strength + 1 if card.strength >= 0 else CARDS["harvest"].strength + 1


def percentile(pool: Sequence[int], drawn: Sequence[int]) -> float:
    """Mid-rank percentile of ``sum(drawn)`` among all equal-sized draws from ``pool``."""
    k = len(drawn)
    ways: list[dict[int, int]] = [defaultdict(int) for _ in range(k + 1)]
    ways[0][0] = 1
    for worth in pool:
        for j in range(k, 0, -1):
            for total, count in list(ways[j - 1].items()):
                ways[j][total + worth] += count
    mine = sum(drawn)
    every = sum(ways[k].values())
    below = sum(c for total, c in ways[k].items() if total < mine)
    return (below + ways[k].get(mine, 0) / 2) / every


def luck(state: ChancellorsState, event: Event) -> dict[int, float]:
    """Card draws only, for the drawing seat: how the total worth of the cards
    drawn ranks among every draw of that size from the pool (``state`` is the
    state just before the event). Dice are not attributed: a problem's roll
    is shared by the whole table."""
    if event.type not in (ev.CARDS_DEALT, ev.CARDS_DRAWN) or "cards" not in event.data:
        return {}
    cards = list(event.data["cards"])
    if not cards:
        return {}
    pool = list(state.pile or state.discards)
    pool += [c for c in cards if c not in pool]
    return {event.data["player"]: percentile([_worth(c) for c in pool], [_worth(c) for c in cards])}


# --------------------------------------------------------------- statistics
def statistics(state: ChancellorsState) -> dict[str, Any]:
    return {
        "turns": state.turn,
        "target": state.target,
        "ended_by": state.ended_by,
        "seats": [
            {
                "seat": s,
                "score": state.scores[s],
                "solved_whole": state.solved_whole[s],
                "solved_part": state.solved_part[s],
                "solved_without_help": state.solved_unaided[s],
                "services_won": state.services_won[s],
                "services_held": [sid for i, sid in enumerate(SERVICE_IDS) if state.services[i] == s],
                "abdications": state.abdications[s],
                "excuse_uses": state.excuse_uses[s],
            }
            for s in range(state.seats)
        ],
    }


# -------------------------------------------------------------------- label
def label_command(state: ChancellorsState, command: dict[str, Any], names: Sequence[str], logged: str) -> str:
    """A legal command in the log's words (``logged``); a card chosen face down
    is named, since the recorder sees it."""
    if command["type"] == "ChooseCard":
        return f"{names[command['seat']]} chooses {label(command['card'])} face down"
    return logged


def awaited_label(state: ChancellorsState, command: dict[str, Any], names: Sequence[str]) -> str:
    """The chance the table is about to enter, in the log's words."""
    if command["type"] == "RollDice":
        return f"{_problem(command['problem'])} is rolled"
    return f"{names[command['player']]} draws"


# -------------------------------------------------------------- value labels
_CARD_FIELDS = ("card", "cards")
_SEAT_FIELDS = ("seat", "player")


def _problem_title(state: ChancellorsState, index: int) -> str:
    """The problem's number and the dice on it still to solve, as the roll's line words them."""
    dice = _problem_view(state.problems[index])["dice"]
    return f"{_problem(index)}: {_dice(dice)}" if dice else _problem(index)


def label_value(state: ChancellorsState, field: str, value: Any, names: Sequence[str]) -> str | None:
    """One value of a command's field for the scorepad: a card as the log names
    it, a seat by its player's name, a problem by its number and dice; None
    for anything else (dice faces, booleans, unknown cards)."""
    if field in _CARD_FIELDS and isinstance(value, str) and value in CARDS:
        return _capital(label(value))
    if field in _SEAT_FIELDS and is_index(value, min(state.seats, len(names))):
        return names[value]
    if field == "problem" and is_index(value, len(state.problems)):
        return _problem_title(state, value)
    return None
