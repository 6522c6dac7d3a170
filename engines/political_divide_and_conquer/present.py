"""What players see: views, redacted events, plain-English lines, luck, statistics."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from engines.base import Event
from engines.kit import windows
from engines.kit.labels import seat_name
from engines.kit.table import counted
from engines.political_divide_and_conquer import events as ev
from engines.political_divide_and_conquer.scoring import base_cards, influence, score, wing, wing_totals
from engines.political_divide_and_conquer.state import OVER, Draw, PdcState, dump_state

WINDOW_KINDS = {"attack-roll": "the attack roll"}


def _group(state: PdcState, group: str) -> dict[str, Any]:
    return {
        "card": group,
        "stack": list(state.stack(group)),
        "wing": wing(state, group),
        "influence": influence(state, group),
    }


def view(state: PdcState, seat: int | None) -> dict[str, Any]:
    """Other hands, the cards being kept and the deck's unknown cards are hidden;
    a known deck card shows only to the seats that know it. A finished game shows everything."""
    catalog = {"id": state.catalog.id, "version": state.catalog.version}
    if state.stage == OVER:
        return {**dump_state(state), "catalog": catalog}
    players = []
    for s, p in enumerate(state.players):
        left, right = wing_totals(state, s)
        entry: dict[str, Any] = {
            "seat": s,
            "base": [_group(state, g) for g in p.base],
            "hand_size": len(p.hand),
            "left": left,
            "right": right,
            "score": score(state, s),
            "base_cards": base_cards(state, s),
        }
        if s == seat:
            entry["hand"] = list(p.hand)
        players.append(entry)
    attack = None
    if state.attack is not None:
        a = state.attack
        attack = {
            **{k: list(v) if isinstance(v, tuple) else v for k, v in asdict(a).items()},
            "team": [_group(state, g) for g in a.team],
            "from_base": [_group(state, g) for g in a.from_base],
            "defence": [_group(state, g) for g in a.defence],
            "target": _group(state, a.target),
        }
    mine = seat is not None and seat == state.turn
    return {
        "catalog": catalog,
        "seats": state.seats,
        "you": seat,
        "stage": state.stage,
        "turn": state.turn,
        "step": state.step,
        "turns": state.turns,
        "deck": state.deck.view(seat),
        "unaffiliated": [_group(state, g) for g in state.unaffiliated],
        "discard": list(state.discard),
        "turned_up": list(state.turned_up),
        "players": players,
        "drawn": list(state.drawn) if mine else None,
        "drawn_count": len(state.drawn),
        "hand_was_empty": state.hand_was_empty,
        "attack": attack,
        "window": windows.view(state.window),
        "contenders": list(state.contenders),
        "ending": state.ending,
        "waiting_for": [
            {
                "kind": "draw" if isinstance(p, Draw) else "pick",
                "seat": p.seat if isinstance(p, Draw) else p.source,
            }
            for p in state.pending
        ],
    }


def redact(event: Event, seat: int | None) -> Event:
    """Cards drawn or kept show only to their holder; cards taken from a hand to
    another hand only to those two (cards discarded are face up)."""
    d = event.data
    if event.type == ev.CARDS_DRAWN and d.get("seat") != seat:
        return Event(
            event.type, {**{k: v for k, v in d.items() if k != "cards"}, "count": len(d.get("cards", ()))}
        )
    if event.type == ev.CARD_KEPT and d.get("seat") != seat:
        return Event(event.type, {k: v for k, v in d.items() if k not in ("card", "returned")})
    if (
        event.type == ev.CARDS_TAKEN
        and d.get("to") is not None
        and seat not in (d.get("to"), d.get("source"))
    ):
        return Event(
            event.type, {**{k: v for k, v in d.items() if k != "cards"}, "count": len(d.get("cards", ()))}
        )
    return event


def _who(names: Sequence[str], seat: Any) -> str:
    name = seat_name(names, seat)
    return f"Seat {seat}" if name is None else name


def _count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _added(d: dict) -> str:
    parts = []
    if d["groups"]:
        parts.append(_count(len(d["groups"])).replace("card", "group"))
    if d["stacks"]:
        parts.append(
            f"{counted(len(d['stacks']), 'assets')} or {'deficit' if len(d['stacks']) == 1 else 'deficits'}"
        )
    return " and ".join(parts)


def describe(event: Event, names: Sequence[str]) -> str:
    d = event.data
    t = event.type
    who = _who(names, d.get("seat"))
    if t == ev.GAME_STARTED:
        return f"A game of Political Divide & Conquer starts with {d['seats']} players."
    if t == ev.CARDS_DRAWN:
        n = len(d["cards"]) if "cards" in d else d.get("count", 0)
        verb = "is dealt" if d["reason"] == "deal" else "draws"
        place = {"top": " from the top of the deck", "bottom": " from the bottom of the deck"}.get(
            d["place"], ""
        )
        return f"{who} {verb} {_count(n)}{place}."
    if t == ev.CARD_TURNED_UP:
        if d["group"]:
            return f"{d['name']} is turned up: the opening unaffiliated group."
        return f"{d['name']} is turned up; it is not a group."
    if t == ev.CARDS_SHUFFLED_IN:
        return f"The {_count(len(d['cards']))} turned up before it go back into the deck."
    if t == ev.FIRST_PLAYER_ROLLED:
        rolls = ", ".join(f"{_who(names, s)} {v}" for s, v in zip(d["seats"], d["dice"], strict=True))
        if d["first"] is None:
            return f"Rolling for the first player: {rolls}; the highest roll again."
        return f"Rolling for the first player: {rolls}; {_who(names, d['first'])} goes first."
    if t == ev.TURN_STARTED:
        return f"{who} takes {'a final' if d['final'] else 'a'} turn."
    if t == ev.CARD_KEPT:
        return f"{who} keeps one card and returns the other to the {d['to']} of the deck."
    if t == ev.BOTH_KEPT:
        return f"{who} had an empty hand and keeps both cards."
    if t == ev.GROUP_REJECTED:
        return f"{who} rejects {d['name']} to the unaffiliated groups."
    if t == ev.GROUP_ADDED:
        return f"{who} adds {d['name']} to their base."
    if t == ev.CARD_STACKED:
        return f"{who} stacks {d['name']} onto {d['group_name']}."
    if t == ev.ATTACK_DECLARED:
        team = len(d["team"]) + len(d["from_base"])
        goal = "take over" if d["intent"] == "take-over" else "destroy"
        return f"{who} attacks {d['target_name']} to {goal} it, with a team of {_count(team).replace('card', 'group')}."
    if t == ev.DEFENCE_RAISED:
        return f"{who} raises, adding {_added(d)} to the defence."
    if t == ev.ATTACK_CALLED:
        return f"{who} calls: the attack team stands as it is."
    if t == ev.ANTE_UPPED:
        return f"{who} ups the ante, adding {_added(d)}."
    if t == ev.ATTACK_STANDS:
        return f"{who} does not up the ante."
    if t in windows.WINDOW_EVENTS:
        return windows.describe(event, names, WINDOW_KINDS)
    if t == ev.ATTACK_ROLLED:
        a, b = d["dice"]
        totals = f"{d['attack']} + {a} against {d['defence']} + {b}"
        outcome = {
            "taken-over": f"{who} takes over {d['target_name']}",
            "destroyed": f"{who} destroys {d['target_name']}",
            "failed": f"the attack on {d['target_name']} fails",
        }[d["result"]]
        return f"The attack rolls {totals}: {outcome}."
    if t == ev.ATTACK_CANCELLED:
        return f"{_who(names, d['by'])} calls off {who}'s attack; the attack team still joins {who}'s base."
    if t == ev.EVENT_PLAYED:
        target = f" on {_who(names, d['target'])}" if d.get("target") is not None else ""
        return f"{who} plays {d['name']}{target}."
    if t == ev.CARDS_TAKEN:
        n = len(d["cards"]) if "cards" in d else d.get("count", 0)
        source = _who(names, d["source"])
        if d["to"] is None:
            return f"{source} discards {_count(n)} at random."
        return f"{_who(names, d['to'])} takes {_count(n)} at random from {source}."
    if t == ev.TURN_ENDED:
        return f"{who} ends the turn without a choice." if d["took"] == "none" else f"{who}'s turn ends."
    if t in (ev.GAME_DECIDED, ev.INFLUENCE_COUNTED):
        winners = [_who(names, s) for s, p in enumerate(d["places"]) if p == 1]
        tally = ", ".join(f"{_who(names, s)} {v}" for s, v in enumerate(d["scores"]))
        return f"The deck is exhausted; net influence: {tally}. {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}."
    return t


def _mid_rank(outcomes: list[int], seen: int) -> float:
    below = sum(1 for o in outcomes if o < seen)
    equal = sum(1 for o in outcomes if o == seen)
    return (below + equal / 2) / len(outcomes)


def luck(state: PdcState, event: Event) -> dict[int, float]:
    """Dice only: a roll's place among every roll it could have been (0 worst, 1 best,
    ties at mid-rank). The attack's two dice count for the attacker as their
    difference, and the other way round for a defending player; a defence die
    rolled for an unaffiliated or an own group is nobody's (reading 19)."""
    d = event.data
    if event.type == ev.FIRST_PLAYER_ROLLED:
        return {s: (v - 0.5) / 6 for s, v in zip(d["seats"], d["dice"], strict=True)}
    if event.type == ev.ATTACK_ROLLED:
        differences = [a - b for a in range(1, 7) for b in range(1, 7)]
        a, b = d["dice"]
        mine = _mid_rank(differences, a - b)
        out = {d["seat"]: mine}
        if d["defender"] is not None and d["defender"] != d["seat"]:
            out[d["defender"]] = 1 - mine
        return out
    return {}


def statistics(state: PdcState) -> dict[str, Any]:
    seats = []
    for s, stats in enumerate(state.stats):
        left, right = wing_totals(state, s)
        row = dict(asdict(stats))
        row.update(
            {
                "score": score(state, s),
                "left": left,
                "right": right,
                "wing": "right" if right > left else "left" if left > right else "none",
                "base_groups": len(state.players[s].base),
                "base_cards": base_cards(state, s),
            }
        )
        seats.append(row)
    return {"turns": state.turns, "attacks": sum(s.attacks for s in state.stats), "seats": seats}


# -------------------------------------------------------------------- label
def _names(state: PdcState, cards: Sequence[str]) -> str:
    items = [state.card(c).name for c in cards]
    return " and ".join(items) if len(items) <= 2 else ", ".join(items[:-1]) + " and " + items[-1]


def _stacked(state: PdcState, stack: dict[str, Any]) -> str:
    """An asset or deficit stacked onto a group, by name."""
    return f"{state.card(stack['card']).name} on {state.card(stack['group']).name}"


def _joining(state: PdcState, command: dict[str, Any]) -> str:
    """The groups and the stacked assets or deficits a command adds to a fight, by name."""
    parts = [_names(state, command.get("groups") or command.get("team") or [])]
    parts += [_stacked(state, s) for s in command.get("stacks", [])]
    return "; ".join(p for p in parts if p) or "nothing"


def label_command(state: PdcState, command: dict[str, Any], names: Sequence[str], logged: str) -> str:
    """A legal command in the log's words (``logged``), naming the cards the
    log keeps out: the card kept, and what joins a fight."""
    who, t = _who(names, command["seat"]), command["type"]
    if t == "KeepCard":
        return f"{who} keeps {state.card(command['card']).name} and returns the other to the {command['return_to']} of the deck"
    if t == "DeclareAttack":
        goal = "take over" if command["intent"] == "take-over" else "destroy"
        target = state.card(command["target"]).name
        return f"{who} attacks {target} to {goal} it, with {_joining(state, command)}"
    if t == "RaiseDefence":
        return f"{who} raises, adding {_joining(state, command)} to the defence"
    if t == "UpTheAnte":
        return f"{who} ups the ante, adding {_joining(state, command)}"
    return logged


def awaited_label(state: PdcState, command: dict[str, Any], names: Sequence[str]) -> str:
    """The chance the table is about to enter, in the log's words."""
    t = command["type"]
    if t == "DrawCards":
        return f"{_who(names, command['to'])} draws"
    if t == "TurnUpCard":
        return "A card is turned up"
    if t == "RollForFirst":
        return f"Rolling for the first player: {', '.join(_who(names, s) for s in command['seats'])}"
    if t == "RollAttack":
        return f"{_who(names, state.attack.attacker)}'s attack on {state.card(command['target']).name} rolls"
    pick = state.pending[0]
    source = _who(names, command["source"])
    if pick.to is None:
        return f"{source} discards at random ({_who(names, pick.by)}'s event)"
    return f"{_who(names, pick.to)} takes at random from {source}"


# -------------------------------------------------------------- label_value
CARD_FIELDS = frozenset({"card", "cards", "team", "groups", "group", "target"})  # target: a group attacked
SEAT_FIELDS = frozenset({"seat", "to", "source", "seats", "target"})  # target: the seat an event falls on


def _card_name(state: PdcState, card: Any) -> str | None:
    return state.card(card).name if state.catalog.has(card) else None


def _stack_label(state: PdcState, stack: Any) -> str | None:
    if not isinstance(stack, dict) or not all(state.catalog.has(stack.get(k)) for k in ("card", "group")):
        return None
    return _stacked(state, stack)


def label_value(state: PdcState, field: str, value: Any, names: Sequence[str]) -> str | None:
    """One value of a command's field as the log words it: a card or group by its
    name, a seat by its player's name, a stacked card with the group it goes on;
    None for anything else (the scorepad then shows the value as it is)."""
    if field == "stacks":
        return _stack_label(state, value)
    if isinstance(value, str) and field in CARD_FIELDS:
        return _card_name(state, value)
    if field in SEAT_FIELDS:
        return seat_name(names, value)
    return None
